/**
 * Reconciles a synthetic year in its own process, so its peak memory is its own. Prints
 * `BENCH {"ms":…,"floor":…,"maxRSS":…,…}` on stderr.
 */
import { matchReconcile } from '../core/reconcile/match.js';
import { floorIndex } from './reconcile.js';
import { generate, score } from './reconcile-data.js';

const months = Number(process.argv[2] ?? 12);
const year = generate({ months, seed: 2026 });
const floor = floorIndex(year.lines);
const t0 = performance.now();
const res = matchReconcile(year.reports, year.lines, {
  coverage: year.coverage,
  period: year.period,
  reportsCover: year.reportsCover,
});
const ms = performance.now() - t0;
const s = score(year, res);
process.stderr.write(
  `BENCH ${JSON.stringify({ ms, floor, maxRSS: process.resourceUsage().maxRSS * 1024, reports: s.reports, precision: s.precision, recall: s.recall })}\n`,
);
