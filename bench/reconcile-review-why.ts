/**
 * What review's wrong first choices have in common, on every month of the sweep
 * (for study: the held-out half is read, never tuned on): `node build/bench/reconcile-review-why.js
 * [--quick] [--ours|--other]`. For each report left to review whose true line is not ranked first
 * it classes the first line by what the truth says it is (another report's true line, of the same
 * customer's last five or not; an unreported credit; a part of a split or combined payment), the
 * digits both lines show, whether the true line is date-only, which is closer in time; and whether
 * the matcher knowing the month's habits exactly (the oracle) ranks it first.
 */
import { decide, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { sweepMonths } from './reconcile-sweep.js';
import { analyseTruth } from './reconcile-oracle.js';

const quick = process.argv.includes('--quick');
const only = process.argv.includes('--ours') ? 'ours' : process.argv.includes('--other') ? 'other' : undefined;
const pc = (x: number, n: number) => `${n ? ((100 * x) / n).toFixed(1) : '-'}%`;
for (const m of sweepMonths({ quick, only })) {
  const t = m.truth;
  const res = decide(analyseTruth(t, false), DEFAULT_THRESHOLDS);
  const ores = decide(analyseTruth(t, true), DEFAULT_THRESHOLDS);
  const oFirst = new Map(ores.review.map((x) => [x.payment, x.candidates[0]?.line]));
  const oAuto = new Map(ores.auto.map((x) => [x.payment, x.line]));
  const lineOf = new Map(t.lines.map((l) => [l.id, l]));
  const reportOf = new Map(t.reports.map((r) => [r.uuid, r]));
  const payerOfLine = new Map<number, string>();
  for (const [u, id] of t.pair) payerOfLine.set(id, u);
  const groupLine = new Set(t.groups.flatMap((g) => g.lines));
  const autoSet = new Set(res.auto.map((x) => x.payment));
  const kinds = new Map<string, { n: number; oracleRight: number }>();
  let remaining = 0;
  let misses = 0;
  let oracleRightOnMisses = 0;
  let oracleWrongOnHits = 0;
  for (const rv of res.review) {
    const id = t.pair.get(rv.payment);
    if (id === undefined || autoSet.has(rv.payment)) continue;
    remaining++;
    const r = reportOf.get(rv.payment)!;
    const oRight = oFirst.get(rv.payment) === id || oAuto.get(rv.payment) === id;
    const top = rv.candidates[0]?.line;
    if (top === id) {
      if (!oRight) oracleWrongOnHits++;
      continue;
    }
    misses++;
    if (oRight) oracleRightOnMisses++;
    const lt = lineOf.get(id)!;
    const lf = top === undefined ? undefined : lineOf.get(top)!;
    let what = 'none';
    if (lf) {
      const other = payerOfLine.get(lf.id);
      if (other)
        what =
          reportOf.get(other)?.last_five === r.last_five
            ? "same last five's other payment"
            : "another customer's payment";
      else if (groupLine.has(lf.id)) what = 'part of a split/combined payment';
      else if (t.unreported.has(lf.id)) what = 'an unreported credit';
      else what = 'a credit of a report outside the data';
    }
    const dg = (d: string) => (d.length === 0 ? 'none' : d.length < 5 ? 'masked' : 'whole');
    const digits = lf ? `true ${dg(lt.digits)} / first ${dg(lf.digits)}` : '';
    const closer = lf
      ? Math.abs(lf.at - r.paid_at) < Math.abs(lt.at - r.paid_at)
        ? 'first closer'
        : 'true closer'
      : '';
    const key = `${what}; ${digits}; ${lt.hasTime ? 'timed' : 'date-only'}; ${closer}`;
    const k = kinds.get(key) ?? { n: 0, oracleRight: 0 };
    k.n++;
    if (oRight) k.oracleRight++;
    kinds.set(key, k);
  }
  console.log(
    `\n== ${m.half} ${m.generator} ${m.name}: review first ${pc(remaining - misses, remaining)} of ${remaining}; ${misses} misses, the oracle right on ${oracleRightOnMisses} of them and wrong on ${oracleWrongOnHits} the matcher got right`,
  );
  for (const [k, v] of [...kinds].sort((a, b) => b[1].n - a[1].n))
    console.log(`  ${String(v.n).padStart(4)} (oracle right ${v.oracleRight})  ${k}`);
}
