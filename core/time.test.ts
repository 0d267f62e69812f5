import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  normalizeTaiwanDateText,
  compactTimestamp,
  dayRangeToInstants,
  defaultDateRange,
  formatTaipei,
  instantToTaipeiParts,
  parseInstant,
  taipeiDate,
  taipeiDayStart,
  taipeiDayLastInstant,
  taipeiMsIntoDay,
  taipeiPartsToInstant,
  toIso,
  taipeiDayNumber,
  taipeiDayNumberDate,
  taipeiDayNumberStart,
} from './time.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (ms == null ? ms : new Date(ms).toISOString());

/** The server's TZ must not matter: every conversion is checked under several zones. */
/** Each zone with its offset in January as getTimezoneOffset reports it (minutes behind UTC). */
const ZONES: [string, number][] = [
  ['UTC', 0],
  ['America/Los_Angeles', 480],
  ['Asia/Taipei', -480],
  ['Pacific/Kiritimati', -840],
  ['Europe/London', 0],
];
const savedTz = process.env.TZ;

describe.each(ZONES)('Taiwan time with the process TZ set to %s', (zone, januaryOffset) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('really runs under that zone', () => {
    expect(new Date(at('2026-01-15T00:00:00Z')).getTimezoneOffset()).toBe(januaryOffset);
  });

  it('reads a datetime-local value as Taiwan time', () => {
    expect(iso(parseInstant('2026-11-18T09:15'))).toBe('2026-11-18T01:15:00.000Z');
    expect(iso(parseInstant('2026-11-18T09:15:30'))).toBe('2026-11-18T01:15:30.000Z');
    expect(iso(parseInstant('2026/11/18 09:15'))).toBe('2026-11-18T01:15:00.000Z');
    expect(iso(parseInstant('2026-11-18 09:15'))).toBe('2026-11-18T01:15:00.000Z');
    expect(iso(parseInstant('2026/11/18'))).toBe('2026-11-17T16:00:00.000Z');
    expect(iso(parseInstant('2026/1/5'))).toBe('2026-01-04T16:00:00.000Z');
  });

  it('reads an ISO instant with a zone as that instant', () => {
    expect(iso(parseInstant('2026-11-18T01:15:00.000Z'))).toBe('2026-11-18T01:15:00.000Z');
    expect(iso(parseInstant('2026-11-18T09:15:00+08:00'))).toBe('2026-11-18T01:15:00.000Z');
    expect(iso(parseInstant('2026-11-17T20:15:00-05:00'))).toBe('2026-11-18T01:15:00.000Z');
  });

  it('shows an instant in Taiwan time', () => {
    expect(formatTaipei(at('2026-11-18T01:15:00Z'))).toBe('2026/11/18 09:15');
    expect(formatTaipei(at('2026-11-18T01:15:07Z'), { seconds: true })).toBe('2026/11/18 09:15:07');
    expect(formatTaipei(at('2026-11-17T16:00:00Z'), { dateOnly: true })).toBe('2026/11/18');
    expect(formatTaipei(at('2026-11-17T15:59:59Z'), { dateOnly: true })).toBe('2026/11/17');
  });

  it('gives the Taiwan date of an instant', () => {
    expect(taipeiDate(at('2026-11-20T15:59:59.999Z'))).toBe('2026-11-20');
    expect(taipeiDate(at('2026-11-20T16:00:00.000Z'))).toBe('2026-11-21');
    expect(taipeiDate(at('2026-12-31T16:00:00.000Z'))).toBe('2027-01-01');
  });

  it('starts a Taiwan day at 16:00 UTC the day before', () => {
    expect(iso(taipeiDayStart('2026-11-18'))).toBe('2026-11-17T16:00:00.000Z');
    expect(iso(taipeiDayStart('2026/11/18'))).toBe('2026-11-17T16:00:00.000Z');
    expect(iso(taipeiDayStart('2027-01-01'))).toBe('2026-12-31T16:00:00.000Z');
  });

  it('names export files with a Taiwan YYYYMMDDHHmm timestamp', () => {
    expect(compactTimestamp(at('2026-11-18T01:15:00Z'))).toBe('202611180915');
    expect(compactTimestamp(at('2026-12-31T16:05:00Z'))).toBe('202701010005');
  });

  it('defaults the date filter to three days ago through today in Taiwan', () => {
    expect(defaultDateRange(at('2026-11-20T12:00:00Z'))).toEqual({ from: '2026-11-17', to: '2026-11-20' });
  });
});

