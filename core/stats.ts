/** The dashboard's shape (spec section 3): per-store counts by status and the totals over them. */
import type { StatsSummary, StoreStats } from './types.js';

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
    storeStats: rows,
  };
}
