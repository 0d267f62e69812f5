import { describe, expect, it } from 'vitest';
import { fingerprints, fingerprintText } from './fingerprint.js';

const line = (
  extra: Partial<{
    at: number;
    amount: number;
    balance: number | null;
    summary: string;
    note: string;
    counterparty: string;
  }> = {},
) => ({
  at: 1_763_000_000_000,
  amount: 12_800,
  balance: 181_725,
  summary: 'ATM轉入',
  note: '0081234567890417',
  counterparty: '',
  ...extra,
});

describe('fingerprints', () => {
  it('a line re-saved by a spreadsheet program is the line already stored', () => {
    const csv = fingerprints([line()], '0123-456-789012');
    // LibreOffice read the 備註 as a number; full-width and doubled spaces are the same text
    expect(fingerprints([line({ note: '81234567890417' })], '0123456789012')).toEqual(csv);
    expect(fingerprints([line({ summary: 'ＡＴＭ轉入 ', note: '  0081234567890417' })], '0123-456-789012')).toEqual(
      csv,
    );
  });

  it('tells apart what differs: the account, the amount, the digits, the order of equal lines', () => {
    const [a] = fingerprints([line()], '0123-456-789012');
    expect(fingerprints([line()], '9999-456-789012')[0]).not.toBe(a);
    expect(fingerprints([line()], null)[0]).not.toBe(a);
    expect(fingerprints([line({ amount: 12_801 })], '0123-456-789012')[0]).not.toBe(a);
    expect(fingerprints([line({ note: '0081234567890418' })], '0123-456-789012')[0]).not.toBe(a);
    const [x, y] = fingerprints([line(), line()], '0123-456-789012');
    expect(x).toBe(a);
    expect(y).not.toBe(x);
  });

  it('drops the leading zeros of every run of digits, and keeps a lone zero', () => {
    expect(fingerprintText('利息 0 元')).toBe('利息 0 元');
    expect(fingerprintText('A0012 第007號')).toBe('A12 第7號');
  });
});
