/**
 * A candidate pair's score (0–100) and reasons, for people; the matcher weighs the same facts by
 * what it learned (model.ts). Amount 30, digits −15…+40, time −4…+20, note +10.
 */
import { DAY_MS, taipeiDayLastInstant, taipeiDayNumber } from '../time.js';
import type { Reason } from './reasons.js';
import type { ReconcileLine, ReconcileReport } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type DigitsVerdict = 'equal' | 'typo' | 'different' | 'unknown';

export interface Evidence {
  score: number;
  reasons: Reason[];
  digits: DigitsVerdict;
  visible: number;
  note: boolean;
}

/** One substitution or two adjacent digits swapped. */
function typoKind(a: string, b: string): 'one' | 'swap' | null {
  const diff: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  if (diff.length === 1) return 'one';
  if (diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]])
    return 'swap';
  return null;
}

/** The reported last five against the trailing digits the bank shows (masked accounts show 3 to 5). */
export function compareDigits(
  lastFive: string,
  digits: string,
): { verdict: DigitsVerdict; visible: number; score: number; reason: Reason } {
  const visible = Math.min(digits.length, lastFive.length);
  if (visible === 0 || !/^\d+$/.test(lastFive))
    return { verdict: 'unknown', visible: 0, score: 0, reason: { code: 'no_account' } };
  const ours = lastFive.slice(-visible);
  const theirs = digits.slice(-visible);
  if (ours === theirs) {
    const score = visible >= 5 ? 40 : visible === 4 ? 36 : visible === 3 ? 32 : 10;
    return { verdict: visible >= 3 ? 'equal' : 'unknown', visible, score, reason: { code: 'digits_equal', visible } };
  }
  const typo = visible >= 3 ? typoKind(ours, theirs) : null;
  if (typo)
    return {
      verdict: 'typo',
      visible,
      score: visible >= 4 ? 15 : 8,
      reason: { code: 'digits_typo', visible, kind: typo },
    };
  return { verdict: 'different', visible, score: -15, reason: { code: 'digits_different', visible } };
}

function timeEvidence(report: ReconcileReport, line: ReconcileLine): { score: number; reason: Reason } {
  if (!line.hasTime) {
    const days = taipeiDayNumber(line.at) - taipeiDayNumber(report.paid_at);
    const score = days === 0 ? 12 : days === 1 ? 6 : days === 2 ? 2 : days === -1 ? 2 : -1;
    return { score, reason: { code: 'day_gap', days } };
  }
  const gap = Math.abs(line.at - report.paid_at);
  let score: number;
  if (gap <= HOUR) score = 20 - (4 * gap) / HOUR;
  else if (gap <= DAY_MS) score = 16 - (10 * (gap - HOUR)) / (DAY_MS - HOUR);
  else score = 6 - (10 * (gap - DAY_MS)) / (3 * DAY_MS);
  return { score, reason: { code: 'time_gap', ms: gap } };
}

export function noteFound(report: ReconcileReport, line: ReconcileLine): boolean {
  const note = report.note.trim();
  if (note.length < 2) return false;
  return line.summary.includes(note) || line.note.includes(note);
}

export function evidence(report: ReconcileReport, line: ReconcileLine): Evidence {
  const reasons: Reason[] = [{ code: 'amount' }];
  const digits = compareDigits(report.last_five, line.digits);
  reasons.push(digits.reason);
  const time = timeEvidence(report, line);
  reasons.push(time.reason);
  let score = 30 + digits.score + time.score;
  const note = noteFound(report, line);
  if (note) {
    score += 10;
    reasons.push({ code: 'note' });
  }
  return { score, reasons, digits: digits.verdict, visible: digits.visible, note };
}

/** The hard rules besides the amount: a store's statement pays only that store's reports, inside the window. */
export function mayPay(report: ReconcileReport, line: ReconcileLine, before: number, after: number): boolean {
  return (line.store_id == null || line.store_id === report.store_id) && inWindow(report, line, before, after);
}

/** A date-only line counts its whole day. */
function inWindow(report: ReconcileReport, line: ReconcileLine, before: number, after: number): boolean {
  const end = line.hasTime ? line.at : taipeiDayLastInstant(line.at);
  return end >= report.paid_at - before && line.at <= report.paid_at + after;
}