describe('parseInstant refuses what is not a real time', () => {
  it.each([
    '',
    'abc',
    '2026-02-30',
    '2026-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-11-18T24:00',
    '2026-11-18T09:60',
    '20261118',
    '11/18/2026',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeNull();
  });

  it('accepts 29 February in a leap year', () => {
    expect(iso(parseInstant('2028-02-29'))).toBe('2028-02-28T16:00:00.000Z');
  });

  it.each(['2026-02-30T10:00:00Z', '2026-02-30T10:00:00+08:00', '2026-04-31T00:00:00.000Z', '2026-06-31T12:00Z'])(
    'refuses the impossible calendar date %j even with a zone, instead of rolling over to the next month',
    (text) => {
      expect(parseInstant(text)).toBeNull();
    },
  );
});

describe('taipeiPartsToInstant / instantToTaipeiParts', () => {
  it('round-trips a Taiwan wall-clock time', () => {
    const parts = { year: 2026, month: 11, day: 18, hour: 9, minute: 15, second: 30 };
    const ms = taipeiPartsToInstant(parts);
    expect(iso(ms)).toBe('2026-11-18T01:15:30.000Z');
    expect(instantToTaipeiParts(ms!)).toEqual(parts);
  });

  it('refuses parts that are not a real time', () => {
    const base = { year: 2026, month: 2, day: 28, hour: 0, minute: 0, second: 0 };
    expect(taipeiPartsToInstant({ ...base, day: 29 })).toBeNull();
    expect(taipeiPartsToInstant({ ...base, month: 13 })).toBeNull();
    expect(taipeiPartsToInstant({ ...base, day: 0 })).toBeNull();
    expect(taipeiPartsToInstant({ ...base, hour: 24 })).toBeNull();
    expect(taipeiPartsToInstant({ ...base, minute: 60 })).toBeNull();
  });
});

describe('taipeiDayStart', () => {
  it('refuses text that is not a calendar date', () => {
    for (const d of ['', '2026-02-30', 'today', '2026-11-18T00:00', '18-11-2026']) expect(taipeiDayStart(d)).toBeNull();
  });
});

describe('dayRangeToInstants: inclusive Taiwan days', () => {
  const range = dayRangeToInstants('2026-11-18', '2026-11-18');
  const inside = (iso: string) => {
    const ms = at(iso);
    return ms >= range.gte! && ms < range.lt!;
  };

  it('covers the whole Taiwan day from 00:00 to 23:59:59.999', () => {
    expect(iso(range.gte)).toBe('2026-11-17T16:00:00.000Z');
    expect(iso(range.lt)).toBe('2026-11-18T16:00:00.000Z');
    expect(inside('2026-11-17T16:00:00.000Z')).toBe(true); // 00:00 Taiwan
    expect(inside('2026-11-18T15:59:59.999Z')).toBe(true); // 23:59:59.999 Taiwan
  });

  it('leaves out the last moment of the day before and 00:00 of the next day', () => {
    expect(inside('2026-11-17T15:59:59.999Z')).toBe(false); // 2026-11-17 23:59:59.999 Taiwan
    expect(inside('2026-11-18T16:00:00.000Z')).toBe(false); // 2026-11-19 00:00 Taiwan
  });

  it('spans several days inclusively', () => {
    const r = dayRangeToInstants('2026-11-18', '2026-11-21');
    expect(iso(r.gte)).toBe('2026-11-17T16:00:00.000Z');
    expect(iso(r.lt)).toBe('2026-11-21T16:00:00.000Z');
  });

  it('allows either end to be missing', () => {
    expect(dayRangeToInstants()).toEqual({});
    expect(dayRangeToInstants(null, null)).toEqual({});
    expect(dayRangeToInstants('2026-11-18')).toEqual({ gte: at('2026-11-17T16:00:00.000Z') });
    expect(dayRangeToInstants(undefined, '2026-11-18')).toEqual({ lt: at('2026-11-18T16:00:00.000Z') });
  });

  it('takes a value with a time as that exact instant, inclusive', () => {
    const r = dayRangeToInstants('2026-11-18T01:00:00.000Z', '2026-11-18T02:00:00.000Z');
    expect(r.gte).toBe(at('2026-11-18T01:00:00.000Z'));
    expect(r.lt).toBe(at('2026-11-18T02:00:00.000Z') + 1);
  });

  it('names the bad value when a date is invalid, and gives no range', () => {
    for (const [from, to, bad] of [
      ['2026-02-30', '2026-03-01', '2026-02-30'],
      ['2026-03-01', 'abc', 'abc'],
      ['2026-03-01', '2026-03-01T99:00', '2026-03-01T99:00'],
    ]) {
      const r = dayRangeToInstants(from, to);
      expect(r.error).toBe(bad);
      expect(r.gte).toBeUndefined();
      expect(r.lt).toBeUndefined();
    }
  });
});

