/** Excel serial numbers <-> instants: the 1900 system with its leap-year quirk, the 1904 system, Taiwan time. */
import { afterEach, describe, expect, it } from 'vitest';
import { instantToSerial, serialToInstant } from './serial.js';

const HOUR = 60 * 60 * 1000;
/** The Taiwan wall clock of an instant, `YYYY-MM-DD HH:mm:ss`, computed without the product. */
const taipei = (ms: number | null) =>
  ms === null ? null : new Date(ms + 8 * HOUR).toISOString().replace('T', ' ').slice(0, 19);

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('serialToInstant: the 1900 date system', () => {
  it('reads a modern serial as Taiwan wall-clock time, whatever the process time zone', () => {
    for (const tz of ['UTC', 'America/New_York', 'Asia/Taipei', 'Pacific/Kiritimati']) {
      process.env.TZ = tz;
      expect(new Date(serialToInstant(46344.5)!).toISOString(), tz).toBe('2026-11-18T04:00:00.000Z');
      expect(new Date(serialToInstant(46344)!).toISOString(), tz).toBe('2026-11-17T16:00:00.000Z');
    }
  });

  it('reads the time fraction to the second', () => {
    // 09:15:30 is 33330 seconds into the day
    expect(taipei(serialToInstant(46344 + 33330 / 86400))).toBe('2026-11-18 09:15:30');
    expect(taipei(serialToInstant(46344 + 86399 / 86400))).toBe('2026-11-18 23:59:59');
  });

  it("handles Excel's 1900 leap-year quirk: 59 is 1900-02-28, 61 is 1900-03-01, 60 is no date", () => {
    expect(taipei(serialToInstant(1))).toBe('1900-01-01 00:00:00');
    expect(taipei(serialToInstant(59))).toBe('1900-02-28 00:00:00');
    expect(taipei(serialToInstant(61))).toBe('1900-03-01 00:00:00');
    expect(taipei(serialToInstant(61.75))).toBe('1900-03-01 18:00:00');
    expect(serialToInstant(60)).toBeNull(); // the 29 February 1900 that never was
    expect(serialToInstant(60.5)).toBeNull();
  });

  it('refuses what cannot be a date: negative, not finite, past 9999-12-31', () => {
    expect(serialToInstant(-1)).toBeNull();
    expect(serialToInstant(Number.NaN)).toBeNull();
    expect(serialToInstant(Number.POSITIVE_INFINITY)).toBeNull();
    expect(serialToInstant(2_958_466)).toBeNull();
    expect(taipei(serialToInstant(2_958_465))).toBe('9999-12-31 00:00:00');
  });
});

describe('serialToInstant: the 1904 date system', () => {
  it('counts from 1904-01-01, 1462 days after the 1900 system', () => {
    expect(new Date(serialToInstant(44882.5, true)!).toISOString()).toBe('2026-11-18T04:00:00.000Z');
    expect(taipei(serialToInstant(0, true))).toBe('1904-01-01 00:00:00');
    // no leap-year quirk in the 1904 system: 60 is an ordinary day
    expect(taipei(serialToInstant(60, true))).toBe('1904-03-01 00:00:00');
  });
});

describe('instantToSerial', () => {
  it('gives the serial of the Taiwan wall clock, whatever the process time zone', () => {
    for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo']) {
      process.env.TZ = tz;
      expect(instantToSerial(Date.parse('2026-11-18T04:00:00.000Z')), tz).toBe(46344.5);
      // 2026-11-18 23:30 UTC is already 2026-11-19 07:30 in Taiwan
      expect(instantToSerial(Date.parse('2026-11-18T23:30:00.000Z')), tz).toBeCloseTo(46345 + 7.5 / 24, 10);
    }
  });

  it('round-trips with serialToInstant to the second', () => {
    for (const iso of [
      '2026-11-18T01:15:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2025-12-31T16:00:00.000Z',
      '2030-06-30T15:59:59.000Z',
      '2000-02-29T03:04:05.000Z',
    ]) {
      expect(new Date(serialToInstant(instantToSerial(Date.parse(iso)))!).toISOString()).toBe(iso);
    }
  });
});
