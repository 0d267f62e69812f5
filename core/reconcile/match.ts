/**
 * Matching a statement's credits to the reported payments: a pure function, the service and the
 * bench call it. Rules:
 * - hard: equal amount; a store's statement line only for that store's reports; the credit from a
 *   day and a half before to four and a half days after the reported time (configurable).
 * - evidence, weighed by what this very run learned (model.ts): digits, booking time, note, payer,
 *   and how many credits of that amount a window holds.
 * - one-to-one over the period: the maximum-weight assignment per amount (assignment.ts).
 * - auto only when the best assignment with the pair beats the best without it by a margin, and no
 *   visible digit disagrees; a line showing no digits has its own margin (what goes wrong differs).
 * - unpaid: a report nothing likely explains, when the statement covers its window; unreported: a
 *   credit no report can explain. Both most certain first.
 * - a second pass suggests, never confirms, groups (groups.ts).
 * DEFAULT_THRESHOLDS are chosen by `npm run bench` on one half of a sweep of months (bench/reconcile-sweep.ts).
 */
import { STATUS_FAILED } from '../payments/statuses.js';
import { DAY_MS } from '../time.js';
import { Assignment, type Edge } from './assignment.js';
import { compareDigits, evidence, mayPay, noteFound, type Evidence } from './evidence.js';
import { secondPass, type GroupReason } from './groups.js';
import { firstAtOrAfter, indexByAmount } from './lineIndex.js';
import {
  learnModel,
  MONTH_TEACHER,
  type Candidate as ModelCandidate,
  type FirstReading,
  type Model,
  type PayerNote,
  type Teacher,
} from './model.js';
import type { Reason } from './reasons.js';
import type { PayerMemory, ReconcileLine, ReconcileReport } from './types.js';

export interface Thresholds {
  /** the log odds the best assignment without an automatic pair must lose, when the line shows digits that agree */
  auto: number;
  /** the same when the line shows no digits (a name, a cash deposit) */
  autoNoDigits: number;
  /** a report is an unpaid candidate only when the log odds that some credit pays it (Analysis.paid) are below this */
  unpaid: number;
  /** a credit is unreported only when the log odds that some report pays it (Analysis.used) are below this */
  unreported: number;
}

/** Chosen on the calibration half of the bench's sweep (docs/performance.md). */
export const DEFAULT_THRESHOLDS: Thresholds = { auto: 4, autoNoDigits: 0, unpaid: -3.75, unreported: -1.25 };

export interface MatchOptions {
  windowBeforeMs?: number;
  windowAfterMs?: number;
  /** the period the statement covers (epoch ms): a report is unpaid only when this spans its window */
  coverage?: { from: number; to: number };
  /** the period asked about ([from, to)): only its reports are proposed; those around it may still explain a credit */
  period?: { from: number; to: number };
  /** every report made in this span was given: a credit is unreported only when its whole window lies inside */
  reportsCover?: { from: number; to: number };
  /** what confirmed links taught about payers */
  payers?: PayerMemory[];
  thresholds?: Partial<Thresholds>;
}

/** Reasons are codes (reasons.ts): the service renders them in words. */
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
/** how far after a report the statement must reach before it may be called unpaid: nearly every transfer is booked within three days */
const UNPAID_COVERAGE_AFTER_MS = 3 * DAY_MS;

interface Candidate extends ModelCandidate {
  /** the score and reasons a person reads, made when shown (explain) */
  ev?: Evidence;
  /** the log odds that the line pays the report, against the report unpaid (model.ts) */
  weight: number;
  /** the log-likelihood ratio alone: which line it is, if the report was paid */
  lr: number;
  /** what is known of the line's payer: their last five is the report's, or another */
  payer?: 'same' | 'other';
}

/** The month's reports and credits with their candidates, each on both sides. */
interface Candidates {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  ofReport: Candidate[][];
  ofLine: Candidate[][];
}

/**
 * What lets a pair on a line showing no digits be automatic: evidence no second customer could have
 * produced. `payer`: a name confirmed links tie to this last five alone. `alone`: no rival credit or
 * report of the amount in the window.
 */
export type Settled = 'payer' | 'alone';
/** the margin a first reading's pair needs to teach the second reading */
const SURE_MARGIN = 3.5;
/** how much less likely by its time a rival may be and still keep a pair without digits from being automatic */
const RIVAL_ODDS = Math.log(100);

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
   * for a report left alone, the log odds (max-product) that some credit pays it, ≤ 0
   * (-Infinity: no candidate); +Infinity when paired
   */
  paid: Float64Array;
  /** the mirror for lines: the log odds that some report's payment it is; +Infinity when held */
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
  /** reports left alone that a free credit might pay with other orders, or two credits together: never unpaid */
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

