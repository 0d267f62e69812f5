/**
 * The one CSV cell rule, for every CSV remit writes (the export, streamed or whole, and any
 * other): call `csvCell` for each value.
 *
 * A spreadsheet program reads a cell starting with = + - @ (or a tab or carriage return) as a
 * formula. Which character separates cells depends on the reader's locale: `,` here, `;` in
 * much of Europe, a tab when pasted. So a text value holding any of them is quoted, and every
 * part of it that a separator could make a cell of is neutralised with a leading `'`, whatever
 * the separator: `a;=cmd|' /C calc'!A0` becomes `"a;'=cmd|' /C calc'!A0"`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters after which a spreadsheet may start a new cell. */
const SEPARATORS = /([,;\t\r\n])(?=[=+\-@])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let safe = value.replace(SEPARATORS, "$1'");
  if (FORMULA_START.test(safe)) safe = `'${safe}`;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
