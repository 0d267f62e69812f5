/**
 * Is a held-out month's miss that month's bad luck, or the setting's? (issue 21, sixth pass)
 * `node dist/bench/reconcile-draws.js [--draws N] [--bounds] [--sweeps N]` writes every setting of
 * the sweep again with new seeds (draws 1..N; draw 0 is the sweep itself), matches each held-out
 * month at the product's thresholds (those the sweep chose), and prints per setting how many draws
 * meet each goal the setting missed in the sweep, with the figures' spread. With `--bounds`, also
 * the most any scoring of pairs could give there (bench/reconcile-bounds.ts: exact marginals with
 * the habits known, the unpaid threshold best for each month): unpaid found and review first.
 * With `--margins`, instead: the sweep's held-out months at automatic margins from the chosen ones
 * up to 30 nats, automatic recall and review first at each (review first is counted over the true
 * pairs left to review, so higher margins move easy pairs into it).
 */
import { analyse, decide, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { score } from './reconcile-data.js';
import { analyseMonth, judge, sweepMonths, type MonthReport } from './reconcile-sweep.js';
import { exactMarginals, reviewByMarginals, unpaidAtBest } from './reconcile-bounds.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const draws = arg('--draws', 4);
const sweeps = arg('--sweeps', 1000);
const bounds = process.argv.includes('--bounds');
const pc = (x: number) => `${(x * 100).toFixed(1)}`;
/** the greedy floor's threshold as the sweep chose it (only its goal uses it) */
const GREEDY = 2.75;

interface Row {
  report: MonthReport;
  bound?: { unpaid: number; unpaidOf: number; reviewFirst: number };
}
if (process.argv.includes('--margins')) {
  const months = sweepMonths().filter((m) => m.half === 'held-out').map((m) => analyseMonth(m));
  console.log(`held-out months at automatic margins (digits agree / no digits): recall · review first`);
  for (const [auto, autoNoDigits] of [[DEFAULT_THRESHOLDS.auto, DEFAULT_THRESHOLDS.autoNoDigits], [7, 5], [9, 7], [12, 10], [15, 15], [30, 30]]) {
    const row = months.map((a) => {
      const s = score(a.month.truth, decide(a.analysis, { ...DEFAULT_THRESHOLDS, auto, autoNoDigits }));
      return `${a.month.generator} ${a.month.name.split(/[ ,(]/)[0]} ${pc(s.recall)} · ${pc(s.reviewFirst)}`;
    });
    console.log(`${auto}/${autoNoDigits}: ${row.join(' | ')}`);
  }
  process.exit(0);
}
const rows = new Map<string, Row[]>();
for (let d = 0; d <= draws; d++) {
  for (const m of sweepMonths({ draw: d })) {
    if (m.half !== 'held-out') continue;
    const report = judge(analyseMonth(m), { matcher: DEFAULT_THRESHOLDS, greedy: GREEDY });
    const row: Row = { report };
    if (bounds) {
      const t = m.truth;
      const asked = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
      const paidShare = Math.min(0.995, asked.filter((r) => t.pair.has(r.uuid)).length / Math.max(1, asked.length));
      const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover, oracle: { pairs: t.pair, paidShare } });
      const mc = exactMarginals(a, sweeps);
      const u = unpaidAtBest(a, t, (ri) => -mc.unpaid[ri] - (a.ofReport[ri].length === 0 ? 1 : 0));
      row.bound = { unpaid: u.found, unpaidOf: u.of, reviewFirst: reviewByMarginals(a, t, mc).marginal };
    }
    const key = `${m.generator.padEnd(5)} ${m.name}`;
    rows.set(key, [...(rows.get(key) ?? []), row]);
    console.error(`draw ${d} ${key}`);
  }
}
const spread = (xs: number[]) => `${pc(Math.min(...xs))}–${pc(Math.max(...xs))} (mean ${pc(xs.reduce((s, x) => s + x, 0) / xs.length)})`;
const figure: Record<string, (r: Row) => number> = {
  'auto recall ≥ 88%': (r) => r.report.matcher.recall,
  'review first ≥ 95%': (r) => r.report.matcher.reviewFirst,
  'unpaid found ≥ 80%': (r) => r.report.matcher.unpaidFound / Math.max(1, r.report.matcher.unpaidTrue),
  'false unpaid ≤ 0.5%': (r) => r.report.matcher.falseUnpaid,
  'unreported found ≥ 80%': (r) => r.report.matcher.unreportedFound / Math.max(1, r.report.matcher.unreportedTrue),
};
console.log(`${draws + 1} draws of each held-out setting (draw 0 is the sweep's own month), at the product's thresholds`);
for (const [key, list] of rows) {
  const goals = Object.keys(list[0].report.goals);
  const missed = goals.filter((g) => list.some((r) => !r.report.goals[g]));
  const parts = missed.map((g) => `${g}: met on ${list.filter((r) => r.report.goals[g]).length} of ${list.length}${figure[g] ? `, ${spread(list.map(figure[g]))}` : ''}`);
  if (bounds) {
    const b = list.map((r) => r.bound!);
    parts.push(`bound (exact marginals, habits known, best threshold): unpaid ${spread(b.map((x) => x.unpaid / Math.max(1, x.unpaidOf)))}, review first ${spread(b.map((x) => x.reviewFirst))}`);
  }
  console.log(`${key}: ${parts.length ? parts.join('; ') : 'every goal on every draw'}`);
}
