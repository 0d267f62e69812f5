/** Amounts as banks and offices write them (`NT$1,500`, `(1,234)`, `1,500元`, full-width digits), read one way for every reader. */
import { asciiDigits } from '../halfWidth.js';

const CURRENCY = /^(?:NT\$|NTD|NT|\$|＄)/i;

/** The number as plain text (`-1234`); text that is no amount comes back tidied, for the caller's own message. */
export function amountText(raw: string): string {
  let s = asciiDigits(raw).replace(/[\s\u3000\u00a0]+/g, '');
  if (s === '') return '';
  let negative = false;
  const paren = /^[(（](.*)[)）]$/.exec(s);
  if (paren) {
    negative = true;
    s = paren[1];
  }
  if (s.startsWith('-') || s.startsWith('－')) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  s = s.replace(CURRENCY, '');
  // the sign may follow the currency mark: $-1,234
  if (s.startsWith('-') && !negative) {
    negative = true;
    s = s.slice(1);
  }
  s = s.replace(/[,，]/g, '');
  if (s.endsWith('元')) s = s.slice(0, -1);
  return negative ? `-${s}` : s;
}

/** Signed whole NT$; null when empty (or `-`, `--`, as banks mark an unused side), NaN when not whole. */
export function parseWholeAmount(raw: string): number | null {
  const s = amountText(raw);
  if (s === '' || s === '-' || s === '--') return null;
  if (!/^-?\d+(\.\d+)?$/.test(s)) return NaN;
  const n = Number(s);
  if (!Number.isInteger(n) || !Number.isSafeInteger(n)) return NaN;
  return n === 0 ? 0 : n;
}