describe('defaultDateRange: three days ago to today, in Taiwan', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses the Taiwan date, which is already tomorrow after 16:00 UTC', () => {
    expect(defaultDateRange(at('2026-11-20T16:30:00Z'))).toEqual({ from: '2026-11-18', to: '2026-11-21' });
    expect(defaultDateRange(at('2026-11-20T15:59:59.999Z'))).toEqual({ from: '2026-11-17', to: '2026-11-20' });
    expect(defaultDateRange(at('2026-11-20T16:00:00.000Z'))).toEqual({ from: '2026-11-18', to: '2026-11-21' });
  });

  it('crosses month and year boundaries', () => {
    expect(defaultDateRange(at('2026-12-31T16:30:00Z'))).toEqual({ from: '2026-12-29', to: '2027-01-01' });
    expect(defaultDateRange(at('2026-03-01T04:00:00Z'))).toEqual({ from: '2026-02-26', to: '2026-03-01' });
    expect(defaultDateRange(at('2028-03-01T04:00:00Z'))).toEqual({ from: '2028-02-27', to: '2028-03-01' });
  });

  it('uses the current time by default', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-20T16:30:00Z'));
    expect(defaultDateRange()).toEqual({ from: '2026-11-18', to: '2026-11-21' });
  });
});

describe('addDays and toIso', () => {
  it('adds whole Taiwan days', () => {
    expect(addDays('2026-11-18', 1)).toBe('2026-11-19');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('refuses a bad date', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
  });

  it('writes an ISO 8601 UTC string', () => {
    expect(toIso(at('2026-11-18T01:15:00Z'))).toBe('2026-11-18T01:15:00.000Z');
  });
});

describe('normalizeTaiwanDateText: dates as Taiwanese offices type them', () => {
  it('reads 民國 years, 年月日 and 上午/下午 into what parseInstant reads', () => {
    const cases: Array<[string, string]> = [
      ['115/11/21', '2026/11/21'],
      ['115/11/21 15:30', '2026/11/21 15:30'],
      ['115-11-21', '2026/11/21'],
      ['民國115年11月21日', '2026/11/21'],
      ['2026年11月21日 下午 3:15', '2026/11/21 15:15'],
      ['2026/11/21 下午 3:15', '2026/11/21 15:15'],
      ['2026/11/21 上午 12:05', '2026/11/21 00:05'],
      ['2026/11/21 下午 12:05', '2026/11/21 12:05'],
      ['115/11/21 上午9:05:30', '2026/11/21 09:05:30'],
      ['2026/11/21 3:15 PM', '2026/11/21 15:15'],
      ['下午 3:15', '15:15'],
      ['2026/11/21 15:30', '2026/11/21 15:30'],
    ];
    for (const [text, want] of cases) expect(normalizeTaiwanDateText(text), text).toBe(want);
    expect(parseInstant(normalizeTaiwanDateText('115/11/21 下午 3:15'))).toBe(Date.parse('2026-11-21T07:15:00.000Z'));
  });

  it('leaves what it does not know as it was, so the error can name it', () => {
    for (const text of ['下午 13:15', 'yesterday', '2026/13/45', '11/21'])
      expect(parseInstant(normalizeTaiwanDateText(text)), text).toBeNull();
  });
});

describe('Taiwan day numbers (the per-day statistics count days this way)', () => {
  it('start at Taiwan midnight and name their Taiwan date, either side of UTC midnight', () => {
    const at = (iso: string) => Date.parse(iso);
    for (const iso of [
      '2026-11-23T00:00:00+08:00',
      '2026-11-23T07:59:59+08:00',
      '2026-11-23T08:00:00+08:00',
      '2026-11-23T23:59:59+08:00',
    ]) {
      const day = taipeiDayNumber(at(iso));
      expect(taipeiDayNumberStart(day)).toBe(at('2026-11-23T00:00:00+08:00'));
      expect(taipeiDayNumberDate(day)).toBe('2026-11-23');
    }
  });
});

describe('a Taiwan day’s last instant and the time into it (the export’s clock, a date-only statement line)', () => {
  it('end a millisecond before the next Taiwan midnight, and count from this one, whatever the hour in UTC', () => {
    const midnight = taipeiDayStart('2026-11-19')!; // 16:00 UTC the day before
    for (const ms of [midnight, midnight + 9 * 3_600_000 + 15 * 60_000, midnight + 86_400_000 - 1]) {
      expect(taipeiDayLastInstant(ms)).toBe(taipeiDayStart('2026-11-20')! - 1);
      expect(formatTaipei(taipeiDayLastInstant(ms), { seconds: true })).toBe('2026/11/19 23:59:59');
    }
    expect(taipeiMsIntoDay(midnight)).toBe(0);
    expect(taipeiMsIntoDay(midnight + 9 * 3_600_000 + 15 * 60_000)).toBe((9 * 60 + 15) * 60_000);
    expect(taipeiMsIntoDay(midnight - 1)).toBe(86_400_000 - 1);
  });
});
