import { filterIds } from '../list.js';
import { scopedStoreIds } from '../permissions.js';
import { emptyStoreStats, summarize } from '../stats.js';
import { STATUS_CREDITED, STATUS_FAILED, STATUS_PENDING } from '../statuses.js';
import type { Knex } from 'knex';
import { instantRange, isWholeDays } from '../dateRange.js';
import { taipeiDayNumber } from '../time.js';
import type { StatsSummary } from '../types.js';
import { readContext, type ServiceContext } from './context.js';
import { requirePermission } from './guard.js';

export interface StatsParams {
  /** one store id or several; absent means every store the caller may see */
  store_id?: unknown;
  /** Taiwan dates, inclusive */
  from?: unknown;
  to?: unknown;
}

/** The dashboard, aggregated in SQL over the caller's stores (view_reports). */
export async function statsSummary(ctx: ServiceContext, params: StatsParams = {}): Promise<StatsSummary> {
  requirePermission(ctx.actor, 'view_reports');
  ctx = readContext(ctx);
  const stores = scopedStoreIds(ctx.actor, filterIds({ store_id: params.store_id }, 'store_id'));
  const range = instantRange(params.from, params.to, { from: 'from', to: 'to' });

  const storeRows = (await ctx.db('stores')
    .select('id', 'name', 'code')
    .modify((q) => stores !== 'all' && q.whereIn('id', stores))
    .orderBy('id')) as Array<{ id: number; name: string; code: string }>;

  const agg = await aggregate(ctx, stores, range, isWholeDays(params.from) && isWholeDays(params.to));
  const byStore = new Map(agg.map((r) => [Number(r.store_id), r]));
  const storeStats = storeRows.map((s) => {
    const base = emptyStoreStats({ id: Number(s.id), name: s.name, code: s.code });
    const r = byStore.get(Number(s.id));
    if (!r) return base;
    return {
      ...base,
      total_payments: Number(r.total_payments ?? 0),
      total_amount: Number(r.total_amount ?? 0),
      confirmed_payments: Number(r.confirmed_payments ?? 0),
      pending_payments: Number(r.pending_payments ?? 0),
      failed_payments: Number(r.failed_payments ?? 0),
    };
  });
  return summarize(storeStats);
}

type Agg = Array<Record<string, number | string | null>>;

/**
 * Per-store counts by status and sums. Whole Taiwan days come from payment_daily (a few rows per
 * store and day, kept by triggers); a range with a time of day is summed from the payments.
 */
async function aggregate(ctx: ServiceContext, stores: number[] | 'all', range: { gte?: number; lt?: number }, wholeDays: boolean): Promise<Agg> {
  const sums = (q: Knex.QueryBuilder, count: string, amount: string) =>
    q
      .select('store_id')
      .select(ctx.db.raw(`sum(${count}) as total_payments`), ctx.db.raw(`sum(${amount}) as total_amount`))
      .select(
        ctx.db.raw(`sum(case when status = ? then ${count} else 0 end) as confirmed_payments`, [STATUS_CREDITED]),
        ctx.db.raw(`sum(case when status = ? then ${count} else 0 end) as pending_payments`, [STATUS_PENDING]),
        ctx.db.raw(`sum(case when status = ? then ${count} else 0 end) as failed_payments`, [STATUS_FAILED]),
      )
      .modify((b) => stores !== 'all' && b.whereIn('store_id', stores))
      .groupBy('store_id');
  if (wholeDays) {
    const q = sums(ctx.db('payment_daily'), 'n', 'amount');
    if (range.gte !== undefined) q.where('day', '>=', taipeiDayNumber(range.gte));
    if (range.lt !== undefined) q.where('day', '<', taipeiDayNumber(range.lt));
    return (await q) as Agg;
  }
  const q = sums(ctx.db('payments'), '1', 'amount');
  if (range.gte !== undefined) q.where('paid_at', '>=', range.gte);
  if (range.lt !== undefined) q.where('paid_at', '<', range.lt);
  return (await q) as Agg;
}
