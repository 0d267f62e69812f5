/**
 * Proof on many months, not one. A sweep of months across the habits of bench/reconcile-knobs.ts,
 * extremes included, each setting written by three generators, several draws each. The months
 * fall in two halves: the matcher's thresholds are chosen on the calibration half, and every goal
 * is judged on each held-out month against its bound, what the matcher could do knowing the
 * month's habits (bench/reconcile-oracle.ts).
 */
import { decide, DEFAULT_THRESHOLDS, type Analysis, type Thresholds } from '../core/reconcile/match.js';
import { compareDigits } from '../core/reconcile/evidence.js';
import { generate, score, type Score, type Truth } from './reconcile-data.js';
import type { ReconcileLine } from '../core/reconcile/types.js';
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
  {
    name: 'other habits (the issue’s second month)',
    knobs: {
      amountDiversity: 8,
      regularShare: 0.35,
      masking: { whole: 0.3, masked: 0.5, none: 0.2 },
      bookingDelay: 1.6,
    },
  },
  { name: 'busy and crowded', knobs: { perDay: 120, amountDiversity: 10, stores: 3 } },
];

/**
 * Three generators: ours (bench/reconcile-data.ts); B, written apart from the matcher
 * (bench/reconcile-gen-b.ts); and C, written from the issue's brief alone by someone who had read
 * neither the matcher nor the other two (bench/reconcile-gen-c.ts). B and C write files, read by
 * the product's own statement reader.
 */
export const GENERATORS = ['ours', 'other', 'third'] as const;
export type GeneratorName = (typeof GENERATORS)[number];
export const GENERATOR_LABEL: Record<GeneratorName, string> = {
  ours: 'our generator',
  other: 'generator B',
  third: 'generator C',
};

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

export interface SweepOptions {
  quick?: boolean;
  only?: GeneratorName;
  /** how many draws (1: the sweep itself) */
  draws?: number;
  half?: SweepMonth['half'];
}

/**
 * Every setting by every generator, `draws` times (draw 0 first), each month written when asked
 * for (a month's analysis is tens of megabytes: the sweep holds one at a time). Which half a month
 * lands in alternates by setting and generator.
 */
export function* eachSweepMonth(opts: SweepOptions = {}): Generator<SweepMonth> {
  for (let draw = 0; draw < (opts.draws ?? 1); draw++)
    for (const [i, s] of SETTINGS.entries()) {
      const knobs = opts.quick
        ? { ...s.knobs, perDay: Math.round((s.knobs.perDay ?? DEFAULT_KNOBS.perDay) / 4) }
        : s.knobs;
      for (const [g, generator] of GENERATORS.entries()) {
        const half = (i + g) % 2 === 0 ? 'calibration' : 'held-out';
        if ((opts.only && opts.only !== generator) || (opts.half && opts.half !== half)) continue;
        const seed = 7919 * (i + 1) + g + 1 + 1_000_003 * draw;
        yield { name: s.name, generator, half, draw, knobs, truth: { ...write(generator, knobs, seed), name: s.name } };
      }
    }
}

export const sweepMonths = (opts: SweepOptions = {}): SweepMonth[] => [...eachSweepMonth(opts)];

export interface Analysed {
  month: SweepMonth;
  analysis: Analysis;
  ms: number;
}

/** `knowing`: the matcher as if it knew the month's habits (bench/reconcile-oracle.ts): the bound. */
export function analyseMonth(month: SweepMonth, knowing = false): Analysed {
  const t = month.truth;
  const t0 = performance.now();
  const analysis = analyseTruth(t, knowing);
  const ms = performance.now() - t0;
  return { month, analysis, ms };
}

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, k) => from + k * step);
const MARGINS = range(0, 15, 0.25);
/** unpaid and unreported thresholds tried, the largest (the most listed) first */
const THRESHOLDS = range(-15, 0, 0.25).reverse();

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
 * What choosing the thresholds needs of a calibration month, small enough to keep for many months
 * (an analysis is tens of megabytes): the pairs decide() may confirm, and each report it would
 * list as unpaid at any threshold with the log odds that lists it. Which reports are unpaid does
 * not depend on the automatic margins (a report paired by the assignment is never unpaid).
 */
interface Calibration {
  pairs: ReturnType<typeof automaticPairs>;
  /** per report listable as unpaid: its log odds of being paid, and whether it was paid after all */
  unpaid: Array<{ w: number; paid: boolean }>;
  reports: number;
}

function calibrationOf(a: Analysed): Calibration {
  const t = a.month.truth;
  const listed = decide(a.analysis, { ...DEFAULT_THRESHOLDS, unpaid: Infinity }).unpaid;
  const index = new Map(a.analysis.reports.map((r, ri) => [r.uuid, ri]));
  const asked = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to).length;
  return {
    pairs: automaticPairs(a),
    unpaid: listed.map((u) => ({
      w: a.analysis.paid[index.get(u.payment)!],
      paid: t.paid.has(u.payment) && !t.amountTypos?.has(u.payment),
    })),
    reports: asked,
  };
}

