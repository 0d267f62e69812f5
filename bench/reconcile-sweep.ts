/**
 * Proof on many months, not one (issue 21, section 3). A sweep of months across the habits of
 * bench/reconcile-knobs.ts, extremes included, each setting written by both generators: ours
 * (bench/reconcile-data.ts) and one written apart from the matcher (bench/reconcile-gen-b.ts,
 * read through the product's own statement reader). The months fall in two halves: the matcher's
 * thresholds, and the fixed-weight greedy's, are chosen on the calibration half and reported on
 * the held-out half, where the goals are judged.
 */
import { decide, DEFAULT_THRESHOLDS, type Analysis, type Thresholds } from '../core/reconcile/match.js';
import { compareDigits } from '../core/reconcile/evidence.js';
import { greedy, greedyResult } from './reconcile-greedy.js';
import { FINDABLE, generate, score, type Score, type Truth } from './reconcile-data.js';
import type { ReconcileLine, ReconcileReport } from '../core/reconcile/types.js';
import { DEFAULT_KNOBS, type MonthKnobs } from './reconcile-knobs.js';
import { fileMonth } from './reconcile-files.js';
import { analyseTruth } from './reconcile-oracle.js';

export interface Setting {
  name: string;
  knobs: Partial<MonthKnobs>;
}

/** Each setting is one month per generator; which generator lands in which half alternates. */
export const SETTINGS: Setting[] = [
  { name: 'default', knobs: {} },
  { name: 'few amounts, many regulars', knobs: { amountDiversity: 4, regularShare: 0.45 } },
  { name: 'every amount different', knobs: { amountDiversity: 400, regularShare: 0.05 } },
  { name: 'masked or no account', knobs: { masking: { whole: 0.15, masked: 0.5, none: 0.35 } } },
  { name: 'slow bank, sloppy times', knobs: { bookingDelay: 2, reportTimeError: 2 } },
  { name: 'typos and shared last fives', knobs: { typoRate: 0.1, swapRate: 0.05, sharedLastFive: 0.25 } },
  { name: 'many unpaid and unreported', knobs: { unpaid: 0.08, unreported: 0.15, combined: 0.03, split: 0.03 } },
  { name: 'digits in 備註, exact and instant', knobs: { digitsInNote: 1, bookingDelay: 0, reportTimeError: 0 } },
  { name: 'other habits (the issue’s second month)', knobs: { amountDiversity: 8, regularShare: 0.35, masking: { whole: 0.3, masked: 0.5, none: 0.2 }, bookingDelay: 1.6 } },
  { name: 'busy and crowded', knobs: { perDay: 120, amountDiversity: 10, stores: 3 } },
];

/**
 * Three generators: ours (bench/reconcile-data.ts); B, written apart from the matcher
 * (bench/reconcile-gen-b.ts); and C, written from the brief alone by someone who had read
 * neither the matcher nor the other two (bench/reconcile-gen-c.ts). B and C write files, read by
 * the product's own statement reader.
 */
export const GENERATORS = ['ours', 'other', 'third'] as const;
export type GeneratorName = (typeof GENERATORS)[number];
export const GENERATOR_LABEL: Record<GeneratorName, string> = { ours: 'our generator', other: 'generator B', third: 'generator C' };

export interface SweepMonth {
  name: string;
  generator: GeneratorName;
  half: 'calibration' | 'held-out';
  /** 0 is the sweep itself; each further draw writes every setting again with new seeds (the same halves) */
  draw: number;
  knobs: Partial<MonthKnobs>;
  truth: Truth;
}

function write(generator: GeneratorName, knobs: Partial<MonthKnobs>, seed: number): Truth {
  if (generator === 'ours') return generate({ months: 1, seed, knobs });
  return fileMonth(knobs, seed, generator === 'other' ? 'b' : 'c');
}

/** Every setting by every generator, `draws` times (draw 0 first). Which half a month lands in alternates by setting and generator. */
export function sweepMonths(opts: { quick?: boolean; only?: GeneratorName; draws?: number } = {}): SweepMonth[] {
  const out: SweepMonth[] = [];
  for (let draw = 0; draw < (opts.draws ?? 1); draw++)
    SETTINGS.forEach((s, i) => {
      const knobs = opts.quick ? { ...s.knobs, perDay: Math.round((s.knobs.perDay ?? DEFAULT_KNOBS.perDay) / 4) } : s.knobs;
      GENERATORS.forEach((generator, g) => {
        if (opts.only && opts.only !== generator) return;
        const half = (i + g) % 2 === 0 ? 'calibration' : 'held-out';
        const seed = 7919 * (i + 1) + g + 1 + 1_000_003 * draw;
        out.push({ name: s.name, generator, half, draw, knobs, truth: { ...write(generator, knobs, seed), name: s.name } });
      });
    });
  return out;
}

