import { describe, expect, it } from 'vitest';
import {
  CONFIRMED_STATUS,
  DEFAULT_STATUS,
  STATUSES,
  STATUS_COLORS,
  fromCollectionStatus,
  isStatus,
  toCollectionStatus,
} from './paymentStatuses.js';

describe('payment statuses (spec section 4)', () => {
  it('are 未確認, 已入帳 and 未入帳', () => {
    expect([...STATUSES]).toEqual(['未確認', '已入帳', '未入帳']);
    for (const s of STATUSES) expect(isStatus(s)).toBe(true);
    for (const s of ['已點收', '未點收', '', 'pending', null, 1]) expect(isStatus(s)).toBe(false);
  });

  it('a new payment starts as 未確認', () => {
    expect(DEFAULT_STATUS).toBe('未確認');
  });

  it('only 已入帳 counts as confirmed', () => {
    expect(CONFIRMED_STATUS).toBe('已入帳');
  });

  it('pending is yellow, credited green, not credited red', () => {
    expect(STATUS_COLORS).toEqual({ 未確認: 'warning', 已入帳: 'success', 未入帳: 'error' });
  });
});

describe('export: 已入帳 becomes 已點收; both others become 未點收', () => {
  it('maps each status', () => {
    expect(toCollectionStatus('已入帳')).toBe('已點收');
    expect(toCollectionStatus('未確認')).toBe('未點收');
    expect(toCollectionStatus('未入帳')).toBe('未點收');
  });
});

describe('import: 已點收 becomes 已入帳; anything else becomes 未確認', () => {
  it('maps 已點收 to 已入帳', () => {
    expect(fromCollectionStatus('已點收')).toBe('已入帳');
  });

  it.each(['未點收', '', '已入帳', '未入帳', 'yes', null, undefined, 1])('maps %j to 未確認', (cell) => {
    expect(fromCollectionStatus(cell)).toBe('未確認');
  });

  it('round-trips a credited payment through export and import', () => {
    expect(fromCollectionStatus(toCollectionStatus('已入帳'))).toBe('已入帳');
    expect(fromCollectionStatus(toCollectionStatus('未入帳'))).toBe('未確認');
  });
});
