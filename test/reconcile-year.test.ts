/**
 * Reconciliation at the scale of a year: 18 000 reports against 18 000 lines, each
 * paired with its own line. A few seconds of matching, so it runs with the integration tests;
 * the bench measures its time and memory.
 */
import { describe, expect, it } from 'vitest';
import { matchReconcile } from '../core/reconcile/match.js';
import type { ReconcileLine, ReconcileReport } from '../core/reconcile/types.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const tw = (s: string) => Date.parse(`${s}+08:00`);

describe('matchReconcile over a year', () => {
  it('reconciles a year of reports (18 000) and pairs them right', () => {
    const prices = [500, 800, 1000, 1200, 1500, 2000];
    const reports: ReconcileReport[] = [];
    const lines: ReconcileLine[] = [];
    const start = tw('2026-01-01T09:00:00');
    for (let k = 0; k < 18_000; k++) {
      const at = start + Math.floor((k * 365 * DAY) / 18_000);
      const five = String(10000 + ((k * 7919) % 90000));
      reports.push({
        uuid: `y${k}`,
        store_id: 1,
        last_five: five,
        paid_at: at,
        amount: prices[k % prices.length],
        note: '',
      });
      lines.push({
        id: k,
        at: at + ((k * 37) % 120) * MIN,
        hasTime: true,
        amount: prices[k % prices.length],
        digits: five,
        summary: '',
        note: '',
      });
    }
    const res = matchReconcile(reports, lines); // the bench measures its time and memory
    expect(res.auto.length).toBeGreaterThan(17_000);
    expect(res.auto.every((a) => a.payment === `y${a.line}`)).toBe(true);
  });
});