/** `teacher`: which pairs teach the month's habits (the month's own; the bench's bound knows the true ones) */
export function analyse(
  allReports: ReconcileReport[],
  lines: ReconcileLine[],
  opts: MatchOptions = {},
  teacher: Teacher = MONTH_TEACHER,
): Analysis {
  const reports = allReports.filter((r) => r.status !== STATUS_FAILED);
  const win = {
    before: opts.windowBeforeMs ?? DEFAULT_WINDOW_BEFORE_MS,
    after: opts.windowAfterMs ?? DEFAULT_WINDOW_AFTER_MS,
  };
  const month = candidatesOf(reports, lines, win.before, win.after);
  const { ofReport, ofLine } = month;
  const { model, main } = readMonth(month, win, opts, teacher);
  // review's reading: which line is the report's if it was paid (a pair as likely as chance preferred to none)
  const review = assign(reports, lines, ofReport, (c) => c.lr + REVIEW_PREFERENCE, false);
  const { partner, owner, regret, paid, used } = main;
  const scope = scopeOf(reports, lines, opts, win.before, win.after);
  const second = secondPass({ reports, lines, ...win }, main, scope.coverable, model.time);
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
    asked: scope.asked,
    lineAsked: scope.lineAsked,
    coverable: scope.coverable,
    decidable: scope.decidable,
    suggestions: second.suggestions,
    suggested: second.suggested,
    groupable: second.groupable,
    explain: explainer(model, reports, lines),
    settledBy: settler(model, month),
    model: model.summary,
  };
}

/** Candidates: each report's credits of equal amount inside its window. */
function candidatesOf(reports: ReconcileReport[], lines: ReconcileLine[], before: number, after: number): Candidates {
  const byAmount = indexByAmount(lines);
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
  return { reports, lines, ofReport, ofLine };
}

/** Every candidate weighed by the model. */
function weigh(model: Model, { reports, lines, ofReport }: Candidates): Model {
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
}

/**
 * The month read twice: the first reading's sure pairs teach the second the booking habits and
 * payer names they show, its pairs made in spite of another account's digits that the payer pays
 * for this last five (a family's account, which no anchor can show), and its paid share.
 */
function readMonth(
  month: Candidates,
  win: { before: number; after: number },
  opts: MatchOptions,
  teacher: Teacher,
): { model: Model; main: ReturnType<typeof assign> } {
  const { reports, lines, ofReport, ofLine } = month;
  const learn = (first?: FirstReading) =>
    weigh(learnModel(reports, lines, { ofReport, ofLine }, { ...win }, opts.payers, teacher, first), month);
  // the most likely reading, where a report may stay unpaid
  const reading = () => assign(reports, lines, ofReport, (c) => c.weight, true);
  let model = learn();
  let main = reading();
  const { sure, kin } = whatFirstTeaches(month, main);
  if (sure.length > 0 || kin.length > 0) {
    model = learn({ sure, kin, paidShare: paidShareOf(main, reports, opts.coverage, win.before, win.after) });
    main = reading();
  }
  return { model, main };
}

/** A reading's sure pairs (no digit disagreeing, no payer known by another last five), and its kin pairs. */
function whatFirstTeaches({ lines, ofReport }: Candidates, main: ReturnType<typeof assign>) {
  const sure: Array<[number, number]> = [];
  const kin: Array<[number, number]> = [];
  main.partner.forEach((li, ri) => {
    if (li < 0) return;
    const c = ofReport[ri].find((x) => x.line === li)!;
    if (lines[li].payer && c.facts.digits === 'different' && c.facts.visible >= 3) kin.push([ri, li]);
    if (main.regret[ri] < SURE_MARGIN) return;
    if ((c.facts.digits === 'equal' || c.facts.digits === 'unknown') && c.payer !== 'other') sure.push([ri, li]);
  });
  return { sure, kin };
}

/** Which reports and lines are asked about, which reports may be unpaid, which lines unreported. */
function scopeOf(
  reports: ReconcileReport[],
  lines: ReconcileLine[],
  opts: MatchOptions,
  before: number,
  after: number,
) {
  const { period, coverage: cov, reportsCover: rc } = opts;
  const inPeriod = (at: number) => !period || (at >= period.from && at < period.to);
  return {
    asked: Uint8Array.from(reports, (r) => (inPeriod(r.paid_at) ? 1 : 0)),
    // credits around the period take part, as context, but are not listed
    lineAsked: Uint8Array.from(lines, (l) => (inPeriod(l.at) ? 1 : 0)),
    coverable: Uint8Array.from(reports, (r) =>
      cov && cov.from <= r.paid_at - before && cov.to >= r.paid_at + Math.min(after, UNPAID_COVERAGE_AFTER_MS) ? 1 : 0,
    ),
    decidable: Uint8Array.from(lines, (l) => (!rc || (rc.from <= l.at - after && rc.to >= l.at + before) ? 1 : 0)),
  };
}

