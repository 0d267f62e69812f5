/**
 * Proof on many months, not one (issue 21, section 3). A sweep of months across the habits of
 * bench/reconcile-knobs.ts, extremes included, each setting written by both generators: ours
 * (bench/reconcile-data.ts) and one written apart from the matcher (bench/reconcile-gen-b.ts,
 * read through the product's own statement reader). The months fall in two halves: the matcher's
 * thresholds, and the fixed-weight greedy's, are chosen on the calibration half and reported on
 * the held-out half, where the goals are judged.
 */
import { analyse, decide, DEFAULT_THRESHOLDS, type Analysis, type Thresholds } from '../core/reconcile/match.js';
import { compareDigits } from '../core/reconcile/evidence.js';
import { greedy, greedyResult } from './reconcile-greedy.js';
import { FINDABLE, generate, score, type Score, type Truth } from './reconcile-data.js';
import type { ReconcileLine, ReconcileReport } from '../core/reconcile/types.js';
import { DEFAULT_KNOBS, type MonthKnobs } from './reconcile-knobs.js';
import { fileMonth } from './reconcile-files.js';

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

export interface SweepMonth {
  name: string;
  generator: 'ours' | 'other';
  half: 'calibration' | 'held-out';
  knobs: Partial<MonthKnobs>;
  truth: Truth;
}

/** `draw`: 0 is the sweep itself; another number writes every setting again with new seeds (the same halves). */
export function sweepMonths(opts: { quick?: boolean; only?: 'ours' | 'other'; draw?: number } = {}): SweepMonth[] {
  const out: SweepMonth[] = [];
  SETTINGS.forEach((s, i) => {
    const knobs = opts.quick ? { ...s.knobs, perDay: Math.round((s.knobs.perDay ?? DEFAULT_KNOBS.perDay) / 4) } : s.knobs;
    for (const generator of ['ours', 'other'] as const) {
      if (opts.only && opts.only !== generator) continue;
      const half = (i + (generator === 'ours' ? 0 : 1)) % 2 === 0 ? 'calibration' : 'held-out';
      const seed = 7919 * (i + 1) + (generator === 'ours' ? 1 : 2) + 1_000_003 * (opts.draw ?? 0);
      const truth = generator === 'ours' ? generate({ months: 1, seed, knobs }) : fileMonth(knobs, seed);
      out.push({ name: s.name, generator, half, knobs, truth: { ...truth, name: s.name } });
    }
  });
  return out;
}

export interface Analysed {
  month: SweepMonth;
  analysis: Analysis;
  ms: number;
  greedy: ReturnType<typeof greedy>;
}

/**
 * `oracle`: the matcher learns the month's habits from every true pair, with the true paid share
 * (MatchOptions.oracle), as if it knew them exactly: how much better learning could make it.
 */
export function analyseMonth(month: SweepMonth, opts: { oracle?: boolean } | number = {}): Analysed {
  const oracle = typeof opts === 'object' && opts.oracle === true;
  const t = month.truth;
  const asked = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
  const paidShare = Math.min(0.995, asked.filter((r) => t.pair.has(r.uuid)).length / Math.max(1, asked.length));
  const t0 = performance.now();
  const analysis = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover, ...(oracle ? { oracle: { pairs: t.pair, paidShare } } : {}) });
  const ms = performance.now() - t0;
  const inPeriod = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
  return { month, analysis, ms, greedy: greedy(inPeriod, t.lines) };
}

const range = (from: number, to: number, step: number) => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, k) => from + k * step);

/**
 * The thresholds, chosen on the calibration months: the two automatic margins (digits that agree,
 * no digits) with the most recall that keeps every month's automatic precision at 99.7% or more
 * (a margin above the goal's 99.5%); the largest
 * unpaid threshold that keeps false unpaid at 0.4% of reports; the largest unreported threshold
 * that keeps the list within 1.4 times the true count. The greedy's automatic threshold: the least
 * that keeps its precision at 99.7% too.
 */
