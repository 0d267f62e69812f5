/**
 * Payer memory: a confirmed link whose line names its payer teaches that on this store's
 * statements this payer reported this last five. One row per fact, pointing at its latest link;
 * unlinking that link takes the fact away unless another link still teaches it.
 */
import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import { NotFoundError, problem } from '../errors.js';
import { assertFilterFields, filterIds, runList, type ListQuery } from '../listQuery.js';
import { storeScope } from '../permissions.js';
import { recordAudit } from '../audit/service.js';
import type { ServiceContext, Db } from '../context.js';
import { requirePermission } from '../guard.js';
import { toIso } from '../time.js';
import type { ListResult } from '../types.js';
import { toId } from '../validation.js';
import type { PayerMemory, RememberedPayer } from './types.js';
import { actorUserId } from '../actor.js';

interface PayerRow {
  id: number | string;
  store_id: number | string;
  payer: string;
  last_five: string;
  payment_uuid: string;
  line_id: number | string;
  learned_by: string;
  actor_id: number | string | null;
  actor_username: string;
  learned_at: number | string;
}

export const MAX_PAYER_LENGTH = 255;

function toRememberedPayer(r: PayerRow): RememberedPayer {
  return {
    id: Number(r.id),
    store_id: Number(r.store_id),
    payer: r.payer,
    last_five: r.last_five,
    payment: r.payment_uuid,
    line_id: Number(r.line_id),
    learned_by: r.learned_by === 'auto' ? 'auto' : 'person',
    learned_by_username: r.actor_username,
    learned_at: toIso(Number(r.learned_at)),
  };
}

/** Learns from one confirmed link, in its transaction; a fact already known now points at this link. */
export async function learnPayer(
  trx: Db,
  ctx: Pick<ServiceContext, 'actor'>,
  input: {
    storeId: number;
    payer: string | null | undefined;
    lastFive: string;
    payment: string;
    line: number;
    by: 'person' | 'auto';
    at: number;
  },
): Promise<RememberedPayer | null> {
  const payer = (input.payer ?? '').trim().slice(0, MAX_PAYER_LENGTH);
  if (!payer || !/^\d{5}$/.test(input.lastFive)) return null;
  const row = {
    store_id: input.storeId,
    payer,
    last_five: input.lastFive,
    payment_uuid: input.payment,
    line_id: input.line,
    learned_by: input.by,
    actor_id: actorUserId(ctx.actor),
    actor_username: ctx.actor.username.slice(0, 40),
    learned_at: input.at,
  };
  const [saved] = (await trx('reconcile_payers')
    .insert(row)
    .onConflict(['store_id', 'payer', 'last_five'])
    .merge(['payment_uuid', 'line_id', 'learned_by', 'actor_id', 'actor_username', 'learned_at'])
    .returning('*')) as PayerRow[];
  return toRememberedPayer(saved);
}

export async function payerMemory(db: Db, stores: number[] | 'all'): Promise<PayerMemory[]> {
  const q = db('reconcile_payers').select('store_id', 'payer', 'last_five');
  if (stores !== 'all') {
    if (stores.length === 0) return [];
    q.whereIn('store_id', stores);
  }
  const rows = (await q) as Array<Pick<PayerRow, 'store_id' | 'payer' | 'last_five'>>;
  return rows.map((r) => ({ store_id: Number(r.store_id), payer: r.payer, last_five: r.last_five }));
}

/** The memory in the caller's stores only: nothing of another store is ever read or revealed. */
function scopedPayers(ctx: ServiceContext, db: Db = ctx.db): Knex.QueryBuilder {
  const q = db('reconcile_payers').select('*');
  const scope = storeScope(ctx.actor);
  if (!scope.all) q.whereIn('store_id', scope.ids);
  return q;
}

const SORTABLE = { id: 'id', store_id: 'store_id', payer: 'payer', last_five: 'last_five', learned_at: 'learned_at' };
const FILTERS = ['id', 'store_id'];