export interface Analysed {
  month: SweepMonth;
  analysis: Analysis;
  ms: number;
  greedy: ReturnType<typeof greedy>;
}

/** `knowing`: the matcher as if it knew the month's habits (bench/reconcile-oracle.ts): the bound. */
export function analyseMonth(month: SweepMonth, knowing = false): Analysed {
  const t = month.truth;
  const t0 = performance.now();
  const analysis = analyseTruth(t, knowing);
  const ms = performance.now() - t0;
  const inPeriod = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
  return { month, analysis, ms, greedy: greedy(inPeriod, t.lines) };
}

const range = (from: number, to: number, step: number) => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, k) => from + k * step);
const MARGINS = range(0, 15, 0.25);

/**
 * The pairs decide() may confirm, with what decides it: the pair's margin (regret) against the
 * margin for lines with agreeing digits or none. Pairs the safety rules keep from being automatic
 * whatever the margin (digits disagreeing, a payer known by another last five, evidence a second
 * customer could have produced) are left out, as decide() leaves them.
 */
function automaticPairs(a: Analysed) {
  const t = a.month.truth;
  const { reports, lines, partner, regret, asked, ofReport } = a.analysis;
  const list: Array<{ regret: number; digits: boolean; right: boolean }> = [];
  reports.forEach((r, ri) => {
    const li = partner[ri];
    if (!asked[ri] || li < 0) return;
    const c = ofReport[ri].find((x) => x.line === li)!;
    const d = c.facts.digits;
    if ((d !== 'equal' && d !== 'unknown') || c.payer === 'other') return;
    if (d === 'unknown' && !a.analysis.settledBy(c)) return;
    list.push({ regret: regret[ri], digits: d === 'equal', right: t.pair.get(r.uuid) === lines[li].id });
  });
  const truePairs = reports.filter((r, ri) => asked[ri] && t.pair.has(r.uuid)).length;
  return { list, truePairs };
}

/** Recall and precision of each month at the two margins, as decide() would confirm. */
function atMargins(p: ReturnType<typeof automaticPairs>, m: number, n: number): { recall: number; precision: number } {
  let taken = 0;
  let right = 0;
  for (const x of p.list)
    if (x.regret >= (x.digits ? m : n)) {
      taken++;
      if (x.right) right++;
    }
  return { recall: p.truePairs ? right / p.truePairs : 1, precision: taken ? right / taken : 1 };
}

/**
 * The thresholds, chosen on the calibration months: the two automatic margins (digits that agree,
 * no digits) with the most recall that keeps every month's automatic precision at 99.7% or more
 * (a margin above the goal's 99.5%); the largest unpaid threshold that keeps false unpaid at 0.4%
 * of reports; the largest unreported threshold that keeps the list within 1.4 times the true
 * count. The greedy's automatic threshold: the least that keeps its precision at 99.7% too.
 */
export function chooseThresholds(calibration: Analysed[]): { matcher: Thresholds; greedy: number } {
  const all = (f: (a: Analysed) => boolean) => calibration.every(f);
  const at = (a: Analysed, t: Partial<Thresholds>) => score(a.month.truth, decide(a.analysis, { ...DEFAULT_THRESHOLDS, ...t }));
  const pairsOf = calibration.map(automaticPairs);
  let auto = 30;
  let autoNoDigits = 30;
  let most = -1;
  for (const m of MARGINS)
    for (const n of MARGINS) {
      const scores = pairsOf.map((p) => atMargins(p, m, n));
      if (scores.some((x) => x.precision < 0.997)) continue;
      const recall = scores.reduce((s, x) => s + x.recall, 0);
      if (recall > most + 1e-9) [most, auto, autoNoDigits] = [recall, m, n];
    }
  const unpaid = range(-15, 0, 0.25).reverse().find((u) => all((a) => at(a, { unpaid: u }).falseUnpaid <= 0.004)) ?? -15;
  // (a credit left alone has log odds ≤ 0 that some report's payment it is: 0 lists them all)
  const unreported = range(-15, 0, 0.25).reverse().find((v) => all((a) => {
    const s = at(a, { unreported: v });
    return s.unreportedListed <= 1.4 * Math.max(1, s.unreportedTrue);
  })) ?? -15;
  const greedyAt = (a: Analysed, th: number) => {
    const t = a.month.truth;
    const inPeriod = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
    return score(t, greedyResult(a.greedy, inPeriod, t.lines, th));
  };
  const g = range(-10, 6, 0.25).find((th) => all((a) => greedyAt(a, th).precision >= 0.997)) ?? 6;
  return { matcher: { auto, autoNoDigits, unpaid, unreported }, greedy: g };
}

