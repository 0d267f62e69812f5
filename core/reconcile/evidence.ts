/**
 * The evidence for one candidate pair (a report and a statement credit of the same amount inside
 * the time window): a score from 0 to 100 and the reasons a person reads, in Traditional Chinese.
 *
 *   金額相符 (the hard rule, always)                  30
 *   last five vs the line's visible digits          -15 … +40
 *   distance in time (minutes > hours > days)        -4 … +20
 *   the report's note found in the line              +10
 */
import { DAY_MS, TAIPEI_OFFSET_MS, taipeiDayNumber } from '../time.js';
import type { ReconcileLine, ReconcileReport } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type DigitsVerdict = 'equal' | 'typo' | 'different' | 'unknown';

export interface Evidence {
  score: number;
  reasons: string[];
  digits: DigitsVerdict;
  /** how many digits the comparison could use (0 when the line shows none) */
  visible: number;
  /** the log-likelihood ratio "this line pays this report" against "a chance line of the same amount" (see likelihood) */
  weight: number;
}

/** One substitution or two adjacent digits swapped. */
function typoKind(a: string, b: string): 'one' | 'swap' | null {
  const diff: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  if (diff.length === 1) return 'one';
  if (diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]]) return 'swap';
  return null;
}

/** The reported last five against the trailing digits the bank shows (masked accounts show 3 to 5). */
export function compareDigits(lastFive: string, digits: string): { verdict: DigitsVerdict; visible: number; score: number; reason: string } {
  const visible = Math.min(digits.length, lastFive.length);
  if (visible === 0 || !/^\d+$/.test(lastFive)) return { verdict: 'unknown', visible: 0, score: 0, reason: '無帳號資訊' };
  const ours = lastFive.slice(-visible);
  const theirs = digits.slice(-visible);
  const named = visible >= 5 ? '後五碼' : `可見後 ${visible} 碼`;
  if (ours === theirs) {
    const score = visible >= 5 ? 40 : visible === 4 ? 36 : visible === 3 ? 32 : 10;
    return { verdict: visible >= 3 ? 'equal' : 'unknown', visible, score, reason: `${named}相符` };
  }
  const typo = visible >= 3 ? typoKind(ours, theirs) : null;
  if (typo) return { verdict: 'typo', visible, score: visible >= 4 ? 15 : 8, reason: `${named}可能打錯（${typo === 'one' ? '1 碼不同' : '相鄰兩碼對調'}）` };
  return { verdict: 'different', visible, score: -15, reason: `${named}不符` };
}

/** Minutes score more than hours, hours more than days; a date-only line is compared by day. */
function timeEvidence(report: ReconcileReport, line: ReconcileLine): { score: number; reason: string } {
  if (!line.hasTime) {
    const days = taipeiDayNumber(line.at) - taipeiDayNumber(report.paid_at);
    const score = days === 0 ? 12 : days === 1 ? 6 : days === 2 ? 2 : days === -1 ? 2 : -1;
    const reason = days === 0 ? '同一天入帳（對帳單無時間）' : days > 0 ? `隔 ${days} 天入帳（對帳單無時間）` : `入帳日早 ${-days} 天（對帳單無時間）`;
    return { score, reason };
  }
  const gap = Math.abs(line.at - report.paid_at);
  let score: number;
  if (gap <= HOUR) score = 20 - (4 * gap) / HOUR;
  else if (gap <= DAY_MS) score = 16 - (10 * (gap - HOUR)) / (DAY_MS - HOUR);
  else score = 6 - (10 * (gap - DAY_MS)) / (3 * DAY_MS);
  const reason =
    gap < HOUR ? `時間相差 ${Math.round(gap / MINUTE)} 分鐘` : gap < DAY_MS ? `時間相差 ${Math.round(gap / HOUR)} 小時` : `時間相差 ${Math.round(gap / DAY_MS)} 天`;
  return { score, reason };
}

function noteFound(report: ReconcileReport, line: ReconcileLine): boolean {
  const note = report.note.trim();
  if (note.length < 2) return false;
  return line.summary.includes(note) || line.note.includes(note);
}

