import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { dateRangeError, instantRange } from './dateRange.js';
import { taipeiDayStart } from './time.js';

const DAY = 86_400_000;
function refusal(fn: () => unknown): { field: string; message: string } | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors[0];
    throw err;
  }
  return undefined;
}

describe('instantRange: the one date-range rule', () => {
  it('takes both Taiwan days whole', () => {
    expect(instantRange('2026-11-01', '2026-11-30')).toEqual({ gte: taipeiDayStart('2026-11-01'), lt: taipeiDayStart('2026-11-30')! + DAY });
  });

  it('allows the same day at both ends, and either end alone, and neither', () => {
    expect(instantRange('2026-11-05', '2026-11-05')).toEqual({ gte: taipeiDayStart('2026-11-05'), lt: taipeiDayStart('2026-11-06') });
    expect(instantRange('2026-11-05', undefined)).toEqual({ gte: taipeiDayStart('2026-11-05'), lt: undefined });
    expect(instantRange(null, '')).toEqual({ gte: undefined, lt: undefined });
  });

  it('refuses a start after the end, naming both, whatever the filter', () => {
    expect(refusal(() => instantRange('2026-11-30', '2026-11-01'))).toEqual({ field: 'filter', message: '開始日期（2026-11-30）不能晚於結束日期（2026-11-01）' });
    expect(refusal(() => instantRange('2026-11-02', '2026-11-01', { from: 'from', to: 'to' }))?.field).toBe('from');
  });

  it('refuses a date that is not one, on the end that is wrong', () => {
    expect(refusal(() => instantRange('2026-11-01', '2026-02-30', { from: 'from', to: 'to' }))).toEqual({ field: 'to', message: '日期格式錯誤：2026-02-30（請使用 YYYY-MM-DD）' });
    expect(refusal(() => instantRange(20261101, undefined))?.message).toBe('日期格式錯誤：20261101（請使用 YYYY-MM-DD）');
  });

  it('names the refusal for a form that checks before it asks, and nothing for a good or open range', () => {
    expect(dateRangeError('2026-11-12', '2026-11-10')).toBe('開始日期（2026-11-12）不能晚於結束日期（2026-11-10）');
    expect(dateRangeError('2026-11-10', '2026-11-10')).toBeNull();
    expect(dateRangeError('', '2026-11-10')).toBeNull();
    expect(dateRangeError('2026-02-30', '')).toBe('日期格式錯誤：2026-02-30（請使用 YYYY-MM-DD）');
  });
});