/**
 * The thresholds, chosen on the calibration months: the two automatic margins (digits that agree,
 * no digits) with the most recall that keeps every month's automatic precision at 99.7% or more
 * (a margin above the goal's 99.5%); the largest unpaid threshold that keeps false unpaid at 0.4%
 * of reports on every month; then, with those margins, the largest unreported threshold that keeps
 * every month's list within 1.4 times the true count. `months` is read twice (each month is
 * analysed again for the unreported threshold, at the margins chosen).
 */
export function chooseThresholds(months: () => Iterable<Analysed>): Thresholds {
  const cal = [...months()].map(calibrationOf);
  let auto = 30;
  let autoNoDigits = 30;
  let most = -1;
  for (const m of MARGINS)
    for (const n of MARGINS) {
      const scores = cal.map((c) => atMargins(c.pairs, m, n));
      if (scores.some((x) => x.precision < 0.997)) continue;
      const recall = scores.reduce((s, x) => s + x.recall, 0);
      if (recall > most + 1e-9) [most, auto, autoNoDigits] = [recall, m, n];
    }
  const falseAt = (c: Calibration, u: number) =>
    c.unpaid.filter((x) => x.paid && x.w < u).length / Math.max(1, c.reports);
  const unpaid = THRESHOLDS.find((u) => cal.every((c) => falseAt(c, u) <= 0.004)) ?? -15;
  // (a credit left alone has log odds ≤ 0 that some report's payment it is: 0 lists them all)
  const listedAt = [...months()].map((a) => {
    const s = (v: number) => score(a.month.truth, decide(a.analysis, { auto, autoNoDigits, unpaid, unreported: v }));
    return THRESHOLDS.map((v) => {
      const x = s(v);
      return x.unreportedListed <= 1.4 * Math.max(1, x.unreportedTrue);
    });
  });
  const unreported = THRESHOLDS.find((_, k) => listedAt.every((ok) => ok[k])) ?? -15;
  return { auto, autoNoDigits, unpaid, unreported };
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
  return {
    recall: s.recall,
    reviewFirst: s.reviewFirst,
    reviewTop3: s.reviewTop3,
    unpaid: found(s.unpaidFound, s.unpaidTrue),
    unreported: found(s.unreportedFound, s.unreportedTrue),
  };
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
  /**
   * the most an automatic rule may confirm: the share of the month's true pairs whose line is a
   * candidate, whose visible digits do not disagree with the last five (a pair whose digits
   * disagree is never automatic) and that has no look-alike credit among the report's candidates
   */
  ceiling: number;
  goals: Record<string, boolean>;
}

const lineKey = (l: ReconcileLine) =>
  JSON.stringify([
    l.amount,
    l.source ?? l.store_id ?? null,
    l.at,
    l.hasTime,
    l.digits,
    l.payer ?? '',
    l.summary,
    l.note,
  ]);
export function judge(a: Analysed, th: Thresholds, bound: Bound): MonthReport {
  const t = a.month.truth;
  const decided = decide(a.analysis, th);
  const m = score(t, decided);
  const inPeriod = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
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
    return (
      cands.some((c) => al[c.line].id === l.id) && cands.filter((c) => lineKey(al[c.line]) === lineKey(l)).length === 1
    );
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
    ceiling,
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
  return Object.entries(r.goals)
    .filter(([, ok]) => !ok)
    .map(([g]) => g);
}

export function formatRow(r: MonthReport): string {
  const m = r.matcher;
  const b = r.bound;
  const missed = missedGoals(r);
  const unpaid = share(m.unpaidFound, m.unpaidTrue);
  const unreported = share(m.unreportedFound, m.unreportedTrue);
  return [
    `${r.half === 'held-out' ? 'H' : 'C'} ${r.generator.padEnd(5)} #${r.draw} ${r.name}`,
    `auto ${pc(m.precision)} / ${pc(m.recall)} (bound ${pc(b.recall)}, ${pts(m.recall, b.recall)}; ceiling ${pc(r.ceiling)})`,
    `review first ${pc(m.reviewFirst)} top3 ${pc(m.reviewTop3)} (bound ${pc(b.reviewTop3)}, ${pts(m.reviewTop3, b.reviewTop3)})`,
    `unpaid ${m.unpaidFound}/${m.unpaidTrue} false ${pc(m.falseUnpaid)} (bound ${pc(b.unpaid)}, ${pts(unpaid, b.unpaid)})`,
    `unreported ${m.unreportedFound}/${m.unreportedTrue} in ${m.unreportedListed} (bound ${pc(b.unreported)}, ${pts(unreported, b.unreported)})`,
    `${r.ms.toFixed(0)} ms`,
    missed.length ? `MISSED: ${missed.join('; ')}` : 'all goals',
  ].join(' | ');
}

