/**
 * The one date-range rule of every filter (payments, export, statistics, audit): Taiwan dates
 * (or exact ISO instants), either end optional, both ends inclusive, and the start must not be
 * after the end. The list, the export, the dashboard, the audit view and the CLI all go through it.
 */
import { ValidationError } from './errors.js';
import { MSG } from './messages.js';
import { dayRangeToInstants } from './time.js';

export interface InstantRange {
  /** first instant in the range, ms */
  gte?: number;
  /** first instant after the range, ms */
  lt?: number;
}

/** `from`/`to` as given to a filter, to a half-open instant range; a bad or reversed range is refused. */
export function instantRange(from: unknown, to: unknown, fields: { from: string; to: string } = { from: 'filter', to: 'filter' }): InstantRange {
  for (const [v, field] of [[from, fields.from], [to, fields.to]] as const) {
    if (v !== undefined && v !== null && typeof v !== 'string') throw ValidationError.single(field, MSG.badDate(String(v)));
  }
  const range = dayRangeToInstants((from as string | null | undefined) || null, (to as string | null | undefined) || null);
  if (range.error !== undefined) throw ValidationError.single(range.errorAt === 'to' ? fields.to : fields.from, MSG.badDate(range.error));
  if (range.gte !== undefined && range.lt !== undefined && range.gte >= range.lt) {
    throw ValidationError.single(fields.from, MSG.dateRangeReversed(String(from), String(to)));
  }
  return { gte: range.gte, lt: range.lt };
}

/** A filter date without a time part (or none): answerable from the per-day table (payment_daily). */
export function isWholeDays(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (typeof v === 'string' && !/T|:/.test(v));
}
