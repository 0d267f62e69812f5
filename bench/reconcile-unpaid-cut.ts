/**
 * How well unpaid is ranked, month by month: the reports that may be listed (left alone
 * by the assignment, covered, in no group), the surest first, each a letter (U truly unpaid, p paid
 * by a credit of its own, g paid in a split or combined payment, . neither); the cut this very month
 * would need to keep false unpaid within 0.4% of its reports, and what that cut finds. A month whose
 * cut is far from the others' is what one threshold chosen on the calibration half cannot serve;
 * a month that finds little even at its own cut is one the ranking itself fails.
 * `node build/bench/reconcile-unpaid-cut.js [threshold]` (with a threshold: what it finds and how many false).
 */
import { analyse } from '../core/reconcile/match.js';
import { FINDABLE } from './reconcile-data.js';
import { sweepMonths } from './reconcile-sweep.js';
const fixed = Number(process.argv[2] ?? NaN);
for (const m of sweepMonths()) {
  const t = m.truth;
  const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
  const findable = (at: number) => at - FINDABLE.before >= t.coverage.from && at + FINDABLE.after <= t.coverage.to;
  const n = a.reports.filter((_, ri) => a.asked[ri]).length;
  const c: Array<{ w: number; u: boolean; p: boolean; why: string }> = [];
  let unpaidTrue = 0;
  a.reports.forEach((r, ri) => {
    if (!a.asked[ri]) return;
    const u = t.unpaid.has(r.uuid) && findable(r.paid_at);
    if (u) unpaidTrue++;
    if (!a.coverable[ri] || a.suggested.reports.has(ri) || a.groupable.has(ri) || a.partner[ri] >= 0) return;
    const grp = t.groups.some((g) => g.payments.includes(r.uuid));
    c.push({ w: a.paid[ri], u, p: t.paid.has(r.uuid), why: grp ? 'g' : t.pair.has(r.uuid) ? 'p' : '?' });
  });
  c.sort((x, y) => x.w - y.w);
  const budget = Math.floor(0.004 * n);
  let f = 0;
  let found = 0;
  let cut = -Infinity;
  let seq = '';
  for (const x of c) {
    if (x.p && f + 1 > budget) break;
    if (x.p) f++;
    if (x.u) found++;
    cut = x.w;
  }
  for (const x of c.slice(0, 80)) seq += x.u ? 'U' : x.p ? (x.why.toUpperCase() === 'G' ? 'g' : 'p') : '.';
  let at = '';
  if (!Number.isNaN(fixed)) {
    const sel = c.filter((x) => x.w < fixed);
    at = ` | at ${fixed}: ${sel.filter((x) => x.u).length}/${unpaidTrue} false ${sel.filter((x) => x.p).length}`;
  }
  console.log(
    `${m.half[0].toUpperCase()} ${m.generator.padEnd(5)} ${m.name.slice(0, 30).padEnd(30)} budget ${budget} cut ${cut.toFixed(2)} finds ${found}/${unpaidTrue}${at}  ${seq}`,
  );
}
