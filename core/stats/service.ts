import { filterIds } from '../listQuery.js';
import { scopedStoreIds } from '../permissions.js';
import {
  CHART_DEFAULT_DAYS,
  CHART_MAX_DAYS,
  dailySeries,
  daysBetween,
  emptyStoreStats,
  summarize,
  type StatsCharts,
} from './rules.js';
import { ValidationError } from '../errors.js';
import { STATUS_CREDITED, STATUS_FAILED, STATUS_PENDING } from '../paymentStatuses.js';
import type { Knex } from 'knex';
import { instantRange, isWholeDays } from '../dateRange.js';
import { addDays, taipeiDate, taipeiDayNumber, taipeiDayNumberDate, taipeiDayStart } from '../time.js';
import type { MethodTotals, StatsSummary } from '../types.js';
import { PAYMENT_METHODS } from '../paymentMethods.js';
import { readContext, type ServiceContext } from '../context.js';
import { requirePermission } from '../guard.js';
import { paymentSums } from '../db/paymentSums.js';

interface StatsParams {
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

  const storeRows = await storesOf(ctx, stores);

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
      by_method: Object.fromEntries(
        PAYMENT_METHODS.map((m, i) => [
          m,
          { count: Number(r[`m${i}_n`] ?? 0), amount: Number(r[`m${i}_amount`] ?? 0) },
        ]),
      ) as MethodTotals,
    };
  });
  return summarize(storeStats);
}

/** The stores in scope, in id order, that both the summary and the charts list (with none at zero). */
async function storesOf(
  ctx: ServiceContext,
  stores: number[] | 'all',
): Promise<Array<{ id: number; name: string; code: string }>> {
  return (await ctx
    .db('stores')
    .select('id', 'name', 'code')
    .modify((q) => stores !== 'all' && q.whereIn('id', stores))
    .orderBy('id')) as Array<{ id: number; name: string; code: string }>;
}

type Agg = Array<Record<string, number | string | null>>;

// Whole Taiwan days come from the per-day figures, kept by triggers; a range with a time of day, from the payments.
async function aggregate(
  ctx: ServiceContext,
  stores: number[] | 'all',
  range: { gte?: number; lt?: number },
  wholeDays: boolean,
): Promise<Agg> {
  const sums = (q: Knex.QueryBuilder, count: string, amount: string) =>
    q
      .select('store_id')
      .select(ctx.db.raw(`sum(${count}) as total_payments`), ctx.db.raw(`sum(${amount}) as total_amount`))
      .select(
        ctx.db.raw(`sum(case when status = ? then ${count} else 0 end) as confirmed_payments`, [STATUS_CREDITED]),
        ctx.db.raw(`sum(case when status = ? then ${count} else 0 end) as pending_payments`, [STATUS_PENDING]),
        ctx.db.raw(`sum(case when status = ? then ${count} else 0 end) as failed_payments`, [STATUS_FAILED]),
        // takings by method: payment_daily keeps the method, so whole days stay a sum of per-day figures
        ...PAYMENT_METHODS.flatMap((m, i) => [
          ctx.db.raw(`sum(case when method = ? then ${count} else 0 end) as m${i}_n`, [m]),
          ctx.db.raw(`sum(case when method = ? then ${amount} else 0 end) as m${i}_amount`, [m]),
        ]),
      )
      .modify((b) => stores !== 'all' && b.whereIn('store_id', stores))
      .groupBy('store_id');
  if (wholeDays) {
    // whole runs and the days at either end (core/db/paymentSums.ts), folded here
    const rows = await paymentSums(
      ctx.db,
      stores,
      range.gte === undefined ? undefined : taipeiDayNumber(range.gte),
      range.lt === undefined ? undefined : taipeiDayNumber(range.lt) - 1,
    );
    const byStore = new Map<number, Record<string, number>>();
    for (const r of rows) {
      const a = byStore.get(r.store_id) ?? { store_id: r.store_id };
      const add = (k: string, v: number) => (a[k] = (a[k] ?? 0) + v);
      add('total_payments', r.n);
      add('total_amount', r.amount);
      if (r.status === STATUS_CREDITED) add('confirmed_payments', r.n);
      if (r.status === STATUS_PENDING) add('pending_payments', r.n);
      if (r.status === STATUS_FAILED) add('failed_payments', r.n);
      const i = (PAYMENT_METHODS as readonly string[]).indexOf(r.method);
      if (i >= 0) {
        add(`m${i}_n`, r.n);
        add(`m${i}_amount`, r.amount);
      }
      byStore.set(r.store_id, a);
    }
    return [...byStore.values()];
  }
  const q = sums(ctx.db('payments'), '1', 'amount');
  if (range.gte !== undefined) q.where('paid_at', '>=', range.gte);
  if (range.lt !== undefined) q.where('paid_at', '<', range.lt);
  return (await q) as Agg;
}

/** NT$ per store and status, and per store and day, from the per-day table; the last 30 days when none are given. */
export async function statsCharts(ctx: ServiceContext, params: StatsParams = {}): Promise<StatsCharts> {
  requirePermission(ctx.actor, 'view_reports');
  ctx = readContext(ctx);
  const stores = scopedStoreIds(ctx.actor, filterIds({ store_id: params.store_id }, 'store_id'));
  instantRange(params.from, params.to, { from: 'from', to: 'to' }); // the same refusals as the summary
  const today = taipeiDate(Date.now());
  const to = typeof params.to === 'string' && params.to ? params.to.slice(0, 10) : today;
  const from =
    typeof params.from === 'string' && params.from ? params.from.slice(0, 10) : addDays(to, -(CHART_DEFAULT_DAYS - 1));
  const days = daysBetween(from, to, addDays);
  if (days.length > CHART_MAX_DAYS)
    throw ValidationError.single('from', 'chart_range_too_long', { limit: CHART_MAX_DAYS });
  const first = taipeiDayNumber(taipeiDayStart(from)!);
  const last = taipeiDayNumber(taipeiDayStart(to)!);

  const storeRows = await storesOf(ctx, stores);
  const inRange = (q: Knex.QueryBuilder) =>
    q
      .where('day', '>=', first)
      .where('day', '<=', last)
      .modify((b) => stores !== 'all' && b.whereIn('store_id', stores));

  const byStatus = (await inRange(ctx.db('payment_daily'))
    .select('store_id', 'status')
    .sum({ amount: 'amount' })
    .groupBy('store_id', 'status')) as Array<{ store_id: number; status: string; amount: number | string }>;
  const perDay = (await inRange(ctx.db('payment_daily'))
    .select('store_id', 'day')
    .sum({ amount: 'amount' })
    .groupBy('store_id', 'day')) as Array<{ store_id: number; day: number; amount: number | string }>;

  const sum = (id: number, status: string) =>
    byStatus
      .filter((r) => Number(r.store_id) === id && r.status === status)
      .reduce((n, r) => n + Number(r.amount ?? 0), 0);
  return {
    from,
    to,
    days,
    stores: storeRows.map((s) => ({
      store_id: Number(s.id),
      store_name: s.name,
      store_code: s.code,
      pending_amount: sum(Number(s.id), STATUS_PENDING),
      confirmed_amount: sum(Number(s.id), STATUS_CREDITED),
      failed_amount: sum(Number(s.id), STATUS_FAILED),
    })),
    daily: dailySeries(
      storeRows.map((s) => Number(s.id)),
      days,
      perDay.map((r) => ({
        store_id: Number(r.store_id),
        day: taipeiDayNumberDate(Number(r.day)),
        amount: Number(r.amount ?? 0),
      })),
    ),
  };
}
