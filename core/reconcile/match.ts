/**
 * Matching a statement's credits to the reported payments: a pure function, the service and the
 * bench call it. Rules:
 * - hard: equal amount; a line of one store's statement only for that store's reports; the
 *   credit inside a day and a half before to four and a half days after the reported time
 *   (configurable); callers pass only reports and lines not yet linked.
 * - evidence, weighed by what this very run learned (model.ts): the last five against the visible
 *   digits, the time against this bank account's booking habits for the report's hour and
 *   weekday, the note, payer memory, and how many credits of that amount a window holds.
 * - one-to-one, global over the period: the maximum-weight assignment per amount (assignment.ts).
 * - auto only when the best assignment with the pair beats the best one without it by a margin,
 *   on both sides, and no visible digit disagrees; a line showing no digits has a margin of its
 *   own (what goes wrong differs: a regular's two payments swapped against a look-alike credit).
 *   Everything else is for a person.
 * - unpaid: a report the assignment leaves alone, nothing likely explaining it, when the
 *   statement covers its window; unreported: a credit no report can explain. Both ranked, the
 *   most certain first.
 * - a second pass suggests (never confirms) one credit for 2–3 reports of the same last five, or
 *   two credits for one report.
 * The thresholds are chosen by `npm run bench` on one half of a sweep of months and reported on
 * the other (bench/reconcile-sweep.ts); DEFAULT_THRESHOLDS are its choice.
 */
import { STATUS_FAILED } from '../paymentStatuses.js';
import { DAY_MS, taipeiDayNumber } from '../time.js';
import { Assignment, type Edge } from './assignment.js';
import { compareDigits, evidence, mayPay, noteFound, type Evidence } from './evidence.js';
import {
  learnModel,
  MONTH_TEACHER,
  type Candidate as ModelCandidate,
  type Model,
  type PayerNote,
  type Teacher,
} from './model.js';
import type { Reason } from './reasons.js';
import type { PayerMemory, ReconcileLine, ReconcileReport } from './types.js';

export interface Thresholds {
  /** the log odds the best assignment without an automatic pair must lose, when the line shows digits that agree */
  auto: number;
  /** the same when the line shows no digits (a name, a cash deposit): its own margin, chosen apart */
  autoNoDigits: number;
  /** a report is an unpaid candidate only when the log odds that some credit pays it (Analysis.paid) are below this */
  unpaid: number;
  /** a credit is unreported only when the log odds that some report pays it (Analysis.used, at most its likeliest report's weight) are below this */
  unreported: number;
}

/** Chosen on the calibration half of the bench's sweep (see docs/performance.md, the sweep). */
export const DEFAULT_THRESHOLDS: Thresholds = { auto: 4, autoNoDigits: 0, unpaid: -3.75, unreported: -1.25 };

export interface MatchOptions {
  windowBeforeMs?: number;
  windowAfterMs?: number;
  /** the period the statement covers (epoch ms): a report is unpaid only when this spans its window */
  coverage?: { from: number; to: number };
  /**
   * the period asked about ([from, to), epoch ms): only its reports are proposed; reports around
   * it take part (they may explain a credit) but are not listed. Absent: every report is asked about.
   */
  period?: { from: number; to: number };
  /** every report made in this span was given: a credit is unreported only when its whole window lies inside (absent: always) */
  reportsCover?: { from: number; to: number };
  /** what confirmed links taught about payers (evidence for name-only lines and typos) */
  payers?: PayerMemory[];
  thresholds?: Partial<Thresholds>;
}

/** Reasons are codes (reasons.ts): the service renders them in words for its callers. */
export interface MatchResult {
  auto: { payment: string; line: number; score: number; reasons: Reason[] }[];
  review: { payment: string; candidates: { line: number; score: number; reasons: Reason[] }[] }[];
  reviewLines: { line: number; candidates: { payment: string; score: number; reasons: Reason[] }[] }[];
  /** most certain first */
  unpaid: { payment: string }[];
  /** most certain first */
  unreported: { line: number }[];
  suggestions: { payments: string[]; lines: number[]; reasons: Reason[] }[];
}

export const DEFAULT_WINDOW_BEFORE_MS = 1.5 * DAY_MS;
export const DEFAULT_WINDOW_AFTER_MS = 4.5 * DAY_MS;
/** how far after a report the statement must reach before the report may be called unpaid: nearly every transfer is booked within three days (a Friday evening transfer on Monday morning) */
const UNPAID_COVERAGE_AFTER_MS = 3 * DAY_MS;

interface Candidate extends ModelCandidate {
  /** the score and reasons a person reads, made when shown (explain) */
  ev?: Evidence;
  /** the log odds that the line pays the report, against the report unpaid (model.ts) */
  weight: number;
  /** the log-likelihood ratio alone: which line it is, if the report was paid */
  lr: number;
  /** what is known of the line's payer (payer memory, or this month's same name): their last five is the report's, or another */
  payer?: 'same' | 'other';
}

