/**
 * Matching a statement's credits to the reported payments: a pure function, the service and the
 * bench call it. Rules (issue 12, section 2):
 * - hard: equal amount; a line of one store's statement only for that store's reports; the
 *   credit inside one day before to three days after the reported time
 *   (configurable); callers pass only reports and lines not yet linked.
 * - evidence: see evidence.ts (last five vs visible digits, distance in time, note).
 * - one-to-one, global over the period: maximum-weight matching per amount (assignment.ts).
 * - auto only when the evidence is strong (the visible digits equal, or no digits but minutes
 *   apart with nothing else of that amount that day) and the best matching without the pair loses
 *   at least AUTO_MARGIN: nothing on either side comes close. Everything else is for a person.
 * - unpaid only when the statement's coverage spans the report's whole window.
 * - a second pass suggests (never confirms) one credit for 2–3 reports of the same last five, or
 *   two credits for one report.
 */
import { STATUS_FAILED } from '../statuses.js';
import { DAY_MS, taipeiDayNumber } from '../time.js';
import { Assignment, type Edge } from './assignment.js';
import { compareDigits, evidence, mayPay, type Evidence } from './evidence.js';
import type { PayerMemory, ReconcileLine, ReconcileReport } from './types.js';

export interface MatchOptions {
  windowBeforeMs?: number;
  windowAfterMs?: number;
  /** the period the statement covers (epoch ms): a report is unpaid only when this spans its window */
  coverage?: { from: number; to: number };
  /** what confirmed links taught about payers (evidence for name-only lines and typos) */
  payers?: PayerMemory[];
}

export interface MatchResult {
  auto: { payment: string; line: number; score: number; reasons: string[] }[];
  review: { payment: string; candidates: { line: number; score: number; reasons: string[] }[] }[];
  reviewLines: { line: number; candidates: { payment: string; score: number; reasons: string[] }[] }[];
  unpaid: { payment: string }[];
  unreported: { line: number }[];
  suggestions: { payments: string[]; lines: number[]; reasons: string[] }[];
}

export const DEFAULT_WINDOW_BEFORE_MS = DAY_MS;
export const DEFAULT_WINDOW_AFTER_MS = 3 * DAY_MS;
/** the total score the best other matching must lose before a pair is confirmed without a person */
export const AUTO_MARGIN = 8;
const NO_DIGITS_AUTO_GAP_MS = 30 * 60_000;
/** the score below which a pair is listed for a person but never proposed (see evidence.ts for the scale) */
const ASSIGN_FLOOR = 36;

interface Candidate {
  report: number;
  line: number;
  ev: Evidence;
}

/** lines of one amount, sorted by time */
function indexByAmount(lines: ReconcileLine[]): Map<number, number[]> {
  const byAmount = new Map<number, number[]>();
  lines.forEach((l, k) => {
    if (l.amount <= 0) return;
    const list = byAmount.get(l.amount);
    if (list) list.push(k);
    else byAmount.set(l.amount, [k]);
  });
  for (const list of byAmount.values()) list.sort((a, b) => lines[a].at - lines[b].at);
  return byAmount;
}

