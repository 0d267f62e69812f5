import { ConflictError, NotFoundError, ValidationError, problem } from '../errors.js';
import { assertFilterFields, filterIds, likeEscape, runList, type ListQuery } from '../listQuery.js';
import { toStore, type StoreRow } from './rows.js';
import { toUser, type UserRow } from '../users/rows.js';
import { toIso } from '../time.js';
import { isForeignKeyViolation, isPostgres, isUniqueViolation } from '../db/connect.js';
import type { ListResult, Store } from '../types.js';
import { isPlainObject, pick, toId } from '../validation.js';
import { validateStore } from './validate.js';
import { recordAudit } from '../audit/service.js';
import type { ServiceContext, Db } from '../context.js';
import { deny, requirePermission, valid } from '../guard.js';
import { storeChangeRefusal } from '../permissions.js';

const SORTABLE = { id: 'id', name: 'name', code: 'code', created_at: 'created_at' };

/** Every store: any signed-in user may read the list (the form's branch select needs it). */
export async function listStores(ctx: ServiceContext, query: ListQuery = { filter: {} }): Promise<ListResult<Store>> {
  assertFilterFields(query.filter, ['id', 'q']);
  const base = ctx.db<StoreRow>('stores').select('*');
  const ids = filterIds(query.filter, 'id');
  if (ids) base.whereIn('id', ids);
  if (typeof query.filter.q === 'string' && query.filter.q.trim()) {
    const like = `%${likeEscape(query.filter.q.trim().toLowerCase())}%`;
    base.where((w) =>
      w.whereRaw("lower(name) like ? escape '\\'", [like]).orWhereRaw("lower(code) like ? escape '\\'", [like]),
    );
  }
  return runList(base, query, { sortable: SORTABLE, defaultSort: ['id', 'ASC'], tiebreak: 'id' }, toStore);
}

export async function findStore(db: Db, id: number): Promise<StoreRow | undefined> {
  return db<StoreRow>('stores').where({ id }).first();
}

/** Store codes to ids, in the order given (case-insensitive); an unknown code is refused by name. */
export async function storeIdsByCode(ctx: Pick<ServiceContext, 'db'>, codes: readonly string[]): Promise<number[]> {
  if (!codes.length) return [];
  const rows = (await ctx.db<StoreRow>('stores').select('id', 'code')) as Array<{ id: number; code: string }>;
  return codes.map((code) => {
    const hit = rows.find((r) => r.code.toLowerCase() === code.trim().toLowerCase());
    if (!hit) throw new NotFoundError(problem('store_code_not_found', { code }));
    return Number(hit.id);
  });
}

/** Id, name and code of every store, in id order: what a spreadsheet's store cells are matched against. */
export async function storeDirectory(
  ctx: Pick<ServiceContext, 'db'>,
): Promise<Array<{ id: number; name: string; code: string }>> {
  const rows = (await ctx.db<StoreRow>('stores').select('id', 'name', 'code').orderBy('id')) as StoreRow[];
  return rows.map((s) => ({ id: Number(s.id), name: s.name, code: s.code }));
}

export async function getStore(ctx: ServiceContext, rawId: unknown): Promise<Store> {
  const id = toId(rawId);
  const row = id === null ? undefined : await findStore(ctx.db, id);
  if (!row) throw new NotFoundError(problem('store_not_found'));
  return toStore(row);
}

/** One store by its code (case-insensitive, as codes are unique that way). */
export async function getStoreByCode(ctx: ServiceContext, code: string): Promise<Store> {
  const row = await ctx.db<StoreRow>('stores').whereRaw('lower(code) = ?', [code.trim().toLowerCase()]).first();
  if (!row) throw new NotFoundError(problem('store_code_not_found', { code }));
  return toStore(row);
}

async function assertCodeFree(db: Db, code: string, exceptId?: number) {
  const clash = await db('stores')
    .whereRaw('lower(code) = ?', [code.toLowerCase()])
    .modify((q) => exceptId !== undefined && q.whereNot({ id: exceptId }))
    .first('id');
  if (clash) throw new ConflictError(problem('store_code_taken'), 'code');
}

/** Two requests naming one code (in any case) at once: the folded unique index answers, as 409. */
async function codeConflictAs409<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(problem('store_code_taken'), 'code');
    throw err;
  }
}

