import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import {
  canStepForward,
  dateRangeError,
  instantRange,
  QUICK_RANGES,
  quickDateRange,
  stepDateRange,
  withSearch,
  dateRangeText,
} from './dateRange.js';
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
    expect(instantRange('2026-11-01', '2026-11-30')).toEqual({
      gte: taipeiDayStart('2026-11-01'),
      lt: taipeiDayStart('2026-11-30')! + DAY,
    });
  });

  it('allows the same day at both ends, and either end alone, and neither', () => {
    expect(instantRange('2026-11-05', '2026-11-05')).toEqual({
      gte: taipeiDayStart('2026-11-05'),
      lt: taipeiDayStart('2026-11-06'),
    });
    expect(instantRange('2026-11-05', undefined)).toEqual({ gte: taipeiDayStart('2026-11-05'), lt: undefined });
    expect(instantRange(null, '')).toEqual({ gte: undefined, lt: undefined });
  });

  it('refuses a start after the end, naming both, whatever the filter', () => {
    expect(refusal(() => instantRange('2026-11-30', '2026-11-01'))).toEqual({
      field: 'filter',
      message: '開始日期（2026-11-30）不能晚於結束日期（2026-11-01）',
    });
    expect(refusal(() => instantRange('2026-11-02', '2026-11-01', { from: 'from', to: 'to' }))?.field).toBe('from');
  });

  it('refuses a date that is not one, on the end that is wrong', () => {
    expect(refusal(() => instantRange('2026-11-01', '2026-02-30', { from: 'from', to: 'to' }))).toEqual({
      field: 'to',
      message: '日期格式錯誤：2026-02-30（請使用 YYYY-MM-DD）',
    });
    expect(refusal(() => instantRange(20261101, undefined))?.message).toBe(
      '日期格式錯誤：20261101（請使用 YYYY-MM-DD）',
    );
  });

  it('names the refusal for a form that checks before it asks, and nothing for a good or open range', () => {
    expect(dateRangeError('2026-11-12', '2026-11-10')).toBe('開始日期（2026-11-12）不能晚於結束日期（2026-11-10）');
    expect(dateRangeError('2026-11-10', '2026-11-10')).toBeNull();
    expect(dateRangeError('', '2026-11-10')).toBeNull();
    expect(dateRangeError('2026-02-30', '')).toBe('日期格式錯誤：2026-02-30（請使用 YYYY-MM-DD）');
  });
});

describe('quickDateRange: 今天, 昨天, 本週, 本月, 上月 in Taiwan time', () => {
  // 2026-11-23 is a Monday; 01:30 in Taipei is still 2026-11-22 (a Sunday) in UTC.
  const at = (iso: string) => Date.parse(iso);
  const mondayEarly = at('2026-11-23T01:30:00+08:00');

  it('takes today and yesterday from the Taiwan date, not the UTC one', () => {
    expect(quickDateRange('today', mondayEarly)).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(quickDateRange('yesterday', mondayEarly)).toEqual({ from: '2026-11-22', to: '2026-11-22' });
    expect(quickDateRange('today', at('2026-11-22T23:59:59+08:00'))).toEqual({ from: '2026-11-22', to: '2026-11-22' });
  });

  it('starts the week on Monday and ends it on Sunday', () => {
    expect(quickDateRange('thisWeek', mondayEarly)).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    // Sunday belongs to the week that began the Monday before.
    expect(quickDateRange('thisWeek', at('2026-11-29T23:00:00+08:00'))).toEqual({
      from: '2026-11-23',
      to: '2026-11-29',
    });
    expect(quickDateRange('thisWeek', at('2026-11-22T12:00:00+08:00'))).toEqual({
      from: '2026-11-16',
      to: '2026-11-22',
    });
    // A week across a month and a year.
    expect(quickDateRange('thisWeek', at('2027-01-01T12:00:00+08:00'))).toEqual({
      from: '2026-12-28',
      to: '2027-01-03',
    });
  });

  it('takes whole calendar months, this one and the one before, across a year and a leap day', () => {
    expect(quickDateRange('thisMonth', mondayEarly)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(quickDateRange('lastMonth', mondayEarly)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(quickDateRange('thisMonth', at('2026-12-31T23:59:00+08:00'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
    expect(quickDateRange('lastMonth', at('2027-01-01T00:00:00+08:00'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
    expect(quickDateRange('lastMonth', at('2028-03-15T12:00:00+08:00'))).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(quickDateRange('thisMonth', at('2027-02-10T12:00:00+08:00'))).toEqual({
      from: '2027-02-01',
      to: '2027-02-28',
    });
  });

  it('gives ranges the date filter accepts', () => {
    for (const r of QUICK_RANGES) {
      const { from, to } = quickDateRange(r, mondayEarly);
      expect(() => instantRange(from, to)).not.toThrow();
    }
  });
});

describe('day by day, and a search over every date', () => {
  // 2026/11/25 10:00 in Taipei
  const now = Date.parse('2026-11-25T02:00:00Z');
  it('‹ and › move both ends a day; without dates ‹ shows yesterday; › stops at today', () => {
    expect(stepDateRange('2026-11-20', '2026-11-20', -1, now)).toEqual({ from: '2026-11-19', to: '2026-11-19' });
    expect(stepDateRange('2026-11-22', '2026-11-25', -1, now)).toEqual({ from: '2026-11-21', to: '2026-11-24' });
    expect(stepDateRange('2026-02-28', '2026-02-28', 1, now)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(stepDateRange(undefined, undefined, -1, now)).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(stepDateRange('2026-11-01', undefined, 1, now)).toEqual({ from: '2026-11-02', to: '' });
    expect(canStepForward('2026-11-24', '2026-11-24', now)).toBe(true);
    expect(canStepForward('2026-11-25', '2026-11-25', now)).toBe(false);
    expect(canStepForward('2026-11-22', '2026-11-25', now)).toBe(false);
    expect(canStepForward(undefined, undefined, now)).toBe(false);
  });
  it('a search leaves out the default days, keeps chosen ones, and emptying it brings the default back', () => {
    const opened = { paid_at_gte: '2026-11-22', paid_at_lte: '2026-11-25', status: '未確認' };
    const searching = withSearch(opened, ' 66510 ', now);
    expect(searching).toEqual({ status: '未確認', q: '66510' });
    expect(withSearch(searching, '6651', now)).toEqual({ status: '未確認', q: '6651' });
    expect(withSearch(searching, '', now)).toEqual(opened);
    // dates the user chose stay, with or without a search
    const chosen = { paid_at_gte: '2026-10-01', paid_at_lte: '2026-10-31' };
    expect(withSearch(chosen, '97531', now)).toEqual({ ...chosen, q: '97531' });
    expect(withSearch({ ...chosen, q: '97531' }, '', now)).toEqual(chosen);
    // every date chosen (清除篩選), then a search: still every date; nothing to search, nothing added
    expect(withSearch({}, '', now)).toEqual({});
  });
});

describe('dates as a person reads them', () => {
  it('a range, one day, open ends, none', () => {
    expect(dateRangeText('2026-11-22', '2026-11-25')).toBe('2026/11/22–2026/11/25');
    expect(dateRangeText('2026-11-25', '2026-11-25')).toBe('2026/11/25');
    expect(dateRangeText('2026-11-01', undefined)).toBe('2026/11/01 起');
    expect(dateRangeText(undefined, '2026-11-30')).toBe('2026/11/30 止');
    expect(dateRangeText(undefined, undefined)).toBe('');
  });
});