/**
 * What lets a pair on a line that shows no account digits be confirmed automatically: evidence no
 * second customer could have produced. `payer`: a payer name confirmed links tie to this last five
 * alone (model.payerSettles). `alone`: the report has no other credit of its amount in its window
 * that it could be, and the credit no other report. A shared name, a generic label, or amount and
 * time with a rival in the window rank candidates for a person and never confirm.
 */
export type Settled = 'payer' | 'alone';
/** the margin a first reading's pair needs to teach the second reading (its booking time, its payer's name) */
const SURE_MARGIN = 3.5;
/** how much less likely by its time a rival may be and still keep a pair without digits from being automatic */
const RIVAL_ODDS = Math.log(100);

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

/** Everything the decisions are made from: the candidates with their weights, the assignment and what each pair would cost to lose. */
export interface Analysis {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  ofReport: Candidate[][];
  ofLine: Candidate[][];
  /** the assignment's line for each report (-1: none) */
  partner: Int32Array;
  /** the assignment's report for each line (-1: none) */
  owner: Int32Array;
  /** what the best assignment without the report's pair loses (0 when unpaired) */
  regret: Float64Array;
  /**
   * for a report the assignment leaves alone, the best assignment with it paid less the best with
   * it unpaid: the log odds (in max-product form) that some credit pays it, ≤ 0 (-Infinity: no
   * candidate). A paired report is never unpaid: +Infinity, not measured.
   */
  paid: Float64Array;
  /** the mirror for lines: for a line the assignment leaves alone, the log odds that some report's payment it is (≤ 0); +Infinity when held */
  used: Float64Array;
  /** the line review proposes first for each report (-1: none) */
  reviewPartner: Int32Array;
  /** the report is asked about (inside the period) */
  asked: Uint8Array;
  /** the line is asked about (inside the period) */
  lineAsked: Uint8Array;
  /** the statement covers the report's window: it may be called unpaid */
  coverable: Uint8Array;
  /** every report that could explain the line was given: it may be called unreported */
  decidable: Uint8Array;
  suggestions: MatchResult['suggestions'];
  /** reports and lines some suggestion holds */
  suggested: { reports: Set<number>; lines: Set<number> };
  /** reports left alone that a credit no one holds might pay together with other orders, or two such credits together: never called unpaid */
  groupable: Map<number, GroupReason>;
  /** the score and reasons a person reads for a candidate */
  explain: (c: Candidate) => Evidence;
  /** what alone settles a pair on a line showing no account digits, or null: then it is never automatic */
  settledBy: (c: Candidate) => Settled | null;
  model: Model['summary'];
}

export function matchReconcile(
  allReports: ReconcileReport[],
  lines: ReconcileLine[],
  opts: MatchOptions = {},
): MatchResult {
  return decide(analyse(allReports, lines, opts), { ...DEFAULT_THRESHOLDS, ...opts.thresholds });
}

