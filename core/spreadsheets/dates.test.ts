import { describe, expect, it } from 'vitest';
import { dateTextToInstant, looksLikeDate, parseClock, parseDateTime } from './dates.js';
import { parseInstant } from '../time.js';

const t = (s: string) => parseInstant(s)!;

describe('parseDateTime', () => {
  /** [text, Taiwan wall clock it means, has a time] */
  const READ: Array<[string, string, boolean]> = [
    ['2026/11/21', '2026-11-21', false],
    ['2026-11-21', '2026-11-21', false],
    ['2026.11.21', '2026-11-21', false],
    ['2026年11月21日', '2026-11-21', false],
    ['20261121', '2026-11-21', false],
    ['115/11/21', '2026-11-21', false],
    ['115-11-21', '2026-11-21', false],
    ['民國115年11月21日', '2026-11-21', false],
    ['1151121', '2026-11-21', false],
    ['2026/11/21 15:15', '2026-11-21 15:15', true],
    ['2026-11-21T15:15:30', '2026-11-21 15:15:30', true],
    ['2026/11/21 下午 3:15', '2026-11-21 15:15', true],
    ['2026/11/21 3:15 PM', '2026-11-21 15:15', true],
    ['115/11/21 下午 3:15', '2026-11-21 15:15', true],
    ['115/11/21下午3:15', '2026-11-21 15:15', true],
    ['115/11/21 上午 12:05', '2026-11-21 00:05', true],
    ['115/11/21 14:03:22', '2026-11-21 14:03:22', true],
    ['1151121 140322', '2026-11-21 14:03:22', true],
    ['20261121 1403', '2026-11-21 14:03', true],
    ['２０２６／１１／２１'.replace(/／/g, '/'), '2026-11-21', false],
    ['2026/11/21 15：15', '2026-11-21 15:15', true],
  ];
  it.each(READ)('%j', (text, wall, hasTime) => {
    const p = parseDateTime(text);
    expect(p).not.toBeNull();
    expect(p!.time !== null).toBe(hasTime);
    expect(dateTextToInstant(text)).toBe(t(wall));
  });

  it.each([
    '2026/13/40',
    '2026/02/30',
    '1151345',
    '115/11/21 25:00',
    '2026/11/21 下午 13:00',
    '資料筆數：40',
    '合計',
    '12345',
    '',
    '2026/11/21 abc',
  ])('%j is not a date', (text) => {
    expect(parseDateTime(text)).toBeNull();
  });

  it('tells what looks like a date (read or refused) from what does not', () => {
    for (const s of ['2026/13/40', '1151345', '20261121', '115/11/21 25:00', '民國115年11月21日'])
      expect(looksLikeDate(s)).toBe(true);
    for (const s of ['資料筆數：40', '合計', '40', '54,321', '資料截至 2026/11/30', ''])
      expect(looksLikeDate(s)).toBe(false);
  });
});

describe('parseClock', () => {
  it('reads times with 上午/下午 and, in a time column, compact ones', () => {
    expect(parseClock('14:03:22')).toEqual({ hour: 14, minute: 3, second: 22 });
    expect(parseClock('下午 3:15')).toEqual({ hour: 15, minute: 15, second: 0 });
    expect(parseClock('12:30 AM')).toEqual({ hour: 0, minute: 30, second: 0 });
    expect(parseClock('上午 12:00')).toEqual({ hour: 0, minute: 0, second: 0 });
    expect(parseClock('下午 12:00')).toEqual({ hour: 12, minute: 0, second: 0 });
    expect(parseClock('140322')).toBeNull();
    expect(parseClock('140322', { compact: true })).toEqual({ hour: 14, minute: 3, second: 22 });
    expect(parseClock('1403', { compact: true })).toEqual({ hour: 14, minute: 3, second: 0 });
    expect(parseClock('25:00')).toBeNull();
    expect(parseClock('下午 13:00')).toBeNull();
  });
});