/**
 * The bound of a month: what the matcher does knowing the month's habits (bench/reconcile-oracle.ts),
 * at thresholds chosen the same way on the calibration half, each month analysed knowing its
 * habits. Thresholds chosen per month would need the truth, which no matcher has; knowing the
 * habits makes the same threshold mean the same on every month, and that is what the bound measures.
 */
export interface Bound {
  recall: number;
  reviewFirst: number;
  reviewTop3: number;
  /** the share of unpaid reports found */
  unpaid: number;
  /** the share of unreported credits found */
  unreported: number;
}

function boundOf(known: Analysed, th: Thresholds): Bound {
  const s = score(known.month.truth, decide(known.analysis, th));
  const found = (x: number, of: number) => (of ? x / of : 1);
  return { recall: s.recall, reviewFirst: s.reviewFirst, reviewTop3: s.reviewTop3, unpaid: found(s.unpaidFound, s.unpaidTrue), unreported: found(s.unreportedFound, s.unreportedTrue) };
}

export interface MonthReport {
  name: string;
  generator: GeneratorName;
  half: string;
  draw: number;
  ms: number;
  matcher: Score;
  /** what the matcher could do knowing the month's habits (boundOf): the goals are relative to it */
  bound: Bound;
  /** the floor: the fixed-weight greedy at the threshold chosen on the calibration half, as the matcher's are */
  greedy: Score;
  /** the same greedy at its best threshold for this very month (99.5% precision or more), chosen knowing the truth: for comparison only */
  greedyBest: Score;
  /**
   * the most an automatic rule may confirm: the share of the month's true pairs whose line is a
   * candidate, whose visible digits do not disagree with the last five (a pair whose digits
   * disagree is never automatic) and that has no look-alike credit among the report's candidates
   */
  ceiling: number;
  /**
   * the best share of review's pairs any ranking could expect to put first, given what the files
   * hold: a report whose true line has k − 1 look-alikes among its candidates (credits identical
   * in every field the statement carries: amount, account, time, digits, payer, texts) counts 1/k,
   * since swapping look-alikes changes nothing a matcher can read
   */
  reviewCeiling: number;
  /**
   * the same for unpaid: an unpaid report with k − 1 paid twins (identical in every field a report
   * carries: store, amount, last five, time, note) counts 1/k
   */
  unpaidCeiling: number;
  /** review's misses: how many lost to a credit showing no digits, as the true line shows none (the statistical kind) */
  reviewMissesDigitless: number;
  reviewMisses: number;
  goals: Record<string, boolean>;
}

const lineKey = (l: ReconcileLine) => JSON.stringify([l.amount, l.source ?? l.store_id ?? null, l.at, l.hasTime, l.digits, l.payer ?? '', l.summary, l.note]);
const reportKey = (r: ReconcileReport) => JSON.stringify([r.store_id, r.amount, r.last_five, r.paid_at, r.note]);

/** The look-alike ceilings of review and unpaid (see MonthReport), and review's misses by kind. */
function lookAlikeCeilings(a: Analysed, res: ReturnType<typeof decide>) {
  const t = a.month.truth;
  const { reports, lines, ofReport, asked } = a.analysis;
  const autoPaid = new Set(res.auto.map((x) => x.payment));
  const firstOf = new Map(res.review.map((x) => [x.payment, x.candidates[0]?.line]));
  const lineIndex = new Map(lines.map((l, i) => [l.id, i]));
  let remaining = 0;
  let expected = 0;
  let misses = 0;
  let digitless = 0;
  reports.forEach((r, ri) => {
    const id = t.pair.get(r.uuid);
    if (!asked[ri] || id === undefined || autoPaid.has(r.uuid)) return;
    remaining++;
    const key = lineKey(lines[lineIndex.get(id)!]);
    expected += 1 / Math.max(1, ofReport[ri].filter((c) => lineKey(lines[c.line]) === key).length);
    const first = firstOf.get(r.uuid);
    if (first === id) return;
    misses++;
    const top = first === undefined ? undefined : lines[lineIndex.get(first)!];
    if (top && !top.digits && !lines[lineIndex.get(id)!].digits) digitless++;
  });
  const inPeriod = (r: ReconcileReport) => r.paid_at >= t.period.from && r.paid_at < t.period.to;
  const findable = (at: number) => at - FINDABLE.before >= t.coverage.from && at + FINDABLE.after <= t.coverage.to;
  const twins = new Map<string, number>();
  for (const r of t.reports) if (t.paid.has(r.uuid)) twins.set(reportKey(r), (twins.get(reportKey(r)) ?? 0) + 1);
  const unpaid = t.reports.filter((r) => inPeriod(r) && t.unpaid.has(r.uuid) && findable(r.paid_at));
  const unpaidExpected = unpaid.reduce((s, r) => s + 1 / (1 + (twins.get(reportKey(r)) ?? 0)), 0);
  return {
    reviewCeiling: remaining ? expected / remaining : 1,
    unpaidCeiling: unpaid.length ? unpaidExpected / unpaid.length : 1,
    reviewMisses: misses,
    reviewMissesDigitless: digitless,
  };
}

