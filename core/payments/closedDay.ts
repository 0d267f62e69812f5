/**
 * A closed day's cash is locked: every writer of a cash entry (a 現金 payment, a cash-out entry)
 * asks here before writing. It lives below closes/ so payments need not know the close's service.
 */
import { ConflictError, problem } from '../errors.js';
import { lockForTransaction } from '../db/locks.js';
import type { Db, ServiceContext } from '../context.js';
import { recordAudit } from '../audit/service.js';
import { can } from '../permissions.js';
import { storeLabel } from '../labels.js';
import { taipeiDate } from '../time.js';

/** Takes the store-and-day lock inside a write transaction: on PostgreSQL a close and a cash write of one day wait for each other. */
export async function lockDay(trx: Db, storeId: number, date: string): Promise<void> {
  await lockForTransaction(trx, `remit-day:${storeId}:${date}`, { bounded: true });
}

/** What a change of a cash entry was, for the mark it gets when made after the close. */
export interface CashChange {
  entity: 'payment' | 'cash_out';
  /** the payment's uuid or the cash-out entry's id; absent for an entry not written yet */
  id?: string | number;
  action: 'create' | 'update' | 'delete';
}

/**
 * Call inside the write's transaction, before writing. A closed day refuses (day_closed_locked) unless
 * the actor has manage_payments; then the change is counted in late_changes, audited, and true returned.
 */
export async function assertDayOpenForCash(
  trx: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  storeId: number,
  at: number,
  change: CashChange,
): Promise<boolean> {
  const date = taipeiDate(at);
  await lockDay(trx, storeId, date);
  const close = (await trx('day_closes').where({ store_id: storeId, date, state: 'closed' }).first('id')) as
    | { id: number }
    | undefined;
  if (!close) return false;
  if (!can(ctx.actor, 'manage_payments')) {
    const store = (await trx('stores').where({ id: storeId }).first('code', 'name')) as
      | { code: string; name: string }
      | undefined;
    throw new ConflictError(problem('day_closed_locked', { store: storeLabel(store), date }));
  }
  await trx('day_closes').where({ id: close.id }).increment('late_changes', 1);
  await recordAudit(trx, ctx, {
    action: 'after_close',
    entity: 'day_close',
    entityId: close.id,
    after: { store_id: storeId, date, entity: change.entity, entity_id: change.id ?? null, change: change.action },
  });
  return true;
}
