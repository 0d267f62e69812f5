/**
 * A statement line's fingerprint: what makes a line of an overlapping or re-saved download the
 * line already stored. The same line read the same way always gets the same fingerprint, however
 * a spreadsheet program re-saved it: full-width as half-width, runs of white space as one, and a
 * run of digits without its leading zeros (LibreOffice or Excel opening a CSV turns a 備註 of
 * `0081234567890417` into the number 81234567890417). Equal lines in one file are told apart by
 * their order (`#n`). The statement's account is part of it, so an identical line on two accounts
 * is two lines; a statement that names no account has none in its key.
 */
import { createHash } from 'node:crypto';
import { accountKey } from './account.js';

interface FingerprintedLine {
  at: number;
  amount: number;
  balance: number | null;
  summary: string;
  note: string;
  counterparty: string;
}

/** A text as the fingerprint reads it. */
export function fingerprintText(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, ''));
}

/** The key of one line, before its order among equal lines is added. */
function fingerprintKey(line: FingerprintedLine, account: string | null): string {
  const source = account === null ? [] : [accountKey(account)];
  return JSON.stringify([
    ...source,
    line.at,
    line.amount,
    line.balance,
    fingerprintText(line.summary),
    fingerprintText(line.note),
    fingerprintText(line.counterparty),
  ]);
}

/** The fingerprint of the `n`th line (from 1) with this key. */
function fingerprintOf(key: string, n: number): string {
  return createHash('sha256').update(`${key}#${n}`).digest('hex');
}

/** The fingerprints of a file's lines, in order. */
export function fingerprints(lines: readonly FingerprintedLine[], account: string | null): string[] {
  const seen = new Map<string, number>();
  return lines.map((l) => {
    const key = fingerprintKey(l, account);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return fingerprintOf(key, n);
  });
}
