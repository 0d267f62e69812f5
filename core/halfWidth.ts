/**
 * Full-width digits (０–９, as Taiwanese phone keyboards and many bank exports type them) as ASCII
 * digits, the rest kept: one reading for every form, reader and matcher.
 */
const FULL_WIDTH_DIGIT = /[\uFF10-\uFF19]/g;

export function asciiDigits(s: string): string {
  return s.replace(FULL_WIDTH_DIGIT, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}
