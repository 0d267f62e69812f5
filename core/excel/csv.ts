/**
 * CSV cells as Excel and LibreOffice read them back. One place for the rules, so the export
 * (whole or streamed) writes every cell the same way.
 */

/** A spreadsheet program reads a cell starting with these as a formula; such text gets a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: formula-like text defused, quoted when it holds a quote, comma or line break. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Digits that must stay text (a last five such as `01234`): written as `="01234"`, which Excel and
 * LibreOffice show as 01234 instead of the number 1234. Only plain digits are written this way, so
 * nothing else can become a formula.
 */
export function csvDigitsField(digits: string): string {
  return /^\d+$/.test(digits) ? `"=""${digits}"""` : csvField(digits);
}

/** The text a `="01234"` cell stands for, as a reader of such a CSV meets it; other text unchanged. */
export function csvDigitsValue(text: string): string {
  const m = /^="(\d+)"$/.exec(text.trim());
  return m ? m[1] : text;
}