export function chooseThresholds(calibration: Analysed[]): { matcher: Thresholds; greedy: number } {
  const all = (f: (a: Analysed) => boolean) => calibration.every(f);
  const at = (a: Analysed, t: Partial<Thresholds>) => score(a.month.truth, decide(a.analysis, { ...DEFAULT_THRESHOLDS, ...t }));
  // The two automatic margins together: the most calibration recall at 99.7% precision on every
  // month. What a margin confirms depends only on each assigned pair's regret and digits, so the
  // pairs are read once per month and the grid counts them (as decide() would confirm them).
  const pairsOf = calibration.map((a) => {
    const t = a.month.truth;
    const { reports, lines, partner, regret, asked, ofReport } = a.analysis;
    const list: Array<{ regret: number; digits: boolean; right: boolean }> = [];
    reports.forEach((r, ri) => {
      const li = partner[ri];
      if (!asked[ri] || li < 0) return;
      const d = ofReport[ri].find((c) => c.line === li)!.facts.digits;
      if (d === 'equal' || d === 'unknown') list.push({ regret: regret[ri], digits: d === 'equal', right: t.pair.get(r.uuid) === lines[li].id });
    });
    const truePairs = reports.filter((r, ri) => asked[ri] && t.pair.has(r.uuid)).length;
    return { list, truePairs };
  });
  let auto = 30;
  let autoNoDigits = 30;
  let most = -1;
  for (const m of range(0, 15, 0.25))
    for (const n of range(0, 15, 0.25)) {
      let recall = 0;
      let ok = true;
      for (const { list, truePairs } of pairsOf) {
        let taken = 0;
        let right = 0;
        for (const p of list)
          if (p.regret >= (p.digits ? m : n)) {
            taken++;
            if (p.right) right++;
          }
        if (taken && right / taken < 0.997) ok = false;
        recall += truePairs ? right / truePairs : 1;
      }
      if (ok && recall > most + 1e-9) [most, auto, autoNoDigits] = [recall, m, n];
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

export interface MonthReport {
  name: string;
  generator: string;
  half: string;
  ms: number;
  matcher: Score;
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
  /** the same month matched knowing its habits exactly (--oracle), at thresholds chosen on the oracle's calibration half */
  oracle?: Score;
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

export function judge(a: Analysed, th: { matcher: Thresholds; greedy: number }): MonthReport {
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
  const likeDefault = a.month.name === 'default';
  return {
    name: a.month.name,
    generator: a.month.generator,
    half: a.month.half,
    ms: a.ms,
    matcher: m,
    greedy: g,
    greedyBest: best,
    ceiling,
    ...lookAlikeCeilings(a, decided),
    goals: {
      'auto precision ≥ 99.5%': m.precision >= 0.995,
      'no auto pair with disagreeing digits': m.autoDigitsDisagree === 0,
      'auto recall ≥ greedy + 5 points': m.recall >= g.recall + 0.05,
      ...(likeDefault ? { 'auto recall ≥ 88%': m.recall >= 0.88 } : {}),
      'review first ≥ 95%': m.reviewFirst >= 0.95,
      'unpaid found ≥ 80%': m.unpaidTrue === 0 || m.unpaidFound / m.unpaidTrue >= 0.8,
      'false unpaid ≤ 0.5%': m.falseUnpaid <= 0.005,
      'unreported found ≥ 80%': m.unreportedTrue === 0 || m.unreportedFound / m.unreportedTrue >= 0.8,
      'unreported list ≤ 1.5x': m.unreportedListed <= 1.5 * Math.max(1, m.unreportedTrue),
    },
  };
}

const pc = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatRow(r: MonthReport): string {
  const m = r.matcher;
  const missed = Object.entries(r.goals).filter(([, ok]) => !ok).map(([g]) => g);
  return [
    `${r.half === 'held-out' ? 'H' : 'C'} ${r.generator.padEnd(5)} ${r.name}`,
    `auto ${pc(m.precision)} / ${pc(m.recall)} (greedy ${pc(r.greedy.recall)} at ${pc(r.greedy.precision)}; at its best ${pc(r.greedyBest.recall)}; ceiling ${pc(r.ceiling)})`,
    `review first ${pc(m.reviewFirst)} (ceiling ${pc(r.reviewCeiling)}; ${r.reviewMissesDigitless} of ${r.reviewMisses} misses both digitless) top3 ${pc(m.reviewTop3)}`,
    `unpaid ${m.unpaidFound}/${m.unpaidTrue} (ceiling ${pc(r.unpaidCeiling)}), false ${pc(m.falseUnpaid)}`,
    `unreported ${m.unreportedFound}/${m.unreportedTrue} in ${m.unreportedListed}`,
    `groups suggested ${m.suggestions} (${m.suggestionsRight} exactly right, of ${m.groups})`,
    ...(r.oracle ? [`knowing the habits: ${pc(r.oracle.recall)}, review first ${pc(r.oracle.reviewFirst)}, unpaid ${r.oracle.unpaidFound}/${r.oracle.unpaidTrue} false ${pc(r.oracle.falseUnpaid)}`] : []),
    `${r.ms.toFixed(0)} ms`,
    missed.length ? `MISSED: ${missed.join('; ')}` : 'all goals',
  ].join(' | ');
}

/** The README's month-by-month table: its header, then one row per month. */
export const MARKDOWN_HEADER = [
  '| half | generator | month | auto precision / recall | greedy floor (calibrated) · at its best · ceiling | review first / top 3 · ceiling | unpaid found, false · ceiling | unreported found in list | knowing the habits: recall · review first · unpaid | goals missed |',
  '|---|---|---|---|---|---|---|---|---|---|',
].join('\n');

export function formatMarkdownRow(r: MonthReport): string {
  const m = r.matcher;
  const missed = Object.entries(r.goals).filter(([, ok]) => !ok).map(([g]) => g);
  return `| ${r.half} | ${r.generator} | ${r.name} | ${pc(m.precision)} / ${pc(m.recall)} | ${pc(r.greedy.recall)} · ${pc(r.greedyBest.recall)} · ${pc(r.ceiling)} | ${pc(m.reviewFirst)} / ${pc(m.reviewTop3)} · ${pc(r.reviewCeiling)} | ${m.unpaidFound}/${m.unpaidTrue}, ${pc(m.falseUnpaid)} · ${pc(r.unpaidCeiling)} | ${m.unreportedFound}/${m.unreportedTrue} in ${m.unreportedListed} | ${r.oracle ? `${pc(r.oracle.recall)} · ${pc(r.oracle.reviewFirst)} · ${r.oracle.unpaidFound}/${r.oracle.unpaidTrue}, ${pc(r.oracle.falseUnpaid)}` : '-'} | ${missed.length ? missed.join('; ') : 'none'} |`;
}

/** `node dist/bench/reconcile-sweep.js [--quick] [--ours|--other] [--oracle] [--markdown]`: the sweep on its own (--markdown: the README's table; --oracle: each month again, knowing its habits). */
if (process.argv[1]?.endsWith('reconcile-sweep.js')) {
  const quick = process.argv.includes('--quick');
  const only = process.argv.includes('--ours') ? 'ours' : process.argv.includes('--other') ? 'other' : undefined;
  const months = sweepMonths({ quick, only }).map(analyseMonth);
  const th = chooseThresholds(months.filter((a) => a.month.half === 'calibration'));
  console.log(`thresholds chosen on the calibration half: ${JSON.stringify(th)} (product defaults ${JSON.stringify(DEFAULT_THRESHOLDS)})`);
  const reports = months.map((a) => judge(a, th));
  if (process.argv.includes('--oracle')) {
    // the same months, the habits learned from the truth; thresholds chosen on its own calibration half
    const known = sweepMonths({ quick, only }).map((m) => analyseMonth(m, { oracle: true }));
    const kth = chooseThresholds(known.filter((a) => a.month.half === 'calibration'));
    console.log(`knowing the habits, thresholds chosen on the calibration half: ${JSON.stringify(kth)}`);
    known.forEach((a, i) => (reports[i].oracle = judge(a, kth).matcher));
  }
  if (process.argv.includes('--markdown')) console.log(`${MARKDOWN_HEADER}\n${reports.map(formatMarkdownRow).join('\n')}`);
  else for (const r of reports) console.log(formatRow(r));
}