export function judge(a: Analysed, th: { matcher: Thresholds; greedy: number }, bound: Bound): MonthReport {
  const t = a.month.truth;
  const decided = decide(a.analysis, th.matcher);
  const m = score(t, decided);
  const inPeriod = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
  const g = score(t, greedyResult(a.greedy, inPeriod, t.lines, th.greedy));
  const best = range(-10, 6, 0.25)
    .map((x) => score(t, greedyResult(a.greedy, inPeriod, t.lines, x)))
    .filter((x) => x.precision >= 0.995)
    .reduce((b, x) => (x.recall > b.recall ? x : b), g);
  const reportOf = new Map(t.reports.map((r) => [r.uuid, r]));
  const lineOf = new Map(t.lines.map((l) => [l.id, l]));
  const pairs = inPeriod.filter((r) => t.pair.has(r.uuid));
  // a true pair an automatic rule may confirm: its line is a candidate (equal amount, inside the
  // window), its visible digits do not disagree, and no look-alike credit sits beside it among the
  // report's candidates (confirming one of k identical credits is right 1 time in k)
  const { reports: ar, lines: al, ofReport } = a.analysis;
  const riOf = new Map(ar.map((r, i) => [r.uuid, i]));
  const agreeing = pairs.filter((r) => {
    const l = lineOf.get(t.pair.get(r.uuid)!)!;
    const v = compareDigits(reportOf.get(r.uuid)!.last_five, l.digits).verdict;
    if (v !== 'equal' && v !== 'unknown') return false;
    const cands = ofReport[riOf.get(r.uuid) ?? -1] ?? [];
    return cands.some((c) => al[c.line].id === l.id) && cands.filter((c) => lineKey(al[c.line]) === lineKey(l)).length === 1;
  }).length;
  const ceiling = pairs.length ? agreeing / pairs.length : 1;
  const found = (x: number, of: number) => (of ? x / of : 1);
  const unpaid = found(m.unpaidFound, m.unpaidTrue);
  const unreported = found(m.unreportedFound, m.unreportedTrue);
  return {
    name: a.month.name,
    generator: a.month.generator,
    half: a.month.half,
    draw: a.month.draw,
    ms: a.ms,
    matcher: m,
    bound,
    greedy: g,
    greedyBest: best,
    ceiling,
    ...lookAlikeCeilings(a, decided),
    goals: {
      'auto precision ≥ 99.5%': m.precision >= 0.995,
      'no auto pair with disagreeing digits': m.autoDigitsDisagree === 0,
      'auto recall within 4 points of the bound': m.recall >= bound.recall - 0.04,
      'review top 3 within 3 points of the bound': m.reviewTop3 >= bound.reviewTop3 - 0.03,
      'unpaid found within 10 points of the bound': unpaid >= bound.unpaid - 0.1,
      'false unpaid ≤ 0.5%': m.falseUnpaid <= 0.005,
      'unreported found ≥ 80% or within 5 points of the bound': unreported >= Math.min(0.8, bound.unreported - 0.05),
      'unreported list ≤ 1.5x': m.unreportedListed <= 1.5 * Math.max(1, m.unreportedTrue),
    },
  };
}

const pc = (x: number) => `${(x * 100).toFixed(1)}%`;
/** the matcher's distance from the bound, in points (negative: under it) */
const pts = (x: number, bound: number) => `${x >= bound ? '+' : '−'}${(Math.abs(x - bound) * 100).toFixed(1)}`;
const share = (found: number, of: number) => (of ? found / of : 1);