/** `teacher`: which pairs teach the month's habits (the month's own unambiguous pairs; the bench's bound knows the true ones) */
export function analyse(
  allReports: ReconcileReport[],
  lines: ReconcileLine[],
  opts: MatchOptions = {},
  teacher: Teacher = MONTH_TEACHER,
): Analysis {
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
      const d = compareDigits(r.last_five, l.digits);
      const c: Candidate = {
        report: ri,
        line: li,
        facts: { digits: d.verdict, visible: d.visible, note: noteFound(r, l) },
        weight: 0,
        lr: 0,
      };
      ofReport[ri].push(c);
      ofLine[li].push(c);
    }
  });

  const weigh = (model: Model) => {
    for (const list of ofReport) {
      if (list.length === 0) continue;
      const offset = model.offset(reports[list[0].report]);
      for (const c of list) {
        c.lr = model.likelihood(reports[c.report], lines[c.line], c.facts, c.line);
        c.weight = c.lr + offset;
        c.payer = model.payerNote(reports[c.report], lines[c.line], c.line)?.known;
      }
    }
    return model;
  };
  let model = weigh(learnModel(reports, lines, { ofReport, ofLine }, { before, after }, opts.payers, teacher));

  // One-to-one, per amount (reports of different amounts never share a line): the most likely
  // reading, where a report may stay unpaid; and, for review, which line each report's is if it
  // was paid (the likelihood ratio alone, a pair more likely than chance preferred to none).
  let main = assign(reports, lines, ofReport, (c) => c.weight, true);
  // A second reading: the pairs the first is sure of (SURE_MARGIN, no digit disagreeing, no payer
  // known by another last five) teach the booking habits and the payer names they show, as the
  // anchors' do; a name-only credit of a payer seen so becomes evidence for the rest. The pairs it
  // made in spite of another account's digits teach that this payer pays for this last five (a
  // family's account), which no anchor can show. The first reading's paid share replaces the
  // month's rough estimate.
  const sure: Array<[number, number]> = [];
  const kin: Array<[number, number]> = [];
  main.partner.forEach((li, ri) => {
    if (li < 0) return;
    const c = ofReport[ri].find((x) => x.line === li)!;
    // made in spite of another account's digits: that payer pays for this customer (a family's account)
    if (lines[li].payer && c.facts.digits === 'different' && c.facts.visible >= 3) kin.push([ri, li]);
    if (main.regret[ri] < SURE_MARGIN) return;
    if ((c.facts.digits === 'equal' || c.facts.digits === 'unknown') && c.payer !== 'other') sure.push([ri, li]);
  });
  if (sure.length > 0 || kin.length > 0) {
    const first = { sure, kin, paidShare: paidShareOf(main, reports, opts.coverage, before, after) };
    model = weigh(learnModel(reports, lines, { ofReport, ofLine }, { before, after }, opts.payers, teacher, first));
    main = assign(reports, lines, ofReport, (c) => c.weight, true);
  }
  const review = assign(reports, lines, ofReport, (c) => c.lr + REVIEW_PREFERENCE, false);
  const { partner, owner, regret, paid, used } = main;

  const inPeriod = (r: ReconcileReport) =>
    !opts.period || (r.paid_at >= opts.period.from && r.paid_at < opts.period.to);
  const asked = Uint8Array.from(reports, (r) => (inPeriod(r) ? 1 : 0));
  // a credit is listed (unreported, or in review by line) only inside the period too: credits
  // around it take part, as context for the period's reports
  const lineAsked = Uint8Array.from(lines, (l) =>
    !opts.period || (l.at >= opts.period.from && l.at < opts.period.to) ? 1 : 0,
  );
  const cov = opts.coverage;
  const coverable = Uint8Array.from(reports, (r) =>
    cov && cov.from <= r.paid_at - before && cov.to >= r.paid_at + Math.min(after, UNPAID_COVERAGE_AFTER_MS) ? 1 : 0,
  );
  const rc = opts.reportsCover;
  const decidable = Uint8Array.from(lines, (l) => (!rc || (rc.from <= l.at - after && rc.to >= l.at + before) ? 1 : 0));

  // the second pass, over what the assignment left
  const reportLeft = reports.map((_, ri) => ri).filter((ri) => partner[ri] < 0);
  const lineLeft = lines.map((_, li) => li).filter((li) => owner[li] < 0 && lines[li].amount > 0);
  const suggested = { reports: new Set<number>(), lines: new Set<number>() };
  const suggestions = suggest(reports, lines, reportLeft, lineLeft, before, after, suggested);
  const found = mayBeGrouped(
    reports,
    lines,
    reportLeft.filter((ri) => !suggested.reports.has(ri) && coverable[ri]),
    lineLeft,
    before,
    after,
    model.time,
  );
  const groupable = new Map([...found].map(([ri, g]) => [ri, g.reason]));
  // The groups found are suggested too (those suggestible() lets through), so that their credits
  // are shown with their reports rather than as credits no report explains. Another order of the customer's that points at a
  // credit already in a group joins it while the orders still fit in the credit.
  const made: FoundGroup[] = [];
  for (const g of found.values()) {
    if (!suggestible(g, reports, lines)) continue;
    if (g.lines.some((li) => suggested.lines.has(li))) {
      const same =
        g.lines.length === 1 ? made.find((m) => m.lines.length === 1 && m.lines[0] === g.lines[0]) : undefined;
      const join = same ? g.reports.filter((ri) => !same.reports.includes(ri) && !suggested.reports.has(ri)) : [];
      if (!same || join.length === 0) continue;
      const sum = [...same.reports, ...join].reduce((t, ri) => t + reports[ri].amount, 0);
      if (sum > lines[same.lines[0]].amount) continue;
      same.reports.push(...join);
      join.forEach((ri) => suggested.reports.add(ri));
      continue;
    }
    g.reports.forEach((ri) => suggested.reports.add(ri));
    g.lines.forEach((li) => suggested.lines.add(li));
    made.push({ ...g, reports: [...g.reports] });
  }
  for (const g of made) {
    g.reports.sort((x, y) => reports[x].paid_at - reports[y].paid_at);
    suggestions.push({
      payments: g.reports.map((ri) => reports[ri].uuid),
      lines: g.lines.map((li) => lines[li].id),
      reasons: groupReasons(g, reports, lines),
    });
  }
  const explain = (c: Candidate): Evidence => {
    if (c.ev) return c.ev;
    const ev = evidence(reports[c.report], lines[c.line]);
    const payer = model.payerNote(reports[c.report], lines[c.line], c.line);
    if (payer) ev.reasons.push(payerReason(payer));
    return (c.ev = ev);
  };
  // A rival: another credit the report could be, or another report the credit could pay, inside
  // the month's booking habits: its time at least 1/RIVAL_ODDS as likely as the pair's by what
  // this month's banks do (a slow bank's window is days, an instant one's minutes). A credit
  // showing other digits is a rival too: a spouse's or a company's account pays for customers.
  const timeOf = (x: Candidate) => model.time(reports[x.report], lines[x.line]);
  const rivals = (list: Candidate[], c: Candidate) => list.some((x) => x !== c && timeOf(x) > timeOf(c) - RIVAL_ODDS);
  const settledBy = (c: Candidate): Settled | null => {
    if (model.payerSettles(reports[c.report], lines[c.line], c.line)) return 'payer';
    return rivals(ofReport[c.report], c) || rivals(ofLine[c.line], c) ? null : 'alone';
  };
  return {
    reports,
    lines,
    ofReport,
    ofLine,
    partner,
    owner,
    regret,
    paid,
    used,
    reviewPartner: review.partner,
    asked,
    lineAsked,
    coverable,
    decidable,
    suggestions,
    suggested,
    groupable,
    explain,
    settledBy,
    model: model.summary,
  };
}

