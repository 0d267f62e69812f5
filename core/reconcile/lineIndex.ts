import type { ReconcileLine } from './types.js';

/** Credits (positive lines) of each amount, sorted by time. */
export function indexByAmount(lines: ReconcileLine[]): Map<number, number[]> {
  const byAmount = new Map<number, number[]>();
  lines.forEach((l, k) => {
    if (l.amount <= 0) return;
    const list = byAmount.get(l.amount);
    if (list) list.push(k);
    else byAmount.set(l.amount, [k]);
  });
  for (const list of byAmount.values()) list.sort((a, b) => lines[a].at - lines[b].at);
  return byAmount;
}

/** In `list` (line indexes sorted by time), the first booked at or after `t`. */
export function firstAtOrAfter(list: number[], lines: ReconcileLine[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[list[mid]].at < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
