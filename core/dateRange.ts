// The one date-range rule of every filter: Taiwan dates (or exact ISO instants), either end optional,
// both ends inclusive, the start not after the end.
import { ValidationError } from './errors.js';
import { addDays, dayRangeToInstants, defaultDateRange, taipeiDate } from './time.js';

/** Half-open, in ms. */
interface InstantRange {
  gte?: number;
  lt?: number;
}

/** A filter's `from`/`to` as instants; refuses a bad or reversed range, or one outside 2000–2099. */
export function instantRange(
  from: unknown,
  to: unknown,
  fields: { from: string; to: string } = { from: 'filter', to: 'filter' },
): InstantRange {
  for (const [v, field] of [
    [from, fields.from],
    [to, fields.to],
  ] as const) {
    if (v !== undefined && v !== null && typeof v !== 'string')
      throw ValidationError.single(field, 'bad_date', { value: String(v) });
  }
  const range = dayRangeToInstants(
    (from as string | null | undefined) || null,
    (to as string | null | undefined) || null,
  );
  if (range.error !== undefined) {
    const field = range.errorAt === 'to' ? fields.to : fields.from;
    throw ValidationError.single(field, range.outOfRange ? 'date_out_of_range' : 'bad_date', { value: range.error });
  }
  if (range.gte !== undefined && range.lt !== undefined && range.gte >= range.lt) {
    throw ValidationError.single(fields.from, 'date_range_reversed', { from: String(from), to: String(to) });
  }
  return { gte: range.gte, lt: range.lt };
}

/** The sentence `instantRange` would refuse `from`/`to` with, or null: for a form that checks before it asks. */
export function dateRangeError(from: unknown, to: unknown): string | null {
  try {
    instantRange(from, to);
    return null;
  } catch (err) {
    if (err instanceof ValidationError) return err.errors[0].message;
    throw err;
  }
}

/** The quick ranges beside the payment list's date fields (今天, 昨天, 本週, 本月, 上月). */
export const QUICK_RANGES = ['today', 'yesterday', 'thisWeek', 'thisMonth', 'lastMonth'] as const;
type QuickRange = (typeof QUICK_RANGES)[number];

/** A quick range as inclusive Taiwan dates, whatever the machine's clock; weeks run Monday to Sunday. */
export function quickDateRange(range: QuickRange, now: number = Date.now()): { from: string; to: string } {
  const today = taipeiDate(now);
  const [y, m, d] = today.split('-').map(Number);
  const monthStart = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}-01`;
  switch (range) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const y1 = addDays(today, -1);
      return { from: y1, to: y1 };
    }
    case 'thisWeek': {
      const sinceMonday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
      const monday = addDays(today, -sinceMonday);
      return { from: monday, to: addDays(monday, 6) };
    }
    case 'thisMonth': {
      const first = monthStart(y, m);
      return { from: first, to: addDays(monthStart(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1), -1) };
    }
    case 'lastMonth': {
      const first = monthStart(m === 1 ? y - 1 : y, m === 1 ? 12 : m - 1);
      return { from: first, to: addDays(monthStart(y, m), -1) };
    }
  }
}

/** A filter date without a time part (or none): answerable from the per-day table (payment_daily). */
export function isWholeDays(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (typeof v === 'string' && !/T|:/.test(v));
}

/** ‹ and ›: both ends moved by `days` (a missing end stays missing); without dates, from today. */
export function stepDateRange(
  from: string | undefined,
  to: string | undefined,
  days: number,
  now: number = Date.now(),
): { from: string; to: string } {
  const today = taipeiDate(now);
  if (!from && !to) return { from: addDays(today, days), to: addDays(today, days) };
  return { from: from ? addDays(from, days) : '', to: to ? addDays(to, days) : '' };
}

/** Whether › may step: the range would still end on or before today (no payments lie further ahead). */
export function canStepForward(from: string | undefined, to: string | undefined, now: number = Date.now()): boolean {
  const next = stepDateRange(from, to, 1, now);
  const last = next.to || next.from;
  return last !== '' && last <= taipeiDate(now);
}

/** A search looks at every date: the default range is dropped while searching, back once emptied; chosen dates stay. */
export function withSearch(
  filter: Record<string, unknown>,
  q: string,
  now: number = Date.now(),
): Record<string, unknown> {
  const { q: before, ...next } = filter;
  const text = q.trim();
  const d = defaultDateRange(now);
  if (text) {
    if (next.paid_at_gte === d.from && next.paid_at_lte === d.to) {
      delete next.paid_at_gte;
      delete next.paid_at_lte;
    }
    return { ...next, q: text };
  }
  const searched = typeof before === 'string' && before.trim() !== '';
  if (searched && next.paid_at_gte === undefined && next.paid_at_lte === undefined)
    return { ...next, paid_at_gte: d.from, paid_at_lte: d.to };
  return next;
}

/** A filter's dates as a person reads them: 2026/11/22–2026/11/25, one day once, an open end as 起 / 止; '' for none. */
export function dateRangeText(from: string | undefined, to: string | undefined): string {
  const f = from ? from.replaceAll('-', '/') : '';
  const t = to ? to.replaceAll('-', '/') : '';
  if (f && t) return f === t ? f : `${f}–${t}`;
  if (f) return `${f} 起`;
  if (t) return `${t} 止`;
  return '';
}
