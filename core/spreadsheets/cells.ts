/** A cell's text as a reader compares it: what banks wrap values in (`="…"`, a leading `'`, odd spaces) removed. */
import { asciiDigits } from '../halfWidth.js';
import { formulaText } from './csv.js';

/** A cell as SheetJS shapes it; the streamed reader makes the same. */
export interface SheetCell {
  readonly t: 'b' | 'n' | 'e' | 's' | 'd' | 'z';
  readonly v?: string | number | boolean | Date;
  readonly w?: string;
}

export function cleanCell(raw: string): string {
  let s = asciiDigits(raw);
  s = s.replace(/[\t\u3000\u00a0]/g, ' ').trim();
  s = formulaText(s).trim();
  if (s.length >= 2 && s.startsWith("'")) s = s.slice(1).trim();
  return s;
}
