import { ValidationError } from '../errors.js';
import { filterIds } from '../list.js';
import { MSG } from '../messages.js';
import { scopedStoreIds } from '../permissions.js';
import { emptyStoreStats, summarize } from '../stats.js';
import { STATUS_CREDITED, STATUS_FAILED, STATUS_PENDING } from '../statuses.js';
import { dayRangeToInstants } from '../time.js';
import type { StatsSummary } from '../types.js';
import type { ServiceContext } from './context.js';
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
  const stores = scopedStoreIds(ctx.actor, filterIds({ store_id: params.store_id }, 'store_id'));
  for (const key of ['from', 'to'] as const) {
    const v = params[key];
    if (v !== undefined && v !== null && typeof v !== 'string') throw ValidationError.single(key, MSG.badDate(String(v)));
  }
  const range = dayRangeToInstants((params.from as string) || null, (params.to as string) || null);
  if (range.error !== undefined) throw ValidationError.single(range.errorAt ?? 'from', MSG.badDate(range.error));

  const storeRows = (await ctx.db('stores')
    .select('id', 'name', 'code')
    .modify((q) => stores !== 'all' && q.whereIn('id', stores))
    .orderBy('id')) as Array<{ id: number; name: string; code: string }>;

  const agg = (await ctx.db('payments')
    .select('store_id')
    .count({ total_payments: '*' })
    .sum({ total_amount: 'amount' })
    .select(
      ctx.db.raw('sum(case when status = ? then 1 else 0 end) as confirmed_payments', [STATUS_CREDITED]),
      ctx.db.raw('sum(case when status = ? then 1 else 0 end) as pending_payments', [STATUS_PENDING]),
      ctx.db.raw('sum(case when status = ? then 1 else 0 end) as failed_payments', [STATUS_FAILED]),
    )
    .modify((q) => {
      if (stores !== 'all') q.whereIn('store_id', stores);
      if (range.gte !== undefined) q.where('paid_at', '>=', range.gte);
      if (range.lt !== undefined) q.where('paid_at', '<', range.lt);
    })
    .groupBy('store_id')) as Array<Record<string, number | string | null>>;

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
