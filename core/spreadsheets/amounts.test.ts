import { describe, expect, it } from 'vitest';
import { amountText, parseWholeAmount } from './amounts.js';

describe('amounts', () => {
  /** [text, the number it writes, as a whole NT$ (null: empty, NaN: not whole)] */
  const CASES: Array<[string, string, number | null]> = [
    ['1500', '1500', 1500],
    ['1,500', '1500', 1500],
    ['$1,500', '1500', 1500],
    ['NT$1,500', '1500', 1500],
    ['nt$650', '650', 650],
    ['NTD 1,500', '1500', 1500],
    ['＄１，５００', '1500', 1500],
    ['1,500元', '1500', 1500],
    ['-$1,234', '-1234', -1234],
    ['$-1,234', '-1234', -1234],
    ['(1,234)', '-1234', -1234],
    ['1500.00', '1500.00', 1500],
    [' 2000 ', '2000', 2000],
    ['1500.5', '1500.5', NaN],
    ['一百', '一百', NaN],
    ['', '', null],
    ['-', '-', null],
  ];
  it.each(CASES)('%j', (text, plain, whole) => {
    expect(amountText(text)).toBe(plain);
    expect(parseWholeAmount(text)).toBe(whole);
  });
});
