/** How the import reads one cell (spec section 5); every file reader hands cells shaped as SheetJS shapes them. */
import { DAY_MS, normalizeTaiwanDateText, parseInstant, taipeiDayNumber, taipeiDayNumberStart } from '../time.js';
import { serialToInstant } from '../spreadsheets/serial.js';
import { csvDigitsValue } from '../spreadsheets/csvWrite.js';
import { parseClock, parseDateTime, partsToInstant } from '../spreadsheets/dates.js';

import type { SheetCell } from '../spreadsheets/cells.js';
export type Cell = SheetCell | undefined;

export function cellText(c: Cell): string {
  if (!c || c.t === 'z' || c.v === undefined || c.v === null) return '';
  if (c.t === 'e') return '';
  return String(c.w ?? c.v).trim();
}

export function isEmpty(c: Cell): boolean {
  if (c?.t === 'n') return false;
  return cellText(c) === '' && !(c && c.t === 'e');
}

/** The last five as the cell shows it: `01234` typed as text or as a number formatted 00000. */
export function lastFiveOf(c: Cell): string {
  if (!c) return '';
  if (c.t === 'n' && typeof c.v === 'number' && !c.w) return String(c.v).padStart(5, '0');
  return csvDigitsValue(cellText(c));
}

/** import_date_invalid: no date at all; import_date_wrong: a serial Excel cannot show */
type DateProblem = 'import_date_invalid' | 'import_date_wrong';
type TimeResult = { ms: number } | { error: DateProblem };

/** A date or time cell: an Excel serial number, or text such as `2026/11/18 09:15`. */
export function timeOf(c: Cell, date1904: boolean, businessDay: number | null): TimeResult | null {
  if (!c || isEmpty(c)) return null;
  if (c.t === 'n' && typeof c.v === 'number') {
    // A bare time (0 <= v < 1) belongs to the row's business date.
    if (c.v >= 0 && c.v < 1) {
      if (businessDay === null) return { error: 'import_date_invalid' };
      return { ms: businessDay + Math.round((c.v * DAY_MS) / 1000) * 1000 };
    }
    // 1151121 or 20261121 typed as a number is a date in digits (as a serial it would be year 4637+)
    const digits = c.v >= 1_000_000 && Number.isInteger(c.v) ? parseDateTime(String(c.v)) : null;
    if (digits) return { ms: partsToInstant(digits.date, null)! };
    const ms = serialToInstant(c.v, date1904);
    return ms === null ? { error: 'import_date_wrong' } : { ms };
  }
  if (c.t === 'd' && c.v instanceof Date) return { ms: c.v.getTime() };
  // Text: a bare time belongs to the business date; else Gregorian or ROC dates, 上午/下午, or an ISO instant.
  const text = cellText(c);
  const clock = businessDay === null ? null : parseClock(text);
  if (clock) return { ms: businessDay! + ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 1000 };
  const parts = parseDateTime(text);
  const ms = parts ? partsToInstant(parts.date, parts.time) : parseInstant(normalizeTaiwanDateText(text));
  return ms === null ? { error: 'import_date_invalid' } : { ms };
}

/** The start of the business date's day; an error when the cell holds something else. */
export function businessDayOf(c: Cell, date1904: boolean): { day: number | null; error?: DateProblem } {
  const t = timeOf(c, date1904, null);
  if (!t) return { day: null };
  if ('error' in t) return { day: null, error: t.error };
  return { day: taipeiDayNumberStart(taipeiDayNumber(t.ms)) };
}