/** Which goals a month missed, or 'all goals'. */
export function missedGoals(r: MonthReport): string[] {
  return Object.entries(r.goals).filter(([, ok]) => !ok).map(([g]) => g);
}

export function formatRow(r: MonthReport): string {
  const m = r.matcher;
  const b = r.bound;
  const missed = missedGoals(r);
  const unpaid = share(m.unpaidFound, m.unpaidTrue);
  const unreported = share(m.unreportedFound, m.unreportedTrue);
  return [
    `${r.half === 'held-out' ? 'H' : 'C'} ${r.generator.padEnd(5)} #${r.draw} ${r.name}`,
    `auto ${pc(m.precision)} / ${pc(m.recall)} (bound ${pc(b.recall)}, ${pts(m.recall, b.recall)}; greedy ${pc(r.greedy.recall)}; ceiling ${pc(r.ceiling)})`,
    `review first ${pc(m.reviewFirst)} top3 ${pc(m.reviewTop3)} (bound ${pc(b.reviewTop3)}, ${pts(m.reviewTop3, b.reviewTop3)})`,
    `unpaid ${m.unpaidFound}/${m.unpaidTrue} false ${pc(m.falseUnpaid)} (bound ${pc(b.unpaid)}, ${pts(unpaid, b.unpaid)})`,
    `unreported ${m.unreportedFound}/${m.unreportedTrue} in ${m.unreportedListed} (bound ${pc(b.unreported)}, ${pts(unreported, b.unreported)})`,
    `${r.ms.toFixed(0)} ms`,
    missed.length ? `MISSED: ${missed.join('; ')}` : 'all goals',
  ].join(' | ');
}

/** The README's month-by-month table: its header, then one row per month. */
export const MARKDOWN_HEADER = [
  '| half | generator | draw | month | auto precision / recall · bound | review top 3 · bound | unpaid found, false · bound | unreported found in list · bound | goals missed |',
  '|---|---|---|---|---|---|---|---|---|',
].join('\n');

export function formatMarkdownRow(r: MonthReport): string {
  const m = r.matcher;
  const b = r.bound;
  const missed = missedGoals(r);
  return `| ${r.half} | ${GENERATOR_LABEL[r.generator]} | ${r.draw} | ${r.name} | ${pc(m.precision)} / ${pc(m.recall)} · ${pc(b.recall)} | ${pc(m.reviewTop3)} · ${pc(b.reviewTop3)} | ${m.unpaidFound}/${m.unpaidTrue}, ${pc(m.falseUnpaid)} · ${pc(b.unpaid)} | ${m.unreportedFound}/${m.unreportedTrue} in ${m.unreportedListed} · ${pc(b.unreported)} | ${missed.length ? missed.join('; ') : 'none'} |`;
}

/**
 * The whole sweep: every month analysed as the product does and knowing its habits, thresholds
 * chosen on the calibration half (all draws), every month judged against its bound.
 */
export function runSweep(opts: { quick?: boolean; only?: GeneratorName; draws?: number } = {}) {
  const months = sweepMonths(opts);
  const calibrated = (knowing: boolean) => {
    const analysed = months.map((m) => analyseMonth(m, knowing));
    return { analysed, th: chooseThresholds(analysed.filter((a) => a.month.half === 'calibration')) };
  };
  const product = calibrated(false);
  const known = calibrated(true);
  const reports = product.analysed.map((a, i) => judge(a, product.th, boundOf(known.analysed[i], known.th.matcher)));
  return { th: product.th, boundTh: known.th, reports };
}

/** `node build/bench/reconcile-sweep.js [--quick] [--draws N] [--ours|--other|--third] [--markdown]`: the sweep on its own (--markdown: the README's table). */
if (process.argv[1]?.endsWith('reconcile-sweep.js')) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
  const only = GENERATORS.find((g) => process.argv.includes(`--${g}`));
  const draws = process.argv.includes('--draws') ? Number(arg('--draws')) : 1;
  const { th, boundTh, reports } = runSweep({ quick: process.argv.includes('--quick'), only, draws });
  console.log(`thresholds chosen on the calibration half: ${JSON.stringify(th)} (product defaults ${JSON.stringify(DEFAULT_THRESHOLDS)}); for the bound: ${JSON.stringify(boundTh)}`);
  if (process.argv.includes('--markdown')) console.log(`${MARKDOWN_HEADER}\n${reports.map(formatMarkdownRow).join('\n')}`);
  else for (const r of reports) console.log(formatRow(r));
}