export async function createStore(ctx: ServiceContext, input: unknown): Promise<Store> {
  requirePermission(ctx.actor, 'manage_stores');
  const value = valid(validateStore(input));
  return codeConflictAs409(() =>
    ctx.db.transaction(async (trx) => {
      await assertCodeFree(trx, value.code);
      const now = Date.now();
      const [row] = (await trx('stores')
        .insert({ ...value, created_at: now, updated_at: now })
        .returning('*')) as StoreRow[];
      const store = toStore(row);
      await recordAudit(trx, ctx, { action: 'create', entity: 'store', entityId: store.id, after: store });
      return store;
    }),
  );
}

export async function updateStore(ctx: ServiceContext, rawId: unknown, patch: unknown): Promise<Store> {
  requirePermission(ctx.actor, 'manage_stores');
  if (!isPlainObject(patch)) throw ValidationError.single('body', 'body_not_object');
  return codeConflictAs409(() =>
    ctx.db.transaction(async (trx) => {
      const before = toStore(await getStoreRowOrThrow(trx, rawId));
      deny(storeChangeRefusal(ctx.actor, before.id));
      const value = valid(validateStore({ name: before.name, code: before.code, ...pick(patch, ['name', 'code']) }));
      if (value.code.toLowerCase() !== before.code.toLowerCase()) await assertCodeFree(trx, value.code, before.id);
      await trx('stores')
        .where({ id: before.id })
        .update({ ...value, updated_at: Date.now() });
      const after = toStore((await findStore(trx, before.id))!);
      await recordAudit(trx, ctx, { action: 'update', entity: 'store', entityId: before.id, before, after });
      return after;
    }),
  );
}

/** Deletes a store nobody uses; a store with payments or home users is kept (409). */
export async function deleteStore(ctx: ServiceContext, rawId: unknown): Promise<Store> {
  requirePermission(ctx.actor, 'manage_stores');
  try {
    return await deleteStoreNow(ctx, rawId);
  } catch (err) {
    // A payment submitted for the store at the same moment (PostgreSQL): the store is in use.
    if (isForeignKeyViolation(err)) throw new ConflictError(problem('store_in_use'));
    throw err;
  }
}

async function deleteStoreNow(ctx: ServiceContext, rawId: unknown): Promise<Store> {
  return ctx.db.transaction(async (trx) => {
    // Locked first on PostgreSQL: a grant or a payment racing this delete waits for it, then sees the store gone.
    const before = toStore(await getStoreRowOrThrow(trx, rawId, isPostgres(trx)));
    deny(storeChangeRefusal(ctx.actor, before.id));
    const usedByPayment = await trx('payments').where({ store_id: before.id }).first('uuid');
    const usedByUser = await trx('users').where({ store_id: before.id }).first('id');
    if (usedByPayment || usedByUser) throw new ConflictError(problem('store_in_use'));
    // Drop the store from every user's accessible list so no list points at nothing.
    const holders = (
      (await trx<UserRow>('users')
        .whereRaw('accessible_stores like ?', [`%${before.id}%`])
        .select('*')) as UserRow[]
    )
      .map(toUser)
      .filter((u) => u.accessible_stores.includes(before.id));
    for (const u of holders) {
      const after = {
        ...u,
        accessible_stores: u.accessible_stores.filter((id) => id !== before.id),
        updated_at: toIso(Date.now()),
      };
      await trx('users')
        .where({ id: u.id })
        .update({
          accessible_stores: JSON.stringify(after.accessible_stores),
          updated_at: Date.parse(after.updated_at),
        });
      await recordAudit(trx, ctx, { action: 'update', entity: 'user', entityId: u.id, before: u, after });
    }
    await trx('stores').where({ id: before.id }).delete();
    await recordAudit(trx, ctx, { action: 'delete', entity: 'store', entityId: before.id, before });
    return before;
  });
}

async function getStoreRowOrThrow(db: Db, rawId: unknown, lock = false): Promise<StoreRow> {
  const id = toId(rawId);
  const row =
    id === null
      ? undefined
      : lock
        ? await db<StoreRow>('stores').where({ id }).forUpdate().first()
        : await findStore(db, id);
  if (!row) throw new NotFoundError(problem('store_not_found'));
  return row;
}
