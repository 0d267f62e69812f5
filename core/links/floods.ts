// A flood through a store's public link: a link that brought in a quarter of its day's budget today, or had
// sends refused by it, is named with its counts; its reports are removed in one audited action.
import type { ServiceContext } from '../context.js';
import { problem, ValidationError, NotFoundError, ForbiddenError } from '../errors.js';
import { instantRange } from '../dateRange.js';
import { requireAnyPermission, requirePermission } from '../guard.js';
import { recordAudit } from '../audit/service.js';
import { MAX_BATCH_DELETE } from '../limits.js';
import { STATUS_PENDING } from '../paymentStatuses.js';
import { removePaymentRows } from '../payments/write.js';
import type { PaymentRow } from '../payments/rows.js';
import type { StoreRow } from '../stores/rows.js';
import { isPostgres } from '../db/connect.js';
import { inScope, storeScope } from '../permissions.js';
import { taipeiDayNumber, taipeiDayNumberStart, toIso } from '../time.js';
import { toId } from '../validation.js';
import { linkRefusedBucket, publicLimitsOf } from './limits.js';

/** A link is flooded once its day's customer reports reach this share of its day's budget. */
const FLOOD_SHARE = 4;

export interface LinkFlood {
  store_id: number;
  /** since `since`, the start of today in Taiwan */
  reports: number;
  refused: number;
  since: string;
}

/** The caller's stores whose link is flooded today, by the customer reports' time of arrival. */
export async function linkFloods(ctx: ServiceContext, now = Date.now()): Promise<LinkFlood[]> {
  requireAnyPermission(ctx.actor, 'view_payments', 'manage_stores');
  const since = taipeiDayNumberStart(taipeiDayNumber(now));
  const scope = storeScope(ctx.actor);
  const inStores = <Q extends { whereIn(c: string, v: number[]): Q }>(q: Q) =>
    scope.all ? q : q.whereIn('store_id', scope.ids);
  const counted = (await inStores(ctx.db('payments').where({ source: 'customer' }).where('created_at', '>=', since))
    .groupBy('store_id')
    .select('store_id')
    .count({ n: '*' })) as Array<{ store_id: number | string; n: number | string }>;
  const links = (await inStores(ctx.db('store_links').select('store_id', 'token'))) as Array<{
    store_id: number | string;
    token: string;
  }>;
  const refusedRows = links.length
    ? ((await ctx
        .db('public_limits')
        .whereIn(
          'bucket',
          links.map((l) => linkRefusedBucket(l.token)),
        )
        .where({ window_start: since })
        .select('bucket', 'n')) as Array<{ bucket: string; n: number | string }>)
    : [];
  const refusedBy = new Map(refusedRows.map((r) => [r.bucket, Number(r.n)]));
  const reportsBy = new Map(counted.map((r) => [Number(r.store_id), Number(r.n)]));
  const threshold = Math.ceil(publicLimitsOf(ctx.security.publicLinks).perLinkDay / FLOOD_SHARE);
  return links
    .map((l) => ({
      store_id: Number(l.store_id),
      reports: reportsBy.get(Number(l.store_id)) ?? 0,
      refused: refusedBy.get(linkRefusedBucket(l.token)) ?? 0,
      since: toIso(since),
    }))
    .filter((f) => f.reports >= threshold || f.refused > 0)
    .sort((a, b) => a.store_id - b.store_id);
}

/** Only customer reports still 未確認 with no bank line: a flood's junk, never one staff decided on. */
export async function removeLinkReports(
  ctx: ServiceContext,
  rawStoreId: unknown,
  input: { from?: unknown; to?: unknown },
): Promise<{ removed: number }> {
  requirePermission(ctx.actor, 'delete_payments');
  const storeId = toId(rawStoreId);
  const store =
    storeId === null
      ? undefined
      : ((await ctx.db<StoreRow>('stores').where({ id: storeId }).first()) as StoreRow | undefined);
  if (!store) throw new NotFoundError(problem('store_not_found'));
  if (!inScope(ctx.actor, Number(store.id))) throw new ForbiddenError(problem('store_out_of_scope'));
  if (input.from === undefined || input.from === null || input.from === '')
    throw ValidationError.single('from', 'link_reports_window_required');
  const range = instantRange(input.from, input.to ?? null, { from: 'from', to: 'to' });
  const from = range.gte!;
  const to = range.lt ?? Date.now() + 1;
  return ctx.db.transaction(async (trx) => {
    const q = trx<PaymentRow>('payments')
      .where({ store_id: store.id, source: 'customer', status: STATUS_PENDING })
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .whereNotExists((s) =>
        s.select(trx.raw('1')).from('bank_links').whereRaw('bank_links.payment_uuid = payments.uuid'),
      )
      .limit(MAX_BATCH_DELETE + 1)
      .select('*');
    // locked as read (PostgreSQL checks the conditions again): a report confirmed meanwhile is not removed
    const rows = (await (isPostgres(trx) ? q.forUpdate() : q)) as PaymentRow[];
    if (rows.length > MAX_BATCH_DELETE)
      throw ValidationError.single('from', 'link_reports_too_many', { limit: MAX_BATCH_DELETE });
    const removed = await removePaymentRows(trx, ctx, rows, true);
    if (removed.length) {
      await recordAudit(trx, ctx, {
        action: 'update',
        entity: 'store',
        entityId: store.id,
        after: {
          store_id: Number(store.id),
          public_link: 'reports_removed',
          removed: removed.length,
          received_from: toIso(from),
          received_to: toIso(to - 1),
        },
      });
    }
    return { removed: removed.length };
  });
}
