/**
 * A line's fingerprint: a line of an overlapping or re-saved download is the one stored. Digits
 * lose leading zeros (a spreadsheet program opening a CSV makes `0081…` a number); equal lines in
 * a file are told apart by order (`#n`); the account is part of it.
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

export function fingerprintText(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, ''));
}

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

function fingerprintOf(key: string, n: number): string {
  return createHash('sha256').update(`${key}#${n}`).digest('hex');
}

export function fingerprints(lines: readonly FingerprintedLine[], account: string | null): string[] {
  const seen = new Map<string, number>();
  return lines.map((l) => {
    const key = fingerprintKey(l, account);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return fingerprintOf(key, n);
  });
}
