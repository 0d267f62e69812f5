/**
 * Matching credits to reported payments, a pure function: candidates of equal amount in a window,
 * weighed by what this run learned (model.ts), assigned one-to-one (assignment.ts). Auto only when
 * the best assignment with the pair beats the best without it by a margin and no digit disagrees.
 */
import { STATUS_FAILED } from '../paymentStatuses.js';
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
  /** the log odds the best assignment without an automatic pair must lose (digits that agree) */
  auto: number;
  /** the same when the line shows no digits: what goes wrong differs, so its own margin */
  autoNoDigits: number;
  /** listed only below these log odds that some credit pays the report (Analysis.paid), or report the credit (used) */
  unpaid: number;
  unreported: number;
}

/** Chosen on the calibration half of the bench's sweep (bench/reconcile-sweep.ts). */
export const DEFAULT_THRESHOLDS: Thresholds = { auto: 4, autoNoDigits: 0, unpaid: -3.75, unreported: -1.25 };

export interface MatchOptions {
  windowBeforeMs?: number;
  windowAfterMs?: number;
  /** a report is unpaid only when this spans its window */
  coverage?: { from: number; to: number };
  /** only its reports are proposed; those around it may still explain a credit */
  period?: { from: number; to: number };
  /** every report of this span was given: a credit is unreported only when its window lies inside */
  reportsCover?: { from: number; to: number };
  payers?: PayerMemory[];
  thresholds?: Partial<Thresholds>;
}

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
/** nearly every transfer is booked within three days: the statement must reach that far for a report to be unpaid */
const UNPAID_COVERAGE_AFTER_MS = 3 * DAY_MS;

interface Candidate extends ModelCandidate {
  ev?: Evidence;
  /** the log odds that the line pays the report, against the report unpaid */
  weight: number;
  /** the likelihood ratio alone: which line it is, if the report was paid */
  lr: number;
  payer?: 'same' | 'other';
}

interface Candidates {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  ofReport: Candidate[][];
  ofLine: Candidate[][];
}

/** What lets a pair without digits be automatic, evidence no second customer could have produced. */
export type Settled = 'payer' | 'alone';
/** the margin a first reading's pair needs to teach the second */
const SURE_MARGIN = 3.5;
const RIVAL_ODDS = Math.log(100);

const round = (x: number) => Math.round(x);
const byScore = <T extends { score: number }>(a: T, b: T) => b.score - a.score;

/** Everything the decisions are made from (the bench decides many times on one). */
export interface Analysis {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  ofReport: Candidate[][];
  ofLine: Candidate[][];
  partner: Int32Array;
  owner: Int32Array;
  /** what the best assignment without the report's pair loses */
  regret: Float64Array;
  /** a report left alone: the log odds (max-product) that some credit pays it; +Infinity when paired */
  paid: Float64Array;
  used: Float64Array;
  reviewPartner: Int32Array;
  asked: Uint8Array;
  lineAsked: Uint8Array;
  coverable: Uint8Array;
  decidable: Uint8Array;
  suggestions: MatchResult['suggestions'];
  suggested: { reports: Set<number>; lines: Set<number> };
  /** reports left alone that a group might pay: never unpaid */
  groupable: Map<number, GroupReason>;
  explain: (c: Candidate) => Evidence;
  /** null: a pair without digits is never automatic */
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

/** `teacher`: which pairs teach the month's habits (the bench's bound knows the true ones) */
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
  // review's reading: which line is the report's if it was paid
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
 * The month read twice: the first reading's sure pairs teach booking habits and payer names; its pairs
 * made despite another account's digits teach that the payer pays for this last five (a family's account).
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
    lineAsked: Uint8Array.from(lines, (l) => (inPeriod(l.at) ? 1 : 0)),
    coverable: Uint8Array.from(reports, (r) =>
      cov && cov.from <= r.paid_at - before && cov.to >= r.paid_at + Math.min(after, UNPAID_COVERAGE_AFTER_MS) ? 1 : 0,
    ),
    decidable: Uint8Array.from(lines, (l) => (!rc || (rc.from <= l.at - after && rc.to >= l.at + before) ? 1 : 0)),
  };
}

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
 * `alone`: no rival at least 1/RIVAL_ODDS as likely by its time by this month's banks (a slow
 * bank's window is days). Other digits make a rival too: a spouse's account pays for customers.
 */
function settler(model: Model, { reports, lines, ofReport, ofLine }: Candidates) {
  const timeOf = (x: Candidate) => model.time(reports[x.report], lines[x.line]);
  const rivals = (list: Candidate[], c: Candidate) => list.some((x) => x !== c && timeOf(x) > timeOf(c) - RIVAL_ODDS);
  return (c: Candidate): Settled | null => {
    if (model.payerSettles(reports[c.report], lines[c.line], c.line)) return 'payer';
    return rivals(ofReport[c.report], c) || rivals(ofLine[c.line], c) ? null : 'alone';
  };
}

/** The share of spanned reports a reading found paid, one left alone counted by its chance (undefined: too few). */
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

function payerReason(p: PayerNote): Reason {
  if (p.from === 'memory')
    return p.known === 'same' ? { code: 'payer_memory_same' } : { code: 'payer_memory_other', fives: p.fives };
  return p.known === 'same' ? { code: 'payer_name_same' } : { code: 'payer_name_other', fives: p.fives };
}

/** how much review's reading prefers a pair as likely as chance to no line */
const REVIEW_PREFERENCE = 0;

/** The maximum-weight assignment per amount over the pairs `weight` makes positive, with regrets when asked. */
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
    // paidMargin is exact over the pairs the assignment holds; a pair weighing ≤ 0 may still take
    // its line from the holder, who loses at most its regret (a held pair is never counted twice)
    reports.forEach((_, ri) => {
      if (partner[ri] >= 0) return;
      for (const c of ofReport[ri])
        if (!usable(c))
          paid[ri] = Math.max(paid[ri], owner[c.line] < 0 ? weight(c) : weight(c) - regret[owner[c.line]]);
    });
  if (withRegret)
    // the mirror for a line no report holds
    ofReport.forEach((list) => {
      for (const c of list)
        if (!usable(c) && owner[c.line] < 0)
          used[c.line] = Math.max(used[c.line], partner[c.report] < 0 ? weight(c) : weight(c) - regret[c.report]);
    });
  return { partner, owner, regret, paid, used };
}

/**
 * Review's reading of what the automatic pairs left, without them: taken over everything, reports
 * gone automatic kept lines there and pushed true lines down. Cached per analysis and margins.
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

/** Never automatic when a visible digit disagrees, nor when the payer is known by another last five. */
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

/** Review by report, and the unpaid: reports left alone whose log odds of being paid are below the threshold. */
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
 * First the line review's reading gives; then free lines; then held lines, by what the holder loses
 * (its pair less its best free alternative: one with an equal alternative gives its line up for nothing).
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
  const sort = (ri: number, open: Candidate[]): number => {
    const mine = reviewPartner[ri];
    const rank = (c: Candidate) => (c.line === mine ? 0 : reviewOwner[c.line] < 0 && c.lr > 0 ? 1 : 2);
    const keys = new Map(open.map((c) => [c, rank(c) * 1e9 - (rank(c) === 2 ? c.lr - held(c) : c.lr)]));
    open.sort((x, y) => keys.get(x)! - keys.get(y)!);
    return mine;
  };
  return { sort };
}

/** Review by line for credits no report's review proposes first; or unreported, below the threshold. */
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