/**
 * The share of the reports whose whole window the statement spans that a reading found paid: a
 * report it paired counts 1, one it left alone its chance of being paid (undefined: too few to tell).
 */
function paidShareOf(
  main: { partner: Int32Array; paid: Float64Array },
  reports: ReconcileReport[],
  cov: MatchOptions['coverage'],
  before: number,
  after: number,
): number | undefined {
  if (!cov) return undefined;
  let n = 0;
  let paid = 0;
  reports.forEach((r, ri) => {
    if (r.paid_at - before < cov.from || r.paid_at + after > cov.to) return;
    n++;
    paid += main.partner[ri] >= 0 ? 1 : 1 / (1 + Math.exp(-main.paid[ri]));
  });
  return n >= 20 ? paid / n : undefined;
}

/** What a person reads of a payer note: stored memory (confirmed links) or this month's same name. */
function payerReason(p: PayerNote): Reason {
  if (p.from === 'memory')
    return p.known === 'same' ? { code: 'payer_memory_same' } : { code: 'payer_memory_other', fives: p.fives };
  return p.known === 'same' ? { code: 'payer_name_same' } : { code: 'payer_name_other', fives: p.fives };
}

export type GroupReason =
  | 'larger credit showing the last five'
  | 'larger credit of this and the customer’s other orders'
  | 'split, showing the last five'
  | 'split, digitless and close';

/** A group the credits support: the reports (the one left alone first) and the credits that may pay them together. */
interface FoundGroup {
  reason: GroupReason;
  reports: number[];
  lines: number[];
}

/**
 * A group found is suggested (and its credits leave the unreported list) only when its sums meet
 * exactly and a credit shows a report's last five, or none shows any digits. Chosen on the bench's
 * calibration half (bench/reconcile-groups-diag.ts --hidden): of the groups found there, a larger
 * credit the customer's other orders do not make up was never a true group (17 of 17 wrong, 7 of
 * them hiding a credit nobody reported); a group whose credit shows only a possible typo (9 wrong of
 * 12) or another account (9 of 15) hid 16 true unreported credits. They still keep the report off
 * the unpaid list (mayBeGrouped), as before.
 */
function suggestible(g: FoundGroup, reports: ReconcileReport[], lines: ReconcileLine[]): boolean {
  const paid = g.reports.reduce((s, ri) => s + reports[ri].amount, 0);
  const credited = g.lines.reduce((s, li) => s + lines[li].amount, 0);
  if (paid !== credited) return false;
  const verdicts = g.lines.flatMap((li) =>
    g.reports.map((ri) => compareDigits(reports[ri].last_five, lines[li].digits).verdict),
  );
  return verdicts.includes('equal') || verdicts.every((v) => v === 'unknown');
}

/** What a person reads about a suggestible group: which sums meet, and what the digits say. */
function groupReasons(g: FoundGroup, reports: ReconcileReport[], lines: ReconcileLine[]): Reason[] {
  const sums: Reason =
    g.lines.length > 1
      ? { code: 'credits_sum', count: g.lines.length }
      : { code: 'reports_sum', count: g.reports.length };
  const shown = g.lines.some((li) =>
    g.reports.some((ri) => compareDigits(reports[ri].last_five, lines[li].digits).verdict === 'equal'),
  );
  return [sums, shown ? { code: 'shows_last_five' } : { code: 'no_account_close' }];
}

/** How much a pair as likely as chance is preferred to leaving a report without a line, in review's assignment. */
const REVIEW_PREFERENCE = 0;