export async function listPayers(
  ctx: ServiceContext,
  query: ListQuery = { filter: {} },
): Promise<ListResult<RememberedPayer>> {
  requirePermission(ctx.actor, 'view_payments');
  assertFilterFields(query.filter, FILTERS);
  const base = scopedPayers(ctx);
  const ids = filterIds(query.filter, 'id');
  if (ids) base.whereIn('id', ids);
  const stores = filterIds(query.filter, 'store_id');
  if (stores) base.whereIn('store_id', stores);
  return runList(
    base,
    query,
    { sortable: SORTABLE, defaultSort: ['learned_at', 'DESC'], tiebreak: 'id' },
    toRememberedPayer,
  );
}

/** Forgets one remembered payer: racing an unlink or another forget, whoever comes second finds it gone (404). */
export async function forgetPayer(ctx: ServiceContext, rawId: unknown): Promise<RememberedPayer> {
  requirePermission(ctx.actor, 'confirm_payments');
  const id = toId(rawId);
  if (id === null) throw new NotFoundError(problem('reconcile_payer_not_found', { id: String(rawId) }));
  return ctx.db.transaction(async (trx) => {
    const q = scopedPayers(ctx, trx).where({ id });
    if (isPostgres(trx)) q.forUpdate();
    const row = (await q.first()) as PayerRow | undefined;
    if (!row || (await trx('reconcile_payers').where({ id }).delete()) === 0)
      throw new NotFoundError(problem('reconcile_payer_not_found', { id: String(id) }));
    const before = toRememberedPayer(row);
    await recordAudit(trx, ctx, { action: 'delete', entity: 'payer', entityId: id, before });
    return before;
  });
}

/** On an unlink, what the link taught goes, unless another link of the store still teaches it (then points there). */
export async function unlearnLink(
  trx: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  paymentUuid: string,
): Promise<void> {
  const q = trx('reconcile_payers').where({ payment_uuid: paymentUuid }).select('*').orderBy('id');
  if (isPostgres(trx)) q.forUpdate();
  const rows = (await q) as PayerRow[];
  for (const row of rows) {
    const before = toRememberedPayer(row);
    const other = (await trx('bank_links as k')
      .join('bank_lines as l', 'l.id', 'k.line_id')
      .join('payments as p', 'p.uuid', 'k.payment_uuid')
      .where('l.payer', row.payer)
      .andWhere('p.store_id', row.store_id)
      .andWhere('p.last_five', row.last_five)
      .andWhereNot('k.payment_uuid', paymentUuid)
      .orderBy('k.at', 'desc')
      .orderBy('k.id', 'desc')
      .first('k.payment_uuid', 'k.line_id', 'k.decided_by', 'k.actor_id', 'k.at')) as
      | {
          payment_uuid: string;
          line_id: number | string;
          decided_by: string;
          actor_id: number | string | null;
          at: number | string;
        }
      | undefined;
    if (other) {
      const by =
        other.actor_id === null
          ? undefined
          : ((await trx('users').where({ id: other.actor_id }).first('username')) as { username: string } | undefined);
      const patch = {
        payment_uuid: other.payment_uuid,
        line_id: Number(other.line_id),
        learned_by: other.decided_by === 'auto' ? 'auto' : 'person',
        actor_id: other.actor_id === null ? null : Number(other.actor_id),
        actor_username: by?.username ?? row.actor_username,
        learned_at: Number(other.at),
      };
      await trx('reconcile_payers').where({ id: row.id }).update(patch);
      const after = toRememberedPayer({ ...row, ...patch });
      await recordAudit(trx, ctx, { action: 'update', entity: 'payer', entityId: Number(row.id), before, after });
    } else {
      await trx('reconcile_payers').where({ id: row.id }).delete();
      await recordAudit(trx, ctx, { action: 'delete', entity: 'payer', entityId: Number(row.id), before });
    }
  }
}