/**
 * The table in docs/performance.md: one row per held-out setting and generator, each figure the worst of its
 * draws (precision, and the distance from the bound in points) beside the range of its bound.
 */
export function markdownTable(reports: MonthReport[]): string {
  const groups = new Map<string, MonthReport[]>();
  for (const r of reports)
    groups.set(`${r.name}|${r.generator}`, [...(groups.get(`${r.name}|${r.generator}`) ?? []), r]);
  const rows = [...groups.values()].map((rs) => {
    const worst = (f: (r: MonthReport) => number) => Math.min(...rs.map(f));
    const most = (f: (r: MonthReport) => number) => Math.max(...rs.map(f));
    const span = (f: (r: MonthReport) => number) => `${pc(worst(f))}–${pc(most(f))}`;
    const gap = (f: (r: MonthReport) => number, b: (r: MonthReport) => number) => {
      const d = worst((r) => f(r) - b(r));
      return `${d >= 0 ? '+' : '−'}${Math.abs(100 * d).toFixed(1)}`;
    };
    const unpaid = (r: MonthReport) => share(r.matcher.unpaidFound, r.matcher.unpaidTrue);
    const unreported = (r: MonthReport) => share(r.matcher.unreportedFound, r.matcher.unreportedTrue);
    const missed = [...new Set(rs.flatMap(missedGoals))];
    const met = rs.filter((r) => missedGoals(r).length === 0).length;
    return `| ${rs[0].name} | ${GENERATOR_LABEL[rs[0].generator]} | ${pc(worst((r) => r.matcher.precision))} | ${span((r) => r.matcher.recall)} · ${span((r) => r.bound.recall)} · ${gap(
      (r) => r.matcher.recall,
      (r) => r.bound.recall,
    )} | ${gap(
      (r) => r.matcher.reviewTop3,
      (r) => r.bound.reviewTop3,
    )} | ${span(unpaid)} · ${span((r) => r.bound.unpaid)} · ${gap(unpaid, (r) => r.bound.unpaid)}, false ≤ ${pc(most((r) => r.matcher.falseUnpaid))} | ${span(unreported)}, list ≤ ${most((r) => r.matcher.unreportedListed / Math.max(1, r.matcher.unreportedTrue)).toFixed(2)}x | ${met}/${rs.length}${missed.length ? `: ${missed.join('; ')}` : ''} |`;
  });
  return [
    '| month | generator | auto precision (worst) | auto recall · bound · worst distance | review top 3, worst distance | unpaid found · bound · worst distance, false | unreported found, list | draws meeting every goal |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** the draws whose calibration half the thresholds are chosen on */
const CALIBRATION_DRAWS = 2;

/**
 * The whole sweep: thresholds chosen on the calibration half of the first draws, as the product's
 * and, each month analysed knowing its habits, for the bound; then every held-out month of every
 * draw judged against its bound, one month at a time (`each` sees each as it is judged).
 */
export function runSweep(opts: SweepOptions = {}, each: (r: MonthReport) => void = () => {}) {
  const calibration = sweepMonths({ ...opts, draws: CALIBRATION_DRAWS, half: 'calibration' });
  const analysed = (knowing: boolean) => () => calibration.map((m) => analyseMonth(m, knowing));
  const th = chooseThresholds(analysed(false));
  const boundTh = chooseThresholds(analysed(true));
  const reports: MonthReport[] = [];
  for (const m of eachSweepMonth({ ...opts, half: 'held-out' })) {
    const r = judge(analyseMonth(m), th, boundOf(analyseMonth(m, true), boundTh));
    each(r);
    reports.push(r);
  }
  return { th, boundTh, reports };
}

/** `node build/bench/reconcile-sweep.js [--quick] [--draws N] [--ours|--other|--third] [--markdown]`: the sweep on its own, a line per held-out month (--markdown: docs/performance.md's table instead). */
if (process.argv[1]?.endsWith('reconcile-sweep.js')) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
  const only = GENERATORS.find((g) => process.argv.includes(`--${g}`));
  const draws = process.argv.includes('--draws') ? Number(arg('--draws')) : 1;
  const markdown = process.argv.includes('--markdown');
  const { th, boundTh, reports } = runSweep(
    { quick: process.argv.includes('--quick'), only, draws },
    (r) => markdown || console.log(formatRow(r)),
  );
  if (markdown) console.log(markdownTable(reports));
  console.log(
    `thresholds chosen on the calibration half: ${JSON.stringify(th)} (product defaults ${JSON.stringify(DEFAULT_THRESHOLDS)}); for the bound: ${JSON.stringify(boundTh)}`,
  );
}