/** The maximum-weight one-to-one assignment of reports to lines, per amount, over the pairs `weight` makes positive; with each pair's regret when asked. */
function assign(
  reports: ReconcileReport[],
  lines: ReconcileLine[],
  ofReport: Candidate[][],
  weight: (c: Candidate) => number,
  withRegret: boolean,
) {
  const usable = (c: Candidate) => weight(c) > 0;
  const partner = new Int32Array(reports.length).fill(-1);
  const owner = new Int32Array(lines.length).fill(-1);
  const regret = new Float64Array(reports.length);
  const paid = Float64Array.from(reports, () => -Infinity);
  const used = Float64Array.from(lines, () => -Infinity);
  const groups = new Map<number, number[]>();
  reports.forEach((r, ri) => {
    if (!ofReport[ri].some(usable)) return;
    const g = groups.get(r.amount);
    if (g) g.push(ri);
    else groups.set(r.amount, [ri]);
  });
  for (const group of groups.values()) {
    const local = new Map<number, number>();
    const lineOf: number[] = [];
    const edges: Edge[][] = group.map((ri) =>
      ofReport[ri].filter(usable).map((c) => {
        if (!local.has(c.line)) local.set(c.line, lineOf.push(c.line) - 1);
        return { to: local.get(c.line)!, weight: weight(c) };
      }),
    );
    const a = new Assignment(edges, lineOf.length);
    group.forEach((ri, i) => {
      const j = a.lineOf(i);
      if (j < 0) return;
      partner[ri] = lineOf[j];
      owner[lineOf[j]] = ri;
      if (withRegret) regret[ri] = a.regret(i);
    });
    if (withRegret) {
      group.forEach((ri, i) => a.lineOf(i) < 0 && (paid[ri] = a.paidMargin(i)));
      lineOf.forEach((li, j) => (used[li] = a.usedMargin(j)));
    }
  }
  partner.forEach((li, ri) => li >= 0 && (paid[ri] = Infinity));
  owner.forEach((ri, li) => ri >= 0 && (used[li] = Infinity));
  if (withRegret)
    // Over its pairs the assignment holds, paidMargin is exact. A pair weighing ≤ 0 is not among
    // them: the report may still be paid by that line, free, or taken from its holder, who loses
    // at most its regret (what it loses when the line goes to the best of the others, none of
    // them this report, who holds no edge to it). A pair the assignment holds is never counted
    // here: its holder's regret may be the very hand-over to this report, counted twice.
    reports.forEach((_, ri) => {
      if (partner[ri] >= 0) return;
      for (const c of ofReport[ri])
        if (!usable(c))
          paid[ri] = Math.max(paid[ri], owner[c.line] < 0 ? weight(c) : weight(c) - regret[owner[c.line]]);
    });
  if (withRegret)
    // the mirror for a line no report holds: a pair weighing ≤ 0 from a report left alone, or from
    // one that gives up its own line for it
    ofReport.forEach((list) => {
      for (const c of list)
        if (!usable(c) && owner[c.line] < 0)
          used[c.line] = Math.max(used[c.line], partner[c.report] < 0 ? weight(c) : weight(c) - regret[c.report]);
    });
  return { partner, owner, regret, paid, used };
}

/**
 * Review's one-to-one reading of what the automatic pairs left: the likelihood assignment again,
 * without the confirmed reports and their lines. Taken once over everything, a report that went
 * automatic with another line than review's reading gave it still held a line there, and a report
 * whose reading's line went automatic to another kept no line of its own: both pushed true lines
 * down the ranking. Cached per analysis and automatic margins (the bench decides many times).
 */
const reviewCache = new WeakMap<Analysis, Map<string, Int32Array>>();
export function reviewAfterAuto(a: Analysis, reportAuto: Uint8Array, lineTaken: Uint8Array, key: string): Int32Array {
  let cache = reviewCache.get(a);
  if (!cache) reviewCache.set(a, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) return hit;
  const open = a.ofReport.map((list, ri) => (reportAuto[ri] ? [] : list.filter((c) => lineTaken[c.line] !== 1)));
  const { partner } = assign(a.reports, a.lines, open, (c) => c.lr + REVIEW_PREFERENCE, false);
  cache.set(key, partner);
  return partner;
}

