/**
 * How many unpaid reports could any matcher find? Per sweep month, the
 * true unpaid reports that have a twin credit: a credit nobody reported, of the same store (when
 * the line has one) and amount, whose time after the report falls inside the middle 90% of the
 * month's own true pairs' gaps, and whose visible digits do not disagree with the last five. Such a
 * report and its twin look exactly like a paid report and its credit (the month has some fifty paid
 * reports for each unpaid one), so a list that holds it holds its paid look-alikes too.
 * `node build/bench/reconcile-unpaid-twins.js`
 */
import { compareDigits } from '../core/reconcile/evidence.js';
import { FINDABLE } from './reconcile-data.js';
import { sweepMonths } from './reconcile-sweep.js';

const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.floor(p * (xs.length - 1))))];
for (const m of sweepMonths()) {
  const t = m.truth;
  const lineOf = new Map(t.lines.map((l) => [l.id, l]));
  const gaps = t.reports
    .filter((r) => t.pair.has(r.uuid))
    .map((r) => lineOf.get(t.pair.get(r.uuid)!)!.at - r.paid_at)
    .sort((a, b) => a - b);
  const lo = q(gaps, 0.05);
  const hi = q(gaps, 0.95);
  const byAmount = new Map<number, typeof t.lines>();
  for (const l of t.lines) if (t.unreported.has(l.id)) byAmount.set(l.amount, [...(byAmount.get(l.amount) ?? []), l]);
  const findable = (at: number) => at - FINDABLE.before >= t.coverage.from && at + FINDABLE.after <= t.coverage.to;
  const unpaid = t.reports.filter(
    (r) => r.paid_at >= t.period.from && r.paid_at < t.period.to && t.unpaid.has(r.uuid) && findable(r.paid_at),
  );
  let twinned = 0;
  for (const r of unpaid) {
    const twin = (byAmount.get(r.amount) ?? []).some((l) => {
      const gap = l.at - r.paid_at;
      if (gap < lo || gap > hi) return false;
      if ((l.store_id ?? null) !== null && l.store_id !== r.store_id) return false;
      const v = compareDigits(r.last_five, l.digits).verdict;
      return v === 'equal' || v === 'unknown';
    });
    if (twin) twinned++;
  }
  const h = (ms: number) => (ms / 3_600_000).toFixed(1);
  console.log(
    `${m.half === 'held-out' ? 'H' : 'C'} ${m.generator.padEnd(5)} ${m.name}: unpaid ${unpaid.length}, with a twin credit ${twinned}; at most ${((100 * (unpaid.length - twinned)) / Math.max(1, unpaid.length)).toFixed(1)}% findable (pairs' gaps ${h(lo)} h to ${h(hi)} h)`,
  );
}
