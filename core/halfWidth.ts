// Full-width digits (phone keyboards, many bank exports) as ASCII: one reading for every form and reader.
const FULL_WIDTH_DIGIT = /[\uFF10-\uFF19]/g;

export function asciiDigits(s: string): string {
  return s.replace(FULL_WIDTH_DIGIT, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}