/** The queues from an analysis, at the given thresholds (the bench tries several on one analysis). */
export function decide(a: Analysis, t: Thresholds): MatchResult {
  const { reports, lines, ofReport, ofLine, partner, owner, regret, asked } = a;
  const result: MatchResult = { auto: [], review: [], reviewLines: [], unpaid: [], unreported: [], suggestions: [] };
  const lineTaken = new Uint8Array(lines.length); // 1 = auto, 2 = proposed first in review
  const reportAuto = new Uint8Array(reports.length);
  const cand = (ri: number, li: number) => ofReport[ri].find((x) => x.line === li)!;
  const shown = (c: Candidate) => {
    const ev = a.explain(c);
    return { score: round(ev.score), reasons: ev.reasons };
  };
  reports.forEach((r, ri) => {
    const li = partner[ri];
    if (!asked[ri] || li < 0) return;
    const c = cand(ri, li);
    // never automatic when a visible digit disagrees, nor when the payer is known by another last five
    if (c.facts.digits !== 'equal' && c.facts.digits !== 'unknown') return;
    if (c.payer === 'other') return;
    if (regret[ri] < (c.facts.digits === 'equal' ? t.auto : t.autoNoDigits)) return;
    // no digits: only on evidence a second customer could not have produced, said in the reasons
    const settled = c.facts.digits === 'unknown' ? a.settledBy(c) : null;
    if (c.facts.digits === 'unknown' && !settled) return;
    const ev = a.explain(c);
    result.auto.push({
      payment: r.uuid,
      line: lines[li].id,
      score: round(ev.score),
      reasons: settled ? [...ev.reasons, { code: 'settled', by: settled }] : ev.reasons,
    });
    lineTaken[li] = 1;
    reportAuto[ri] = 1;
  });

  const best = (list: Candidate[]) => list.reduce((m, c) => Math.max(m, c.weight), -Infinity);
  const reviewPartner = reviewAfterAuto(a, reportAuto, lineTaken, `${t.auto}|${t.autoNoDigits}`);
  const reviewOwner = new Int32Array(lines.length).fill(-1);
  reviewPartner.forEach((li, ri) => li >= 0 && !reportAuto[ri] && (reviewOwner[li] = ri));
  // the best likelihood among lines no report's reading holds, per holder (NaN: not yet asked)
  const freeAlt = new Float64Array(reports.length).fill(NaN);
  const unpaid: Array<{ ri: number; w: number }> = [];
  reports.forEach((r, ri) => {
    if (!asked[ri] || reportAuto[ri]) return;
    // the log odds that some credit pays a report the assignment left alone, the whole assignment
    // considered (a line it might take from another report costs what that report, and any it
    // displaces in turn, would lose): low enough, it is unpaid
    if (a.coverable[ri] && !a.suggested.reports.has(ri) && !a.groupable.has(ri) && a.paid[ri] < t.unpaid)
      unpaid.push({ ri, w: a.paid[ri] });
    const open = ofReport[ri].filter((c) => lineTaken[c.line] !== 1);
    if (open.length === 0) return;
    // Review ranks first the line the assignment gives the report; then free lines by weight;
    // then lines held by another report, by what that report would lose without them (its pair
    // less the best line no one holds that it could take instead: a holder with an equal
    // alternative gives its line up for nothing).
    const mine = reviewPartner[ri];
    const rank = (c: Candidate) => (c.line === mine ? 0 : reviewOwner[c.line] < 0 && c.lr > 0 ? 1 : 2);
    // what the holder would lose by giving the line up: its pair less the best line no one holds
    // that it could take instead (one step of the reading's re-seating)
    const held = (c: Candidate) => {
      const k = reviewOwner[c.line];
      if (k < 0) return 0;
      if (Number.isNaN(freeAlt[k])) {
        let alt = 0;
        for (const x of ofReport[k]) if (reviewOwner[x.line] < 0 && lineTaken[x.line] !== 1) alt = Math.max(alt, x.lr);
        freeAlt[k] = alt;
      }
      return cand(k, c.line).lr - freeAlt[k];
    };
    const keys = new Map(open.map((c) => [c, rank(c) * 1e9 - (rank(c) === 2 ? c.lr - held(c) : c.lr)]));
    open.sort((x, y) => keys.get(x)! - keys.get(y)!);
    if (mine >= 0) lineTaken[mine] = 2;
    result.review.push({
      payment: r.uuid,
      candidates: open.map((c) => ({ line: lines[c.line].id, ...shown(c) })),
    });
  });
  result.unpaid = unpaid.sort((x, y) => x.w - y.w).map((u) => ({ payment: reports[u.ri].uuid }));

  // a suggestion naming a report confirmed automatically is dropped: its credits are listed again
  const shownReport = new Set(reports.filter((_, ri) => asked[ri] && !reportAuto[ri]).map((r) => r.uuid));
  result.suggestions = a.suggestions.filter((s) => s.payments.every((u) => shownReport.has(u)));
  const lineIndex = new Map(lines.map((l, li) => [l.id, li]));
  const suggestedLines = new Set(result.suggestions.flatMap((s) => s.lines.map((id) => lineIndex.get(id)!)));
  const unreported: Array<{ li: number; w: number }> = [];
  lines.forEach((l, li) => {
    if (l.amount <= 0 || lineTaken[li] !== 0 || !a.lineAsked[li]) return;
    const open = ofLine[li].filter((c) => !reportAuto[c.report]);
    // the log odds that some report not confirmed pays it, the whole assignment considered (a
    // report that would leave its own line for it loses what that line is worth to it, and so on)
    const w = Math.min(best(open), a.used[li]);
    if (owner[li] < 0 && a.decidable[li] && !suggestedLines.has(li) && w < t.unreported) {
      unreported.push({ li, w });
      return;
    }
    const offered = open.filter((c) => asked[c.report]).sort((x, y) => y.weight - x.weight);
    if (offered.length === 0) return;
    result.reviewLines.push({
      line: l.id,
      candidates: offered.map((c) => ({ payment: reports[c.report].uuid, ...shown(c) })),
    });
  });
  result.unreported = unreported.sort((x, y) => x.w - y.w).map((u) => ({ line: lines[u.li].id }));
  result.review.sort((x, y) => byScore(x.candidates[0], y.candidates[0]));
  return result;
}

