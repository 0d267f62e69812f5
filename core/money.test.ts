import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT, MIN_AMOUNT, formatNTD } from './money.js';

describe('formatNTD: NT$ with thousands separators', () => {
  it('formats amounts as the back office shows them', () => {
    expect(formatNTD(1234)).toBe('NT$1,234');
    expect(formatNTD(0)).toBe('NT$0');
    expect(formatNTD(1)).toBe('NT$1');
    expect(formatNTD(999)).toBe('NT$999');
    expect(formatNTD(1000)).toBe('NT$1,000');
    expect(formatNTD(1234567)).toBe('NT$1,234,567');
  });

  it('formats large totals without losing digits or switching to exponent notation', () => {
    expect(formatNTD(100_000_000)).toBe('NT$100,000,000');
    expect(formatNTD(123_456_789_012)).toBe('NT$123,456,789,012');
    expect(formatNTD(Number.MAX_SAFE_INTEGER)).toBe('NT$9,007,199,254,740,991');
  });

  it('shows whole dollars only', () => {
    expect(formatNTD(1234.4)).toBe('NT$1,234');
    expect(formatNTD(1234.6)).toBe('NT$1,235');
  });

  it('puts the sign of a negative amount in front', () => {
    expect(formatNTD(-1234)).toBe('-NT$1,234');
  });
});

describe('amount limits', () => {
  it('the minimum payment is NT$1 (spec section 9)', () => {
    expect(MIN_AMOUNT).toBe(1);
    expect(MAX_AMOUNT).toBeGreaterThan(MIN_AMOUNT);
  });
});