/** The score and reasons a person reads of a candidate, made once. */
function explainer(model: Model, reports: ReconcileReport[], lines: ReconcileLine[]) {
  return (c: Candidate): Evidence => {
    if (c.ev) return c.ev;
    const ev = evidence(reports[c.report], lines[c.line]);
    const payer = model.payerNote(reports[c.report], lines[c.line], c.line);
    if (payer) ev.reasons.push(payerReason(payer));
    return (c.ev = ev);
  };
}

/**
 * A rival: another credit the report could be, or report the credit could pay, at least
 * 1/RIVAL_ODDS as likely by its time as the pair by this month's banks (a slow bank's window is
 * days, an instant one's minutes). Other digits make a rival too: a spouse's account pays for customers.
 */
function settler(model: Model, { reports, lines, ofReport, ofLine }: Candidates) {
  const timeOf = (x: Candidate) => model.time(reports[x.report], lines[x.line]);
  const rivals = (list: Candidate[], c: Candidate) => list.some((x) => x !== c && timeOf(x) > timeOf(c) - RIVAL_ODDS);
  return (c: Candidate): Settled | null => {
    if (model.payerSettles(reports[c.report], lines[c.line], c.line)) return 'payer';
    return rivals(ofReport[c.report], c) || rivals(ofLine[c.line], c) ? null : 'alone';
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
  const result: MatchResult = { auto: [], review: [], reviewLines: [], unpaid: [], unreported: [], suggestions: [] };
  const lineTaken = new Uint8Array(a.lines.length); // 1 = auto, 2 = proposed first in review
  const reportAuto = new Uint8Array(a.reports.length);
  result.auto = automatic(a, t, lineTaken, reportAuto);
  const byReport = reviewByReport(a, t, lineTaken, reportAuto);
  result.review = byReport.review;
  result.unpaid = byReport.unpaid;
  // a suggestion naming a report confirmed automatically is dropped: its credits are listed again
  const shownReport = new Set(a.reports.filter((_, ri) => a.asked[ri] && !reportAuto[ri]).map((r) => r.uuid));
  result.suggestions = a.suggestions.filter((s) => s.payments.every((u) => shownReport.has(u)));
  const byLine = reviewByLine(a, t, lineTaken, reportAuto, result.suggestions);
  result.reviewLines = byLine.reviewLines;
  result.unreported = byLine.unreported;
  result.review.sort((x, y) => byScore(x.candidates[0], y.candidates[0]));
  return result;
}

const candidate = (a: Analysis, ri: number, li: number) => a.ofReport[ri].find((x) => x.line === li)!;

function shown(a: Analysis, c: Candidate) {
  const ev = a.explain(c);
  return { score: round(ev.score), reasons: ev.reasons };
}

/** The assignment's pairs confirmed automatically: never when a visible digit disagrees, nor the payer is known by another last five. */
function automatic(a: Analysis, t: Thresholds, lineTaken: Uint8Array, reportAuto: Uint8Array): MatchResult['auto'] {
  const auto: MatchResult['auto'] = [];
  a.reports.forEach((r, ri) => {
    const li = a.partner[ri];
    if (!a.asked[ri] || li < 0) return;
    const c = candidate(a, ri, li);
    if (c.facts.digits !== 'equal' && c.facts.digits !== 'unknown') return;
    if (c.payer === 'other') return;
    if (a.regret[ri] < (c.facts.digits === 'equal' ? t.auto : t.autoNoDigits)) return;
    // no digits: only on evidence a second customer could not have produced, said in the reasons
    const settled = c.facts.digits === 'unknown' ? a.settledBy(c) : null;
    if (c.facts.digits === 'unknown' && !settled) return;
    const ev = a.explain(c);
    auto.push({
      payment: r.uuid,
      line: a.lines[li].id,
      score: round(ev.score),
      reasons: settled ? [...ev.reasons, { code: 'settled', by: settled }] : ev.reasons,
    });
    lineTaken[li] = 1;
    reportAuto[ri] = 1;
  });
  return auto;
}

/**
 * Each report not confirmed with its open lines, ranked; and the unpaid: a report left alone whose
 * log odds of being paid by some credit, the whole assignment considered, are below the threshold.
 */
function reviewByReport(
  a: Analysis,
  t: Thresholds,
  lineTaken: Uint8Array,
  reportAuto: Uint8Array,
): Pick<MatchResult, 'review' | 'unpaid'> {
  const review: MatchResult['review'] = [];
  const unpaid: Array<{ ri: number; w: number }> = [];
  const ranking = reviewRanking(a, t, lineTaken, reportAuto);
  a.reports.forEach((r, ri) => {
    if (!a.asked[ri] || reportAuto[ri]) return;
    if (a.coverable[ri] && !a.suggested.reports.has(ri) && !a.groupable.has(ri) && a.paid[ri] < t.unpaid)
      unpaid.push({ ri, w: a.paid[ri] });
    const open = a.ofReport[ri].filter((c) => lineTaken[c.line] !== 1);
    if (open.length === 0) return;
    const mine = ranking.sort(ri, open);
    if (mine >= 0) lineTaken[mine] = 2;
    review.push({ payment: r.uuid, candidates: open.map((c) => ({ line: a.lines[c.line].id, ...shown(a, c) })) });
  });
  return { review, unpaid: unpaid.sort((x, y) => x.w - y.w).map((u) => ({ payment: a.reports[u.ri].uuid })) };
}

/**
 * Review ranks first the line review's reading gives the report; then free lines by likelihood;
 * then lines another report holds, by what it would lose without them (its pair less the best free
 * line it could take instead: a holder with an equal alternative gives its line up for nothing).
 */
function reviewRanking(a: Analysis, t: Thresholds, lineTaken: Uint8Array, reportAuto: Uint8Array) {
  const reviewPartner = reviewAfterAuto(a, reportAuto, lineTaken, `${t.auto}|${t.autoNoDigits}`);
  const reviewOwner = new Int32Array(a.lines.length).fill(-1);
  reviewPartner.forEach((li, ri) => li >= 0 && !reportAuto[ri] && (reviewOwner[li] = ri));
  // the best likelihood among lines no report's reading holds, per holder (NaN: not yet asked)
  const freeAlt = new Float64Array(a.reports.length).fill(NaN);
  const held = (c: Candidate) => {
    const k = reviewOwner[c.line];
    if (k < 0) return 0;
    if (Number.isNaN(freeAlt[k])) {
      let alt = 0;
      for (const x of a.ofReport[k]) if (reviewOwner[x.line] < 0 && lineTaken[x.line] !== 1) alt = Math.max(alt, x.lr);
      freeAlt[k] = alt;
    }
    return candidate(a, k, c.line).lr - freeAlt[k];
  };
  /** sorts the report's open candidates; returns the line its reading gives it (-1: none) */
  const sort = (ri: number, open: Candidate[]): number => {
    const mine = reviewPartner[ri];
    const rank = (c: Candidate) => (c.line === mine ? 0 : reviewOwner[c.line] < 0 && c.lr > 0 ? 1 : 2);
    const keys = new Map(open.map((c) => [c, rank(c) * 1e9 - (rank(c) === 2 ? c.lr - held(c) : c.lr)]));
    open.sort((x, y) => keys.get(x)! - keys.get(y)!);
    return mine;
  };
  return { sort };
}

/**
 * Each credit neither confirmed nor proposed first, with the reports it may pay; or unreported:
 * the log odds that some report not confirmed pays it, the whole assignment considered, below the threshold.
 */
function reviewByLine(
  a: Analysis,
  t: Thresholds,
  lineTaken: Uint8Array,
  reportAuto: Uint8Array,
  suggestions: MatchResult['suggestions'],
): Pick<MatchResult, 'reviewLines' | 'unreported'> {
  const { reports, lines } = a;
  const reviewLines: MatchResult['reviewLines'] = [];
  const best = (list: Candidate[]) => list.reduce((m, c) => Math.max(m, c.weight), -Infinity);
  const lineIndex = new Map(lines.map((l, li) => [l.id, li]));
  const suggestedLines = new Set(suggestions.flatMap((s) => s.lines.map((id) => lineIndex.get(id)!)));
  const unreported: Array<{ li: number; w: number }> = [];
  lines.forEach((l, li) => {
    if (l.amount <= 0 || lineTaken[li] !== 0 || !a.lineAsked[li]) return;
    const open = a.ofLine[li].filter((c) => !reportAuto[c.report]);
    const w = Math.min(best(open), a.used[li]);
    if (a.owner[li] < 0 && a.decidable[li] && !suggestedLines.has(li) && w < t.unreported) {
      unreported.push({ li, w });
      return;
    }
    const offered = open.filter((c) => a.asked[c.report]).sort((x, y) => y.weight - x.weight);
    if (offered.length === 0) return;
    reviewLines.push({
      line: l.id,
      candidates: offered.map((c) => ({ payment: reports[c.report].uuid, ...shown(a, c) })),
    });
  });
  return { reviewLines, unreported: unreported.sort((x, y) => x.w - y.w).map((u) => ({ line: lines[u.li].id })) };
}