/**
 * Of the reports the assignment left alone, those free credits might still pay as part of a
 * group no suggestion named, so that the report is not called unpaid (the money may be there):
 * - several orders paid at once: a larger credit showing the report's last five, booked when the
 *   report's payment may be by the month's booking times (no less likely than chance: a credit
 *   days later is the customer's next, larger order; on the sweep, of the credits this sets
 *   aside, 15 were beside an unpaid report, 3 beside a true group's); or one worth
 *   exactly the report plus one or two other orders of the same customer made within two hours
 *   of it (reports of the store whose last five is the report's, the credit's visible digits, or
 *   one typo from either, or from another such order: each order's last five is typed apart),
 *   whoever's account the credit shows (a relative may pay), whether or not the assignment gave
 *   those orders a credit of their own amount (in a crowded month it often does, wrongly). Any
 *   other report that happens to make up the rest is not enough: in a month of few prices some
 *   report near it nearly always does, and every unpaid report would hide behind one (the sweep's
 *   busy held-out month, when measured: 14 of 67 unpaid found with the customer's own orders, none
 *   with any report of the store);
 * - a payment split into two or three credits (perhaps from two accounts of one family) that add
 *   up to the report, booked within a day and a half of each other, at least one showing the last
 *   five or one typo from it; or, none showing any digits, all close to the report (three hours,
 *   or the same day or the next for a statement without times). A part only one typo from the last
 *   five beside a part showing another account is enough only within three hours of each other:
 *   further apart they are two customers' credits that happen to add up (on the sweep, 25 such
 *   groups hid unpaid reports, 5 were true). Only credits no report holds: a
 *   part showing the last five held by another report was tried, and in a month of regulars it is
 *   mostly the customer's own other payment (the sweep: held-out unpaid found 229 without, 221 with).
 * Credits that merely add up (in a month of few prices, almost any two do) are not enough.
 */
