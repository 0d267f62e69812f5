/** The dashboard's shape (spec section 3): per-store counts by status and the totals over them. */
import type { MethodTotals, StatsSummary, StoreStats } from '../types.js';
import { PAYMENT_METHODS } from '../paymentMethods.js';

/** Every method at zero. */
export function emptyMethodTotals(): MethodTotals {
  return Object.fromEntries(PAYMENT_METHODS.map((m) => [m, { count: 0, amount: 0 }])) as MethodTotals;
}

function addMethodTotals(rows: MethodTotals[]): MethodTotals {
  const out = emptyMethodTotals();
  for (const r of rows)
    for (const m of PAYMENT_METHODS) {
      out[m].count += r[m].count;
      out[m].amount += r[m].amount;
    }
  return out;
}

export function emptyStoreStats(store: { id: number; name: string; code: string }): StoreStats {
  return {
    store_id: store.id,
    store_name: store.name,
    store_code: store.code,
    total_payments: 0,
    total_amount: 0,
    confirmed_payments: 0,
    pending_payments: 0,
    failed_payments: 0,
    by_method: emptyMethodTotals(),
  };
}

/** Totals over per-store rows, optionally narrowed to one store (the store switcher). */
export function summarize(storeStats: StoreStats[], storeId?: number | null): StatsSummary {
  const rows = storeId == null ? storeStats : storeStats.filter((s) => s.store_id === storeId);
  return {
    totalStores: rows.length,
    totalPayments: rows.reduce((n, s) => n + s.total_payments, 0),
    totalAmount: rows.reduce((n, s) => n + s.total_amount, 0),
    confirmedPayments: rows.reduce((n, s) => n + s.confirmed_payments, 0),
    byMethod: addMethodTotals(rows.map((s) => s.by_method)),
    storeStats: rows,
  };
}

/** The dashboard's charts: NT$ per store and status, and NT$ per store and Taiwan day. */
export interface StatsCharts {
  /** the days charted, Taiwan dates, inclusive */
  from: string;
  to: string;
  days: string[];
  stores: Array<{
    store_id: number;
    store_name: string;
    store_code: string;
    pending_amount: number;
    confirmed_amount: number;
    failed_amount: number;
  }>;
  /** for each store, its amount on each of `days` (0 when nothing was paid) */
  daily: Array<{ store_id: number; amounts: number[] }>;
}

/** Longest range a daily chart draws; with no range chosen, the last 30 days up to today. */
export const CHART_MAX_DAYS = 366;
export const CHART_DEFAULT_DAYS = 30;

/** Every Taiwan date from `from` to `to`, inclusive (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string, addDays: (date: string, n: number) => string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to && out.length <= CHART_MAX_DAYS; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Per-store series over `days` from (store, day, amount) rows; days without payments are 0. */
export function dailySeries(
  storeIds: number[],
  days: string[],
  rows: Array<{ store_id: number; day: string; amount: number }>,
): StatsCharts['daily'] {
  const index = new Map(days.map((d, i) => [d, i]));
  const byStore = new Map(storeIds.map((id) => [id, days.map(() => 0)]));
  for (const r of rows) {
    const i = index.get(r.day);
    const series = byStore.get(r.store_id);
    if (i !== undefined && series) series[i] += r.amount;
  }
  return storeIds.map((store_id) => ({ store_id, amounts: byStore.get(store_id)! }));
}
