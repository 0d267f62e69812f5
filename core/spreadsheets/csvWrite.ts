/**
 * The one CSV cell rule for every CSV remit writes, against formula injection: a spreadsheet reads a cell
 * starting with = + - @ as a formula, and its separator depends on locale (`,`, `;`, a tab), so every part
 * a separator could make a cell of gets a leading `'`: `a;=cmd|' /C calc'!A0` → `"a;'=cmd|' /C calc'!A0"`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const SEPARATORS = /([,;\t\r\n])(?=[=+\-@])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;
const PLAIN_UNSAFE = /[",;\t\r\n=+\-@]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (!PLAIN_UNSAFE.test(value)) return value;
  let safe = value.replace(SEPARATORS, "$1'");
  if (FORMULA_START.test(safe)) safe = `'${safe}`;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Digits that must stay text (`01234`) as `="01234"`; only plain digits, so nothing else can become a formula. */
export function csvDigitsField(digits: string): string {
  return /^\d+$/.test(digits) ? `"=""${digits}"""` : csvCell(digits);
}

/** The text a `="01234"` cell stands for; other text unchanged. */
export function csvDigitsValue(text: string): string {
  const m = /^="(\d+)"$/.exec(text.trim());
  return m ? m[1] : text;
}
