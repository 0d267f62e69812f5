/**
 * Cash leaving the drawer (店內支出, 提領): recorded by whoever keeps the till, corrected or removed by them
 * until the day is closed and by a manager after (assertDayOpenForCash), each change audited.
 */
import { ForbiddenError, NotFoundError, ValidationError, problem } from '../errors.js';
import { canAccess, submitStoreRefusal, type Principal } from '../permissions.js';
import { deny, requirePermission, requireSubmitter, valid } from '../guard.js';
import type { ServiceContext } from '../context.js';
import { recordAudit } from '../audit/service.js';
import { assertDayOpenForCash } from '../payments/closedDay.js';
import { actorKind, actorUserId } from '../actor.js';
import { isPlainObject, toId } from '../validation.js';
import { taipeiDate, toIso } from '../time.js';
import { validateCashOut, type CashOutKind } from './rules.js';
import { requireStoreInScope, storeById } from './scope.js';

export interface CashOut {
  id: number;
  store_id: number;
  at: string;
  kind: CashOutKind;
  category: string;
  amount: number;
  note: string;
  after_close: boolean;
  created_by_username: string;
  created_at: string;
}

export interface CashOutRow {
  id: number;
  store_id: number;
  at: number | string;
  kind: CashOutKind;
  category: string;
  amount: number | string;
  note: string;
  after_close: boolean | number;
  created_by: number | null;
  created_by_username: string;
  created_at: number | string;
}

function toCashOut(r: CashOutRow): CashOut {
  return {
    id: Number(r.id),
    store_id: Number(r.store_id),
    at: toIso(Number(r.at)),
    kind: r.kind,
    category: r.category ?? '',
    amount: Number(r.amount),
    note: r.note ?? '',
    after_close: Boolean(r.after_close),
    created_by_username: r.created_by_username ?? '',
    created_at: toIso(Number(r.created_at)),
  };
}

/** Records cash leaving the drawer, for a store one may submit for; a closed day needs manage_payments. */
export async function recordCashOut(ctx: ServiceContext, input: unknown): Promise<CashOut> {
  // a customer's public link reports payments, never the drawer's cash
  if (actorKind(ctx.actor) === 'link') throw new ForbiddenError(problem('forbidden'));
  requirePermission(ctx.actor, 'record_cash_out');
  requireSubmitter(ctx.actor);
  if (!isPlainObject(input)) throw ValidationError.single('body', 'body_not_object');
  const now = Date.now();
  const v = valid(validateCashOut(input, now));
  const storeId = input.store_id ?? ctx.actor.store_id;
  const store = await storeById(ctx.db, storeId);
  deny(submitStoreRefusal(ctx.actor, store.id));
  const at = v.at ?? now;
  return ctx.db.transaction(async (trx) => {
    const late = await assertDayOpenForCash(trx, ctx, store.id, at, { entity: 'cash_out', action: 'create' });
    const row = {
      store_id: store.id,
      at,
      kind: v.kind,
      category: v.category,
      amount: v.amount,
      note: v.note,
      after_close: late,
      created_by: actorUserId(ctx.actor),
      created_by_username: ctx.actor.username.slice(0, 40),
      created_at: now,
    };
    const [ret] = await trx('cash_out').insert(row).returning('id');
    const id = Number(typeof ret === 'object' ? (ret as { id: number }).id : ret);
    const written = toCashOut({ ...row, id } as CashOutRow);
    await recordAudit(trx, ctx, { action: 'create', entity: 'cash_out', entityId: id, after: written });
    return written;
  });
}

/** Who keeps the till fixes its entries; so does whoever may edit (or delete) payments (canAccess's `cash_out`). */
export function requireCashChange(actor: Principal, action: 'edit' | 'delete'): void {
  if (actorKind(actor) === 'link') throw new ForbiddenError(problem('forbidden'));
  if (!canAccess(actor, 'cash_out', action))
    requirePermission(actor, action === 'edit' ? 'edit_payments' : 'delete_payments');
}

async function entryInScope(trx: ServiceContext['db'], ctx: ServiceContext, id: unknown): Promise<CashOutRow> {
  const n = toId(id);
  const row = n === null ? undefined : ((await trx('cash_out').where({ id: n }).first()) as CashOutRow | undefined);
  if (!row) throw new NotFoundError(problem('cash_out_not_found'));
  requireStoreInScope(ctx, Number(row.store_id));
  return row;
}

/** Kind, category, amount, note and time, checked as a new entry is; the store stays. A closed day's change is marked. */
export async function updateCashOut(ctx: ServiceContext, id: unknown, patch: unknown): Promise<CashOut> {
  requireCashChange(ctx.actor, 'edit');
  if (!isPlainObject(patch)) throw ValidationError.single('body', 'body_not_object');
  return ctx.db.transaction(async (trx) => {
    const row = await entryInScope(trx, ctx, id);
    const before = toCashOut(row);
    const merged = {
      kind: before.kind,
      category: before.category,
      amount: before.amount,
      note: before.note,
      at: before.at,
    };
    for (const k of Object.keys(merged) as Array<keyof typeof merged>)
      if (k in patch) Object.assign(merged, { [k]: patch[k] });
    const v = valid(validateCashOut(merged, Date.now()));
    const at = v.at ?? Number(row.at);
    const change = { entity: 'cash_out' as const, id: before.id, action: 'update' as const };
    // both days when the time moves to another: each may be closed
    let late = await assertDayOpenForCash(trx, ctx, Number(row.store_id), Number(row.at), change);
    if (taipeiDate(at) !== taipeiDate(Number(row.at)))
      late = (await assertDayOpenForCash(trx, ctx, Number(row.store_id), at, change)) || late;
    const fields = {
      kind: v.kind,
      category: v.category,
      amount: v.amount,
      note: v.note,
      at,
      after_close: late || Boolean(row.after_close),
    };
    await trx('cash_out').where({ id: before.id }).update(fields);
    const after = toCashOut({ ...row, ...fields });
    await recordAudit(trx, ctx, { action: 'update', entity: 'cash_out', entityId: before.id, before, after });
    return after;
  });
}

/** A closed day's entry needs manage_payments, and is marked. */
export async function deleteCashOut(ctx: ServiceContext, id: unknown): Promise<CashOut> {
  requireCashChange(ctx.actor, 'delete');
  return ctx.db.transaction(async (trx) => {
    const row = await entryInScope(trx, ctx, id);
    const n = Number(row.id);
    await assertDayOpenForCash(trx, ctx, Number(row.store_id), Number(row.at), {
      entity: 'cash_out',
      id: n,
      action: 'delete',
    });
    if ((await trx('cash_out').where({ id: n }).delete()) === 0) throw new NotFoundError(problem('cash_out_not_found'));
    const before = toCashOut(row);
    await recordAudit(trx, ctx, { action: 'delete', entity: 'cash_out', entityId: n, before });
    return before;
  });
}