function mayBeGrouped(
  reports: ReconcileReport[],
  lines: ReconcileLine[],
  left: number[],
  freeLines: number[],
  before: number,
  after: number,
  time: (r: ReconcileReport, l: ReconcileLine) => number,
): Map<number, FoundGroup> {
  const out = new Map<number, FoundGroup>();
  const free = freeLines.filter((li) => lines[li].amount > 0).sort((a, b) => lines[a].at - lines[b].at);
  // the other members of a group: any report of the store (one the assignment paired with a
  // credit of its own amount may still belong to the group)
  const byStore = new Map<number, number[]>();
  reports.forEach((r, ri) => (byStore.get(r.store_id) ?? byStore.set(r.store_id, []).get(r.store_id)!).push(ri));
  for (const list of byStore.values()) list.sort((a, b) => reports[a].paid_at - reports[b].paid_at);
  const TWO_HOURS = 2 * 3_600_000;
  const THREE_HOURS = 3 * 3_600_000;
  // the amounts one or two other orders of the same customer, made within two hours of ri, add up
  // to: reports whose last five is the report's, the credit's visible digits, or one typo from
  // either (or from another such report: each order's last five is typed apart)
  const nearOf = (ri: number): number[] => {
    const r = reports[ri];
    const list = byStore.get(r.store_id) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (reports[list[mid]].paid_at < r.paid_at - TWO_HOURS) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let k = lo; k < list.length && reports[list[k]].paid_at <= r.paid_at + TWO_HOURS; k++)
      if (list[k] !== ri) out.push(list[k]);
    return out;
  };
  // each sum the customer's other orders make, with the orders that make it
  const companions = (ri: number, near: number[], li: number): Map<number, number[]> => {
    const r = reports[ri];
    const fives = [r.last_five];
    const digits = lines[li].digits;
    const members: number[] = [];
    for (let grown = true; grown; ) {
      grown = false;
      for (const x of near) {
        if (members.includes(x)) continue;
        const five = reports[x].last_five;
        if (fives.some((f) => sameCustomer(f, five)) || (digits.length >= 3 && sameCustomer(five, digits))) {
          members.push(x);
          fives.push(five);
          grown = true;
        }
      }
    }
    const sums = new Map<number, number[]>();
    const add = (xs: number[]) => {
      const sum = xs.reduce((s, x) => s + reports[x].amount, 0);
      if (!sums.has(sum)) sums.set(sum, xs);
    };
    members.forEach((x, i) => {
      add([x]);
      for (let j = i + 1; j < members.length; j++) add([x, members[j]]);
    });
    return sums;
  };
  const within = (r: ReconcileReport) => {
    const out: number[] = [];
    for (let k = firstAtOrAfter(free, lines, r.paid_at - before - DAY_MS); k < free.length; k++) {
      const li = free[k];
      if (lines[li].at > r.paid_at + after) break;
      if (mayPay(r, lines[li], before, after)) out.push(li);
    }
    return out;
  };
  for (const ri of left) {
    const r = reports[ri];
    const inside = within(r);
    const verdict = (li: number) => compareDigits(r.last_five, lines[li].digits).verdict;
    const shows = (li: number) => verdict(li) === 'equal' || verdict(li) === 'typo';
    const day = taipeiDayNumber(r.paid_at);
    const close = (li: number, span: number) => {
      const l = lines[li];
      if (!l.hasTime) return taipeiDayNumber(l.at) - day === 0 || taipeiDayNumber(l.at) - day === 1;
      return Math.abs(l.at - r.paid_at) <= span;
    };
    let combined: FoundGroup | null = null;
    const near = nearOf(ri);
    for (const li of inside) {
      const l = lines[li];
      if (l.amount <= r.amount) continue;
      const others = near.length > 0 ? companions(ri, near, li).get(l.amount - r.amount) : undefined;
      // a larger credit showing the last five alone, booked when this order's payment is less
      // likely than chance by the month's own booking times: the customer's later order
      if (verdict(li) === 'equal' && !others && time(r, l) < 0) continue;
      if (verdict(li) === 'equal')
        combined = { reason: 'larger credit showing the last five', reports: [ri, ...(others ?? [])], lines: [li] };
      else if (others)
        combined = {
          reason: 'larger credit of this and the customer’s other orders',
          reports: [ri, ...others],
          lines: [li],
        };
      if (combined) break;
    }
    if (combined) {
      out.set(ri, combined);
      continue;
    }
    const parts = inside.filter((li) => lines[li].amount < r.amount);
    let split: FoundGroup | false = false;
    const fits = (set: number[]): FoundGroup | false => {
      const times = set.map((li) => lines[li].at);
      if (Math.max(...times) - Math.min(...times) > 1.5 * DAY_MS) return false;
      // a part one typo from the last five beside a part showing another account, hours apart, is
      // two customers' credits that happen to add up far more often than one split payment
      if (
        !set.some((li) => verdict(li) === 'equal') &&
        set.some((li) => verdict(li) === 'different') &&
        Math.max(...times) - Math.min(...times) > THREE_HOURS
      )
        return false;
      if (set.some(shows)) return { reason: 'split, showing the last five', reports: [ri], lines: set };
      return (
        set.every((li) => verdict(li) === 'unknown' && close(li, THREE_HOURS)) && {
          reason: 'split, digitless and close',
          reports: [ri],
          lines: set,
        }
      );
    };
    for (let x = 0; x < parts.length && !split; x++)
      for (let y = x + 1; y < parts.length && !split; y++) {
        const ab = lines[parts[x]].amount + lines[parts[y]].amount;
        if (ab === r.amount) split = fits([parts[x], parts[y]]);
        else if (ab < r.amount)
          for (let z = y + 1; z < parts.length && !split; z++)
            if (ab + lines[parts[z]].amount === r.amount) split = fits([parts[x], parts[y], parts[z]]);
      }
    if (split) out.set(ri, split);
  }
  return out;
}

/** two reported last fives one customer may have written: equal, or one typo apart */
function sameCustomer(a: string, b: string): boolean {
  const v = compareDigits(a, b).verdict;
  return v === 'equal' || v === 'typo';
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
  used: { reports: Set<number>; lines: Set<number> },
): MatchResult['suggestions'] {
  const out: MatchResult['suggestions'] = [];
  const usedLine = used.lines;
  const usedReport = used.reports;
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
    return (
      (v === 'equal' || (v === 'unknown' && close)) && rs.every((ri) => mayPay(reports[ri], lines[li], before, after))
    );
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
    out.push({
      payments: rs.map((ri) => reports[ri].uuid),
      lines: [lines[li].id],
      reasons: [{ code: 'reports_sum', count: rs.length }, { code: 'same_last_five' }],
    });
  };
  for (const group of byFive.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => reports[a].paid_at - reports[b].paid_at);
    const near = (a: number, b: number) => reports[b].paid_at - reports[a].paid_at <= before + after;
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length && near(group[x], group[y]); y++) {
        for (let z = y + 1; z < group.length && near(group[x], group[z]); z++)
          tryCombined([group[x], group[y], group[z]]);
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
      if (
        usedLine.has(li) ||
        l.amount >= r.amount ||
        !mayPay(r, l, before, after) ||
        !compatible(r.last_five, l.digits)
      )
        continue;
      const other = seen.get(r.amount - l.amount);
      if (
        other !== undefined &&
        [other, li].some((x) => compareDigits(r.last_five, lines[x].digits).verdict === 'equal')
      ) {
        out.push({
          payments: [r.uuid],
          lines: [lines[other].id, l.id],
          reasons: [{ code: 'credits_sum', count: 2 }, { code: 'shows_last_five' }],
        });
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
