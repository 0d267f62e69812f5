/**
 * Why unpaid reports are not listed: per sweep month, the true unpaid reports by
 * what kept them off the list, and the paid reports that compete with them for it.
 * `node build/bench/reconcile-unpaid-diag.js [--verbose]`
 */
import { analyse, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { FINDABLE } from './reconcile-data.js';
import { sweepMonths } from './reconcile-sweep.js';

const verbose = process.argv.includes('--verbose');
for (const m of sweepMonths()) {
  const t = m.truth;
  const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
  const findable = (at: number) => at - FINDABLE.before >= t.coverage.from && at + FINDABLE.after <= t.coverage.to;
  const kinds = new Map<string, number>();
  const bump = (k: string) => kinds.set(k, (kinds.get(k) ?? 0) + 1);
  const up: number[] = [];
  const pp: number[] = [];
  a.reports.forEach((r, ri) => {
    if (!a.asked[ri]) return;
    const unpaid = t.unpaid.has(r.uuid);
    if (unpaid && !findable(r.paid_at)) return;
    const why = !a.coverable[ri]
      ? 'not coverable'
      : a.partner[ri] >= 0
        ? 'assigned'
        : a.suggested.reports.has(ri)
          ? 'suggested'
          : a.groupable.has(ri)
            ? 'groupable: ' + a.groupable.get(ri)
            : a.paid[ri] >= DEFAULT_THRESHOLDS.unpaid
              ? 'paid over threshold'
              : 'listed';
    if (unpaid) {
      bump(why);
      if (why === 'listed' || why === 'paid over threshold') up.push(a.paid[ri]);
      if (why === 'assigned' && verbose) {
        const c = a.ofReport[ri].find((x) => x.line === a.partner[ri])!;
        console.log(
          `  unpaid assigned w=${c.weight.toFixed(2)} lr=${c.lr.toFixed(2)} regret=${a.regret[ri].toFixed(2)} ${c.facts.digits}/${c.facts.visible} cands=${a.ofReport[ri].length}`,
        );
      }
    } else if (
      t.paid.has(r.uuid) &&
      a.coverable[ri] &&
      a.partner[ri] < 0 &&
      !a.suggested.reports.has(ri) &&
      !a.groupable.has(ri)
    )
      pp.push(a.paid[ri]);
  });
  const reports = a.reports.filter((_, ri) => a.asked[ri]).length;
  up.sort((x, y) => x - y);
  pp.sort((x, y) => x - y);
  const f = (xs: number[]) =>
    xs
      .slice(0, 30)
      .map((x) => (x === -Infinity ? '-inf' : x.toFixed(1)))
      .join(' ');
  console.log(
    `${m.half[0].toUpperCase()} ${m.generator} ${m.name}: reports ${reports}, paidShare ${a.model.paidShare.toFixed(3)} ${JSON.stringify(Object.fromEntries(kinds))}`,
  );
  console.log(`   unpaid left: ${f(up)}`);
  console.log(`   paid left:   ${f(pp)}`);
}
