/**
 * The floor the matcher must beat (issue 21): a plain greedy with fixed weights, as anyone would
 * write it in an afternoon. Every pair of equal amount inside the window gets a score (digits
 * equal +4, a possible typo −1, different −6; minus the hours apart, softened), the best pairs are
 * taken first, one line per report; a pair is automatic when its score reaches a threshold the
 * sweep chooses on its calibration half, like the matcher's. What it leaves is unpaid and
 * unreported.
 */
import { compareDigits } from '../core/reconcile/evidence.js';
import type { ReconcileLine, ReconcileReport } from '../core/reconcile/types.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface GreedyPair {
  payment: string;
  line: number;
  score: number;
  digits: string;
}

export function greedy(reports: ReconcileReport[], lines: ReconcileLine[], before = DAY, after = 3 * DAY) {
  const byAmount = new Map<number, ReconcileLine[]>();
  for (const l of lines) if (l.amount > 0) (byAmount.get(l.amount) ?? byAmount.set(l.amount, []).get(l.amount)!).push(l);
  const pairs: GreedyPair[] = [];
  for (const r of reports) {
    for (const l of byAmount.get(r.amount) ?? []) {
      if (l.store_id != null && l.store_id !== r.store_id) continue;
      const gap = l.at - r.paid_at;
      if (gap < -before || gap > after) continue;
      const v = compareDigits(r.last_five, l.digits).verdict;
      const digits = v === 'equal' ? 4 : v === 'typo' ? -1 : v === 'different' ? -6 : 0;
      pairs.push({ payment: r.uuid, line: l.id, score: digits - Math.log2(1 + Math.abs(gap) / HOUR), digits: v });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const usedR = new Set<string>();
  const usedL = new Set<number>();
  const taken: GreedyPair[] = [];
  for (const p of pairs) {
    if (usedR.has(p.payment) || usedL.has(p.line)) continue;
    usedR.add(p.payment);
    usedL.add(p.line);
    taken.push(p);
  }
  return { taken, usedR, usedL };
}

/** The greedy's queues at an automatic threshold, in the matcher's result shape (what the bench scores). */
export function greedyResult(g: ReturnType<typeof greedy>, reports: ReconcileReport[], lines: ReconcileLine[], threshold: number) {
  return {
    auto: g.taken.filter((p) => p.score >= threshold && p.digits !== 'different' && p.digits !== 'typo'),
    review: [],
    unpaid: reports.filter((r) => !g.usedR.has(r.uuid)).map((r) => ({ payment: r.uuid })),
    unreported: lines.filter((l) => l.amount > 0 && !g.usedL.has(l.id)).map((l) => ({ line: l.id })),
    suggestions: [],
  };
}
