// The only place that converts between UTC instants and Taiwan time: Taiwan has kept UTC+8 without
// daylight saving since 1979, so a fixed offset is exact, whatever the server's TZ.
const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Earliest and latest payment times accepted: guards against typos such as year 20260. */
export const MIN_INSTANT = Date.UTC(2000, 0, 1) - TAIPEI_OFFSET_MS;
export const MAX_INSTANT = Date.UTC(2100, 0, 1) - TAIPEI_OFFSET_MS;

interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** A Taiwan wall-clock time to a UTC instant (ms), or null when the parts are not a real time. */
export function taipeiPartsToInstant(p: LocalParts): number | null {
  const { year, month, day, hour, minute, second } = p;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return utc - TAIPEI_OFFSET_MS;
}

export function instantToTaipeiParts(ms: number): LocalParts {
  const d = new Date(ms + TAIPEI_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const LOCAL_RE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?$/;
const ZONED_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO instant with a zone, or a Taiwan wall clock without (`2026/11/18 09:15`), to ms; null when invalid. */
export function parseInstant(text: string): number | null {
  const s = text.trim();
  const zoned = ZONED_RE.exec(s);
  if (zoned) {
    // Date.parse rolls impossible dates forward (02-30 becomes 03-02): check the parts first.
    const [, y, mo, d, h, mi, sec] = zoned;
    if (taipeiPartsToInstant({ year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: sec ? +sec : 0 }) === null)
      return null;
    const ms = Date.parse(s);
    return Number.isFinite(ms) ? ms : null;
  }
  const m = LOCAL_RE.exec(s);
  if (!m) return null;
  return taipeiPartsToInstant({
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: m[4] ? Number(m[4]) : 0,
    minute: m[5] ? Number(m[5]) : 0,
    second: m[6] ? Number(m[6]) : 0,
  });
}

/** The year 民國 1 is 1912: a 民國 year plus this is the Western year. */
export const ROC_YEAR_OFFSET = 1911;

/** Spreadsheet dates as Taiwan's offices write them (民國, 年月日, 上午/下午) for parseInstant; unknown text, trimmed. */
export function normalizeTaiwanDateText(text: string): string {
  let s = text.trim().replace(/\s+/g, ' ').replace(/：/g, ':');
  s = s.replace(/^民國\s*/, '');
  // 115年11月21日 / 2026年11月21日 → 115/11/21
  s = s.replace(/^(\d{2,4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日號]?/, '$1/$2/$3');
  // a 民國 year: 1 to 3 digits before the first separator
  s = s.replace(
    /^(\d{1,3})([-/.])(\d{1,2})\2(\d{1,2})(?=$|[ T])/,
    (_, y: string, _sep: string, mo: string, d: string) => `${Number(y) + ROC_YEAR_OFFSET}/${mo}/${d}`,
  );
  s = s.replace(/^(\d{4})\.(\d{1,2})\.(\d{1,2})(?=$|[ T])/, '$1/$2/$3');
  // 上午/下午 (AM/PM) before or after h:mm[:ss]
  const ampm =
    /^(.*?)\s*(?:(上午|下午|AM|PM|am|pm)\s*(\d{1,2}):(\d{2})(?::(\d{2}))?|(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(上午|下午|AM|PM|am|pm))$/.exec(
      s,
    );
  if (ampm) {
    const [, date, mark1, h1, m1, s1, h2, m2, s2, mark2] = ampm;
    const mark = (mark1 ?? mark2).toUpperCase();
    let hour = Number(h1 ?? h2);
    if (hour < 1 || hour > 12) return s;
    const pm = mark === '下午' || mark === 'PM';
    hour = (hour % 12) + (pm ? 12 : 0);
    const sec = s1 ?? s2;
    const time = `${pad(hour)}:${m1 ?? m2}${sec ? `:${sec}` : ''}`;
    s = date ? `${date.trim()} ${time}` : time;
  }
  return s;
}

/** A Taiwan calendar date `YYYY-MM-DD` (or `YYYY/MM/DD`) to the instant its day starts, or null. */
export function taipeiDayStart(date: string): number | null {
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(date.trim());
  if (!m) return null;
  return taipeiPartsToInstant({ year: +m[1], month: +m[2], day: +m[3], hour: 0, minute: 0, second: 0 });
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD` of the Taiwan date an instant falls on. */
export function taipeiDate(ms: number): string {
  const p = instantToTaipeiParts(ms);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Taiwan display format: `2026/11/18 09:15` (with seconds when asked). */
export function formatTaipei(ms: number, opts: { seconds?: boolean; dateOnly?: boolean } = {}): string {
  const p = instantToTaipeiParts(ms);
  const date = `${p.year}/${pad(p.month)}/${pad(p.day)}`;
  if (opts.dateOnly) return date;
  return `${date} ${pad(p.hour)}:${pad(p.minute)}${opts.seconds ? `:${pad(p.second)}` : ''}`;
}

/** A datetime-local field's value (`2026-11-18T09:15`) for an instant, in Taiwan time. */
export function taipeiInputValue(ms: number): string {
  return formatTaipei(ms).replace(/\//g, '-').replace(' ', 'T');
}

/** `YYYYMMDDHHmm` in Taiwan time, for export file names. */
export function compactTimestamp(ms: number): string {
  const p = instantToTaipeiParts(ms);
  return `${p.year}${pad(p.month)}${pad(p.day)}${pad(p.hour)}${pad(p.minute)}`;
}

/** `YYYYMMDD-HHmmss-SSS` in Taiwan time: a backup's file name, which sorts as the times do. */
export function fileStamp(ms: number): string {
  const p = instantToTaipeiParts(ms);
  const milli = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${p.year}${pad(p.month)}${pad(p.day)}-${pad(p.hour)}${pad(p.minute)}${pad(p.second)}-${milli}`;
}

/** The instant a `fileStamp` names, or null. */
export function fileStampInstant(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{3})$/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const at = taipeiPartsToInstant({ year, month, day, hour, minute, second });
  return at === null ? null : at + Number(m[7]);
}

export function addDays(date: string, days: number): string {
  const start = taipeiDayStart(date);
  if (start === null) throw new RangeError(`not a date: ${date}`);
  return taipeiDate(start + days * DAY_MS);
}

/** The spec's default date filter: from three days ago to today, as Taiwan dates. */
export function defaultDateRange(now: number = Date.now()): { from: string; to: string } {
  const to = taipeiDate(now);
  return { from: addDays(to, -3), to };
}

/** Inclusive Taiwan dates (or exact instants) to [gte, lt); outside 2000–2099 is `outOfRange` (year 10000 breaks). */
export function dayRangeToInstants(
  from?: string | null,
  to?: string | null,
): { gte?: number; lt?: number; error?: string; errorAt?: 'from' | 'to'; outOfRange?: boolean } {
  const out: { gte?: number; lt?: number } = {};
  const inRange = (ms: number) => ms >= MIN_INSTANT && ms < MAX_INSTANT;
  if (from) {
    const v = /T|:/.test(from) ? parseInstant(from) : taipeiDayStart(from);
    if (v === null) return { error: from, errorAt: 'from' };
    if (!inRange(v)) return { error: from, errorAt: 'from', outOfRange: true };
    out.gte = v;
  }
  if (to) {
    const exact = /T|:/.test(to);
    const v = exact ? parseInstant(to) : taipeiDayStart(to);
    if (v === null) return { error: to, errorAt: 'to' };
    if (!inRange(v)) return { error: to, errorAt: 'to', outOfRange: true };
    out.lt = exact ? v + 1 : v + DAY_MS;
  }
  return out;
}

/** Spreadsheets hold the Taiwan wall clock as if it were UTC (an Excel serial): these two convert. */
export function instantToTaipeiWallClock(ms: number): number {
  return ms + TAIPEI_OFFSET_MS;
}
export function taipeiWallClockToInstant(wallMs: number): number {
  return wallMs - TAIPEI_OFFSET_MS;
}

/** Days since 1970-01-01 in Taiwan time, as the per-day statistics count them. */
export function taipeiDayNumber(ms: number): number {
  return Math.floor((ms + TAIPEI_OFFSET_MS) / DAY_MS);
}

export function taipeiDayNumberStart(day: number): number {
  return day * DAY_MS - TAIPEI_OFFSET_MS;
}

export function taipeiDayLastInstant(ms: number): number {
  return taipeiDayNumberStart(taipeiDayNumber(ms) + 1) - 1;
}

/** Milliseconds since Taiwan midnight of the day `day` (a `taipeiDayNumber`) that `ms` falls on. */
export function taipeiMsIntoDay(ms: number, day: number = taipeiDayNumber(ms)): number {
  return ms - taipeiDayNumberStart(day);
}

type SqlDialect = 'sqlite' | 'pg';

/** In SQL, as payment_daily's triggers (a test checks): integer division is the floor for times after 1970. */
export function taipeiDayNumberSql(column: string, dialect: SqlDialect): string {
  // The same in both dialects; one that needs another text says so here, not in its caller.
  void dialect;
  return `((${column} + ${TAIPEI_OFFSET_MS}) / ${DAY_MS})`;
}

export function taipeiDayNumberDate(day: number): string {
  return taipeiDate(taipeiDayNumberStart(day));
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The Taiwan weekday of an instant: 0 Sunday … 6 Saturday. */
export function taipeiWeekday(ms: number): number {
  return (((taipeiDayNumber(ms) + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

/** Hours since Taiwan midnight, with fractions (14:30 → 14.5). */
export function taipeiHourOfDay(ms: number): number {
  return (ms - taipeiDayNumberStart(taipeiDayNumber(ms))) / 3_600_000;
}

/** When the first weekday after `ms`'s Taiwan day begins: a bank books then what waited for a business day. */
export function nextBusinessDayStart(ms: number): number {
  let day = taipeiDayNumber(ms) + 1;
  while (taipeiWeekday(taipeiDayNumberStart(day)) % 6 === 0) day++;
  return taipeiDayNumberStart(day);
}
