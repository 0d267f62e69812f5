/** Dates and times as Taiwanese files write them (Gregorian or ROC 民國 `1151121`, `下午 3:15`), read one way everywhere. */
import { asciiDigits } from '../halfWidth.js';
import { ROC_YEAR_OFFSET, taipeiPartsToInstant } from '../time.js';

interface DayParts {
  year: number;
  month: number;
  day: number;
}
interface ClockParts {
  hour: number;
  minute: number;
  second: number;
}

const NEEDS_TIDY = /[\uFF10-\uFF19：\u3000\t\n\r\u00a0]|\s\s/;
/** Full-width digits and colons as ASCII, white space collapsed (most cells need only the trim). */
function tidy(raw: string): string {
  const s = raw.trim();
  if (!NEEDS_TIDY.test(s)) return s;
  return asciiDigits(s)
    .replace(/：/g, ':')
    .replace(/[\s\u3000]+/g, ' ')
    .trim();
}

const AMPM = /^(?:(上午|下午|AM|PM)\s*(.+)|(.+?)\s*(上午|下午|AM|PM))$/i;

/** A time of day, with 上午/下午 (AM/PM) before or after (`上午 12:05` is 00:05); `compact` takes `140322` as banks write it. */
export function parseClock(raw: string, opts: { compact?: boolean } = {}): ClockParts | null {
  // a date is no time: the common case in a date-time column, answered first
  if (raw.length > 16 || /[/\-年]/.test(raw)) return null;
  let s = tidy(raw);
  let mark: string | undefined;
  const ampm = AMPM.exec(s);
  if (ampm) {
    mark = (ampm[1] ?? ampm[4]).toUpperCase();
    s = (ampm[2] ?? ampm[3]).trim();
  }
  let m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(s);
  if (!m && opts.compact && !mark) m = /^(\d{2})(\d{2})(\d{2})?$/.exec(s);
  if (!m) return null;
  let hour = +m[1];
  const minute = +m[2];
  const second = m[3] ? +m[3] : 0;
  if (mark) {
    if (hour < 1 || hour > 12) return null;
    const pm = mark === '下午' || mark === 'PM';
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : null;
}

const yearOf = (y: string) => (y.length === 4 ? +y : +y + ROC_YEAR_OFFSET); // ROC years have 1 to 3 digits

const isRealDay = (d: DayParts) => partsToInstant(d, null) !== null;

/** A date and its time if given; null when not a date. The year is not range-checked: each reader words that. */
export function parseDateTime(raw: string): { date: DayParts; time: ClockParts | null } | null {
  const s = tidy(raw).replace(/^民國\s*/, '');
  let m = /^(\d{1,4})\s*([/\-.年])\s*(\d{1,2})\s*[/\-.月]\s*(\d{1,2})\s*[日號]?(?:(?:\s+|T|(?=[上下]))(.+))?$/.exec(s);
  let date: DayParts | null = null;
  let rest: string | undefined;
  if (m) {
    date = { year: yearOf(m[1]), month: +m[3], day: +m[4] };
    rest = m[5];
  } else if ((m = /^(\d{4})(\d{2})(\d{2})(?:(?:\s+|T)(.+))?$/.exec(s))) {
    date = { year: +m[1], month: +m[2], day: +m[3] };
    rest = m[4];
  } else if ((m = /^(\d{3})(\d{2})(\d{2})(?:(?:\s+|T)(.+))?$/.exec(s))) {
    date = { year: +m[1] + ROC_YEAR_OFFSET, month: +m[2], day: +m[3] };
    rest = m[4];
  }
  if (!date || !isRealDay(date)) return null;
  let time: ClockParts | null = null;
  if (rest !== undefined) {
    time = parseClock(rest, { compact: true });
    if (!time) return null;
  }
  return { date, time };
}

/** Taiwan wall clock; 00:00 without a time; null when not a real time. */
export function partsToInstant(date: DayParts, time: ClockParts | null): number | null {
  // fields listed, not spread: this runs once or twice a row of a million-row import
  return taipeiPartsToInstant({
    year: date.year,
    month: date.month,
    day: date.day,
    hour: time ? time.hour : 0,
    minute: time ? time.minute : 0,
    second: time ? time.second : 0,
  });
}

export function dateTextToInstant(raw: string): number | null {
  const p = parseDateTime(raw);
  return p ? partsToInstant(p.date, p.time) : null;
}

/** Written like a date, valid or not (`2026/13/40`): such a row must be read or refused, never skipped. */
export function looksLikeDate(raw: string): boolean {
  const s = tidy(raw).replace(/^民國\s*/, '');
  return /^\d{1,4}\s*[/\-.年]\s*\d{1,2}\s*[/\-.月]\s*\d{1,2}/.test(s) || /^\d{7,8}(?:$|[\sT])/.test(s);
}
