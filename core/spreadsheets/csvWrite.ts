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
/** Every character the three rules above look at: text with none of them passes unchanged. */
const PLAIN_UNSAFE = /[",;\t\r\n=+\-@]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  // most text holds none of the characters below: it is written as it is
  if (!PLAIN_UNSAFE.test(value)) return value;
  let safe = value.replace(SEPARATORS, "$1'");
  if (FORMULA_START.test(safe)) safe = `'${safe}`;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Digits that must stay text (a last five such as `01234`): written as `="01234"`, which Excel and
 * LibreOffice show as 01234 instead of the number 1234. Only plain digits are written this way, so
 * nothing else can become a formula.
 */
export function csvDigitsField(digits: string): string {
  return /^\d+$/.test(digits) ? `"=""${digits}"""` : csvCell(digits);
}

/** The text a `="01234"` cell stands for, as a reader of such a CSV meets it; other text unchanged. */
export function csvDigitsValue(text: string): string {
  const m = /^="(\d+)"$/.exec(text.trim());
  return m ? m[1] : text;
}