/**
 * How much more likely a pair is true than chance, as a natural log, for review's global assignment
 * (the score above is what a person reads; this one adds up correctly across pairs):
 * - digits: equal visible digits are rare by chance (10^-visible) and usual for a true pair; a
 *   possible typo is rarer for a true pair but still far above chance; different digits are rare
 *   for a true pair (a wrong account) and usual by chance; no digits say nothing.
 * - time: a true gap is mostly minutes (the customer's screen and an instant transfer), sometimes
 *   hours (typed in later, posted later that day), rarely days (next business day): a mixture of
 *   three two-sided exponentials, against a chance line spread evenly over the four-day window.
 *   Banks book an inter-bank transfer made after 15:30 or on a weekend the next business morning:
 *   for such a report the days component sits on that morning instead of around the report.
 *   A date-only line knows only the day.
 */
const MIX = [
  { share: 0.6, scale: 3 * MINUTE },
  { share: 0.25, scale: 2 * HOUR },
  { share: 0.15, scale: 18 * HOUR },
];
const CUTOFF = 15.5 * HOUR;
const MORNING = 10 * HOUR;

/** the next business morning (10:00 Taiwan time) when a transfer made at `at` waits for it, else null */
export function nextBusinessMorning(at: number): number | null {
  const wall = at + TAIPEI_OFFSET_MS;
  const weekday = (w: number) => new Date(w).getUTCDay();
  const dayStart = Math.floor(wall / DAY_MS) * DAY_MS;
  const weekend = (w: number) => weekday(w) === 0 || weekday(w) === 6;
  if (!weekend(wall) && wall - dayStart < CUTOFF) return null;
  let day = dayStart + DAY_MS;
  while (weekend(day)) day += DAY_MS;
  return day + MORNING - TAIPEI_OFFSET_MS;
}
const CHANCE_DENSITY = 1 / (4 * DAY_MS);
/** the report's note found in the line: rare by chance, one true pair in two when the customer wrote one */
const NOTE_WEIGHT = Math.log(20);

function digitsWeight(verdict: DigitsVerdict, visible: number): number {
  if (verdict === 'equal') return Math.log(0.9 * 10 ** visible);
  if (verdict === 'typo') return Math.log(0.04 * 10 ** visible / (visible * 9 + visible - 1));
  if (verdict === 'different') return Math.log(0.02);
  return 0;
}

function timeWeight(report: ReconcileReport, line: ReconcileLine): number {
  if (!line.hasTime) {
    const days = Math.abs(taipeiDayNumber(line.at) - taipeiDayNumber(report.paid_at));
    return Math.log((days === 0 ? 0.8 : days === 1 ? 0.15 : 0.05) / 0.25);
  }
  const gap = Math.abs(line.at - report.paid_at);
  const morning = nextBusinessMorning(report.paid_at);
  const density = MIX.reduce((sum, m, k) => {
    const d = k === 2 && morning !== null ? Math.abs(line.at - morning) : gap;
    const scale = k === 2 && morning !== null ? HOUR : m.scale;
    return sum + (m.share / (2 * scale)) * Math.exp(-d / scale);
  }, 0);
  return Math.log(density / CHANCE_DENSITY);
}

export function evidence(report: ReconcileReport, line: ReconcileLine): Evidence {
  const reasons = ['金額相符'];
  const digits = compareDigits(report.last_five, line.digits);
  reasons.push(digits.reason);
  const time = timeEvidence(report, line);
  reasons.push(time.reason);
  let score = 30 + digits.score + time.score;
  let weight = digitsWeight(digits.verdict, digits.visible) + timeWeight(report, line);
  if (noteFound(report, line)) {
    score += 10;
    weight += NOTE_WEIGHT;
    reasons.push('備註相符');
  }
  return { score, reasons, digits: digits.verdict, visible: digits.visible, weight };
}

/**
 * The hard rules besides the amount: a line of a statement imported for one store pays only that
 * store's reports (a statement for all stores, any), and the time window below.
 */
export function mayPay(report: ReconcileReport, line: ReconcileLine, before: number, after: number): boolean {
  return (line.store_id == null || line.store_id === report.store_id) && inWindow(report, line, before, after);
}

/** The hard time rule: the credit falls inside [reported − before, reported + after]; a date-only line counts its whole day. */
export function inWindow(report: ReconcileReport, line: ReconcileLine, before: number, after: number): boolean {
  const end = line.hasTime ? line.at : line.at + DAY_MS - 1;
  return end >= report.paid_at - before && line.at <= report.paid_at + after;
}