function firstAtOrAfter(list: number[], lines: ReconcileLine[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[list[mid]].at < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const round = (x: number) => Math.round(x);
const byScore = <T extends { score: number }>(a: T, b: T) => b.score - a.score;

export function matchReconcile(allReports: ReconcileReport[], lines: ReconcileLine[], opts: MatchOptions = {}): MatchResult {
  const reports = allReports.filter((r) => r.status !== STATUS_FAILED);
  const before = opts.windowBeforeMs ?? DEFAULT_WINDOW_BEFORE_MS;
  const after = opts.windowAfterMs ?? DEFAULT_WINDOW_AFTER_MS;
  const byAmount = indexByAmount(lines);

  // candidates: equal amount inside the window
  const ofReport: Candidate[][] = reports.map(() => []);
  const ofLine: Candidate[][] = lines.map(() => []);
  reports.forEach((r, ri) => {
    const list = byAmount.get(r.amount);
    if (!list) return;
    for (let k = firstAtOrAfter(list, lines, r.paid_at - before - DAY_MS); k < list.length; k++) {
      const li = list[k];
      const l = lines[li];
      if (l.at > r.paid_at + after) break;
      if (!mayPay(r, l, before, after)) continue;
      const c = { report: ri, line: li, ev: evidence(r, l) };
      ofReport[ri].push(c);
      ofLine[li].push(c);
    }
  });

  // the same amount on the same Taiwan day, for the "no digits is always for a person" rule
  const sameDay = new Map<string, number>();
  const dayKey = (amount: number, at: number) => `${amount}@${taipeiDayNumber(at)}`;
  const bump = (key: string) => sameDay.set(key, (sameDay.get(key) ?? 0) + 1);
  for (const r of reports) bump(`r${dayKey(r.amount, r.paid_at)}`);
  for (const l of lines) if (l.amount > 0) bump(`l${dayKey(l.amount, l.at)}`);
  const crowdedDay = (r: ReconcileReport, l: ReconcileLine) => {
    const days = [r.paid_at, l.at].map((t) => taipeiDayNumber(t));
    const keys = days[0] === days[1] ? [dayKey(r.amount, r.paid_at)] : [dayKey(r.amount, r.paid_at), dayKey(l.amount, l.at)];
    const count = (side: string) => keys.reduce((n, k) => n + (sameDay.get(side + k) ?? 0), 0);
    return count('r') > 1 || count('l') > 1;
  };

  // one-to-one, per amount (reports of different amounts never share a line)
  const partner = new Int32Array(reports.length).fill(-1);
  const regret = new Float64Array(reports.length);
  const reportsByAmount = new Map<number, number[]>();
  reports.forEach((r, ri) => {
    if (ofReport[ri].length === 0) return;
    const g = reportsByAmount.get(r.amount);
    if (g) g.push(ri);
    else reportsByAmount.set(r.amount, [ri]);
  });
  for (const [amount, group] of reportsByAmount) {
    const lineIds = byAmount.get(amount)!;
    const local = new Map<number, number>();
    lineIds.forEach((li, j) => local.set(li, j));
    // The assignment weighs what a pair adds over "this report's credit is elsewhere or missing":
    // below ASSIGN_FLOOR (clearly different digits, or no digits and days apart) a line is only
    // listed for a person, so that weak pairs never shift a chain of reports to fill every slot.
    const edges: Edge[][] = group.map((ri) =>
      ofReport[ri].filter((c) => c.ev.score > ASSIGN_FLOOR).map((c) => ({ to: local.get(c.line)!, weight: c.ev.score - ASSIGN_FLOOR })),
    );
    const a = new Assignment(edges, lineIds.length);
    group.forEach((ri, i) => {
      const j = a.lineOf(i);
      if (j < 0) return;
      partner[ri] = lineIds[j];
      if (strong(ri, lineIds[j])) regret[ri] = a.regret(i);
    });
  }

  function strong(ri: number, li: number): boolean {
    const c = ofReport[ri].find((x) => x.line === li)!;
    if (c.ev.digits === 'equal') return true;
    if (c.ev.digits !== 'unknown') return false;
    const r = reports[ri];
    const l = lines[li];
    return l.hasTime && Math.abs(l.at - r.paid_at) <= NO_DIGITS_AUTO_GAP_MS && !crowdedDay(r, l);
  }

  const result: MatchResult = { auto: [], review: [], reviewLines: [], unpaid: [], unreported: [], suggestions: [] };
  const lineTaken = new Uint8Array(lines.length); // 1 = auto, 2 = proposed first in review
  const reportAuto = new Uint8Array(reports.length);
  reports.forEach((r, ri) => {
    const li = partner[ri];
    if (li >= 0 && regret[ri] >= AUTO_MARGIN) {
      const c = ofReport[ri].find((x) => x.line === li)!;
      result.auto.push({ payment: r.uuid, line: lines[li].id, score: round(c.ev.score), reasons: c.ev.reasons });
      lineTaken[li] = 1;
      reportAuto[ri] = 1;
    }
  });

  // Review ranks first what one global assignment over what auto left gives each report (weighed
  // by evidence's log-likelihood, which adds up across pairs where the displayed score does not);
  // then the other lines more likely than chance that no other report was given; then the rest,
  // a line given to another report counting what that report would lose without it.
  const reviewPartner = reviewAssignment(reports, ofReport, reportAuto, lineTaken);
  const claimedBy = new Int32Array(lines.length).fill(-1);
  reviewPartner.forEach((li, ri) => li >= 0 && (claimedBy[li] = ri));
  const reportLeft: number[] = [];
  reports.forEach((r, ri) => {
    if (reportAuto[ri]) return;
    const open = ofReport[ri].filter((c) => lineTaken[c.line] !== 1);
    reportLeft.push(ri);
    if (open.length === 0) {
      const cov = opts.coverage;
      if (cov && cov.from <= r.paid_at - before && cov.to >= r.paid_at + after) result.unpaid.push({ payment: r.uuid });
      return;
    }
    const mine = reviewPartner[ri];
    const rank = (c: Candidate) => (c.line === mine ? 0 : claimedBy[c.line] < 0 && c.ev.weight > 0 ? 1 : 2);
    const claim = (c: Candidate) => (claimedBy[c.line] < 0 ? 0 : ofReport[claimedBy[c.line]].find((x) => x.line === c.line)!.ev.weight);
    const key = (c: Candidate) => (rank(c) === 2 ? c.ev.weight - claim(c) : c.ev.weight);
    open.sort((a, b) => rank(a) - rank(b) || key(b) - key(a));
    if (mine >= 0) lineTaken[mine] = 2;
    result.review.push({
      payment: r.uuid,
      candidates: open.map((c) => ({ line: lines[c.line].id, score: round(c.ev.score), reasons: c.ev.reasons })),
    });
  });

  const lineLeft: number[] = [];
  lines.forEach((l, li) => {
    if (l.amount > 0 && lineTaken[li] !== 1) lineLeft.push(li);
    if (l.amount <= 0 || lineTaken[li] !== 0) return;
    const open = ofLine[li].filter((c) => !reportAuto[c.report]).sort((a, b) => b.ev.score - a.ev.score);
    if (open.length === 0) {
      result.unreported.push({ line: l.id });
      return;
    }
    result.reviewLines.push({
      line: l.id,
      candidates: open.map((c) => ({ payment: reports[c.report].uuid, score: round(c.ev.score), reasons: c.ev.reasons })),
    });
  });

  result.suggestions = suggest(reports, lines, reportLeft, lineLeft, before, after);
  result.review.sort((a, b) => byScore(a.candidates[0], b.candidates[0]));
  return result;
}

/**
 * The maximum-weight one-to-one assignment of the reports auto left to the lines auto left, every
 * candidate more likely than chance (evidence's weight > 0) included: the line review proposes first for each report (-1: none).
 */
function reviewAssignment(
  reports: ReconcileReport[],
  ofReport: Candidate[][],
  reportAuto: Uint8Array,
  lineTaken: Uint8Array,
): Int32Array {
  const partner = new Int32Array(reports.length).fill(-1);
  const groups = new Map<number, number[]>();
  reports.forEach((r, ri) => {
    if (reportAuto[ri] || !ofReport[ri].some((c) => lineTaken[c.line] !== 1)) return;
    const g = groups.get(r.amount);
    if (g) g.push(ri);
    else groups.set(r.amount, [ri]);
  });
  for (const group of groups.values()) {
    const local = new Map<number, number>();
    const lineOf: number[] = [];
    const edges: Edge[][] = group.map((ri) =>
      ofReport[ri]
        .filter((c) => lineTaken[c.line] !== 1 && c.ev.weight > 0)
        .map((c) => {
          if (!local.has(c.line)) local.set(c.line, lineOf.push(c.line) - 1);
          return { to: local.get(c.line)!, weight: c.ev.weight };
        }),
    );
    const a = new Assignment(edges, lineOf.length);
    group.forEach((ri, i) => {
      const j = a.lineOf(i);
      if (j >= 0) partner[ri] = lineOf[j];
    });
  }
  return partner;
}

/** digits that do not contradict the last five (equal, or none shown) */
function compatible(lastFive: string, digits: string): boolean {
  const v = compareDigits(lastFive, digits).verdict;
  return v === 'equal' || v === 'unknown';
}

/**
 * The second pass, over what no automatic pair took: one credit for 2–3 reports of the same last five
 * (a customer who paid several orders at once), or two credits for one report (a split transfer).
 */
function suggest(
  reports: ReconcileReport[],
  lines: ReconcileLine[],
  reportLeft: number[],
  lineLeft: number[],
  before: number,
  after: number,
): MatchResult['suggestions'] {
  const out: MatchResult['suggestions'] = [];
  const usedLine = new Set<number>();
  const usedReport = new Set<number>();
  const freeLines = lineLeft.filter((li) => lines[li].amount > 0).sort((a, b) => lines[a].at - lines[b].at);
  const byAmount = new Map<number, number[]>();
  for (const li of freeLines) {
    const g = byAmount.get(lines[li].amount);
    if (g) g.push(li);
    else byAmount.set(lines[li].amount, [li]);
  }
  // the line shows the last five, or shows nothing and the orders were reported within half an hour
  const fits = (rs: number[], li: number) => {
    const v = compareDigits(reports[rs[0]].last_five, lines[li].digits).verdict;
    const times = rs.map((ri) => reports[ri].paid_at);
    const close = Math.max(...times) - Math.min(...times) <= 30 * 60_000;
    return (v === 'equal' || (v === 'unknown' && close)) && rs.every((ri) => mayPay(reports[ri], lines[li], before, after));
  };

  // one credit, several reports of the same last five
  const byFive = new Map<string, number[]>();
  for (const ri of reportLeft) {
    const g = byFive.get(reports[ri].last_five);
    if (g) g.push(ri);
    else byFive.set(reports[ri].last_five, [ri]);
  }
  const tryCombined = (rs: number[]) => {
    if (rs.some((ri) => usedReport.has(ri))) return;
    const sum = rs.reduce((s, ri) => s + reports[ri].amount, 0);
    const li = (byAmount.get(sum) ?? []).find((x) => !usedLine.has(x) && fits(rs, x));
    if (li === undefined) return;
    rs.forEach((ri) => usedReport.add(ri));
    usedLine.add(li);
    out.push({ payments: rs.map((ri) => reports[ri].uuid), lines: [lines[li].id], reasons: [`${rs.length} 筆回報合計金額相符`, '後五碼相同'] });
  };
  for (const group of byFive.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => reports[a].paid_at - reports[b].paid_at);
    const near = (a: number, b: number) => reports[b].paid_at - reports[a].paid_at <= before + after;
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length && near(group[x], group[y]); y++) {
        for (let z = y + 1; z < group.length && near(group[x], group[z]); z++) tryCombined([group[x], group[y], group[z]]);
        tryCombined([group[x], group[y]]);
      }
  }

  // one report, two credits from the same account (at least one showing the last five)
  for (const ri of reportLeft) {
    if (usedReport.has(ri)) continue;
    const r = reports[ri];
    const seen = new Map<number, number>();
    for (let k = firstAtOrAfter(freeLines, lines, r.paid_at - before - DAY_MS); k < freeLines.length; k++) {
      const li = freeLines[k];
      const l = lines[li];
      if (l.at > r.paid_at + after) break;
      if (usedLine.has(li) || l.amount >= r.amount || !mayPay(r, l, before, after) || !compatible(r.last_five, l.digits)) continue;
      const other = seen.get(r.amount - l.amount);
      if (other !== undefined && [other, li].some((x) => compareDigits(r.last_five, lines[x].digits).verdict === 'equal')) {
        out.push({ payments: [r.uuid], lines: [lines[other].id, l.id], reasons: ['2 筆入帳合計金額相符', '後五碼相符'] });
        usedLine.add(other);
        usedLine.add(li);
        usedReport.add(ri);
        break;
      }
      seen.set(l.amount, li);
    }
  }
  return out;
}
