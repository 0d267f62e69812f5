import { ConflictError, ForbiddenError, NotFoundError, ValidationError, problem } from '../errors.js';
import { assertFilterFields, filterIds, likeEscape, runList, type ListQuery } from '../listQuery.js';
import { MSG } from '../messages.js';
import {
  deleteUserRefusal,
  editUserRefusal,
  grantRefusal,
  isAdmin,
  isRole,
  storeScope,
  toggleActiveRefusal,
  userVisibleTo,
} from '../permissions.js';
import { toUser, type UserRow } from './rows.js';
import { isPostgres, isUniqueViolation } from '../db/connect.js';
import type { ListResult, User } from '../types.js';
import { isBlank, isPlainObject, pick, toId } from '../validation.js';
import { checkNewPassword, validateUser, type UserInput } from './validate.js';
import { recordAudit } from '../audit/service.js';
import { hashPassword } from './auth.js';
import { unlockSignIn } from './signInLimit.js';
import type { ServiceContext, Db } from '../context.js';
import { deny, requirePermission, valid } from '../guard.js';
import { lockForTransaction, LOCKS } from '../db/locks.js';

const SORTABLE = {
  id: 'id',
  username: 'username',
  role: 'role',
  store_id: 'store_id',
  is_active: 'is_active',
  created_at: 'created_at',
};
const EDITABLE = [
  'password',
  'confirmPassword',
  'role',
  'permissions',
  'store_id',
  'accessible_stores',
  'is_active',
] as const;

export async function listUsers(ctx: ServiceContext, query: ListQuery = { filter: {} }): Promise<ListResult<User>> {
  requirePermission(ctx.actor, 'manage_users');
  const f = query.filter;
  assertFilterFields(f, ['id', 'q', 'role', 'store_id', 'is_active']);
  const base = ctx.db<UserRow>('users').select('*');
  if (!isAdmin(ctx.actor) && ctx.actor.store_id !== null) {
    // The same rule as userVisibleTo, in SQL so counts and pages stay right.
    const scope = storeScope(ctx.actor);
    const stores = scope.all ? [] : scope.ids;
    base.where((w) =>
      w
        .where('id', ctx.actor.id)
        .orWhere((v) => v.whereNot('role', 'admin').whereIn('store_id', stores.length ? stores : [0])),
    );
  }
  const ids = filterIds(f, 'id');
  if (ids) base.whereIn('id', ids);
  const stores = filterIds(f, 'store_id');
  if (stores) base.whereIn('store_id', stores);
  if (f.role !== undefined) {
    if (!isRole(f.role)) throw ValidationError.single('filter', 'bad_list_param', { param: 'filter.role' });
    base.where({ role: f.role });
  }
  if (f.is_active !== undefined) {
    if (typeof f.is_active !== 'boolean')
      throw ValidationError.single('filter', 'bad_list_param', { param: 'filter.is_active' });
    base.where({ is_active: f.is_active });
  }
  if (typeof f.q === 'string' && f.q.trim()) {
    base.whereRaw("lower(username) like ? escape '\\'", [`%${likeEscape(f.q.trim().toLowerCase())}%`]);
  }
  return runList(base, query, { sortable: SORTABLE, defaultSort: ['id', 'ASC'], tiebreak: 'id' }, toUser);
}

async function loadUser(db: Db, rawId: unknown): Promise<UserRow> {
  const id = toId(rawId);
  const row = id === null ? undefined : await db<UserRow>('users').where({ id }).first();
  if (!row) throw new NotFoundError(problem('user_not_found'));
  return row;
}

/** One user: manage_users and within what the caller may manage, or one's own record. */
export async function getUser(ctx: ServiceContext, rawId: unknown): Promise<User> {
  const row = await loadUser(ctx.db, rawId);
  if (row.id !== ctx.actor.id) requirePermission(ctx.actor, 'manage_users');
  const user = toUser(row);
  if (!userVisibleTo(ctx.actor, user)) throw new NotFoundError(problem('user_not_found'));
  return user;
}

/** One user by username (case-insensitive, as usernames are unique that way): same rule as getUser. */
export async function getUserByUsername(ctx: ServiceContext, username: string): Promise<User> {
  const row = await ctx.db<UserRow>('users').whereRaw('lower(username) = ?', [username.trim().toLowerCase()]).first();
  if (!row) throw new NotFoundError(problem('user_not_found', { username }));
  if (row.id !== ctx.actor.id) requirePermission(ctx.actor, 'manage_users');
  const user = toUser(row);
  if (!userVisibleTo(ctx.actor, user)) throw new NotFoundError(problem('user_not_found', { username }));
  return user;
}

/** Forgets every failed sign-in of a user (`remit users unlock`): the account signs in from anywhere at once. */
export async function unlockUser(ctx: ServiceContext, username: string): Promise<{ user: User; cleared: number }> {
  requirePermission(ctx.actor, 'manage_users');
  const user = await getUserByUsername(ctx, username);
  const cleared = await unlockSignIn(ctx.db, user.username);
  await recordAudit(ctx.db, ctx, {
    action: 'update',
    entity: 'user',
    entityId: user.id,
    after: { username: user.username, sign_in_unlocked: true, failures_cleared: cleared },
  });
  return { user, cleared };
}

async function assertStoresExist(db: Db, value: Pick<UserInput, 'store_id' | 'accessible_stores'>): Promise<void> {
  const wanted = [...new Set([...value.accessible_stores, ...(value.store_id !== null ? [value.store_id] : [])])];
  if (!wanted.length) return;
  // FOR SHARE on PostgreSQL: a store being deleted now is either gone (refused) or waits for this grant.
  const q = db('stores').whereIn('id', wanted).select('id');
  const found = new Set(
    ((await (isPostgres(db) ? q.forShare() : q)) as Array<{ id: number }>).map((r) => Number(r.id)),
  );
  if (value.store_id !== null && !found.has(value.store_id))
    throw ValidationError.single('store_id', 'store_not_found');
  if (value.accessible_stores.some((s) => !found.has(s)))
    throw ValidationError.single('accessible_stores', 'store_not_found');
}

export async function createUser(ctx: ServiceContext, input: unknown): Promise<User> {
  requirePermission(ctx.actor, 'manage_users');
  const value = valid(validateUser(input, 'create'));
  deny(grantRefusal(ctx.actor, value, null));
  const hash = await hashPassword(value.password!, ctx.security);
  try {
    return await ctx.db.transaction(async (trx) => {
      await assertStoresExist(trx, value);
      if (await trx('users').whereRaw('lower(username) = ?', [value.username.toLowerCase()]).first('id')) {
        throw new ConflictError(problem('username_taken'), 'username');
      }
      const now = Date.now();
      const [row] = (await trx('users')
        .insert({
          username: value.username,
          password_hash: hash,
          role: value.role,
          permissions: JSON.stringify(value.permissions),
          store_id: value.store_id,
          accessible_stores: JSON.stringify(value.accessible_stores),
          is_active: value.is_active,
          token_version: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('*')) as UserRow[];
      const user = toUser(row);
      await recordAudit(trx, ctx, { action: 'create', entity: 'user', entityId: user.id, after: user });
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(problem('username_taken'), 'username');
    throw err;
  }
}

/** Read in the write transaction, writing named fields only, so no change made meanwhile is undone; hashed first. */
export async function updateUser(ctx: ServiceContext, rawId: unknown, patch: unknown): Promise<User> {
  requirePermission(ctx.actor, 'manage_users');
  if (!isPlainObject(patch)) throw ValidationError.single('body', 'body_not_object');
  const wantsPassword =
    !isBlank(patch.password) &&
    checkNewPassword(patch.password, patch.confirmPassword as unknown, PASSWORD_TEXTS) === null;
  const hash = wantsPassword ? await hashPassword(patch.password as string, ctx.security) : null;

  return ctx.db.transaction(async (trx) => {
    await lockAccounts(trx);
    const id = toId(rawId);
    const q = trx<UserRow>('users').where({ id: id ?? 0 });
    const row =
      id === null ? undefined : ((await (isPostgres(trx) ? q.forUpdate() : q).first()) as UserRow | undefined);
    if (!row || !userVisibleTo(ctx.actor, toUser(row))) throw new NotFoundError(problem('user_not_found'));
    const before = toUser(row);
    deny(editUserRefusal(ctx.actor, before));
    if ('username' in patch && patch.username !== before.username)
      throw ValidationError.single('username', 'username_immutable');

    const changes = pick(patch, EDITABLE);
    // A demoted admin keeps no permission by accident: without an explicit list they hold none.
    if (
      before.role === 'admin' &&
      changes.role !== undefined &&
      changes.role !== 'admin' &&
      !('permissions' in changes)
    )
      changes.permissions = [];
    const value = valid(validateUser({ ...before, ...changes }, 'edit'));
    if (value.is_active !== before.is_active) deny(toggleActiveRefusal(ctx.actor, before));
    deny(grantRefusal(ctx.actor, value, before));
    await assertStoresExist(trx, value);
    if (before.role === 'admin' && (value.role !== 'admin' || !value.is_active))
      await assertAnotherAdmin(trx, before.id);
    const newHash = value.password ? hash : null;
    const revoke = newHash !== null || (before.is_active && !value.is_active);
    const write: Record<string, unknown> = { updated_at: Date.now() };
    // Role, permissions and stores are normalised together, so a change to one writes all four.
    if (['role', 'permissions', 'store_id', 'accessible_stores'].some((k) => k in changes)) {
      write.role = value.role;
      write.permissions = JSON.stringify(value.permissions);
      write.store_id = value.store_id;
      write.accessible_stores = JSON.stringify(value.accessible_stores);
    }
    if ('is_active' in changes) write.is_active = value.is_active;
    if (newHash) write.password_hash = newHash;
    if (revoke) write.token_version = trx.raw('token_version + 1');
    await trx('users').where({ id: before.id }).update(write);
    const after = toUser((await trx<UserRow>('users').where({ id: before.id }).first())!);
    await recordAudit(trx, ctx, {
      action: 'update',
      entity: 'user',
      entityId: before.id,
      before,
      after: newHash ? { ...after, password_changed: true } : after,
    });
    return after;
  });
}

const PASSWORD_TEXTS = { required: MSG.passwordRequired, min: MSG.passwordMin, mismatch: MSG.passwordMismatch };

// Account writes take turns on PostgreSQL, as SQLite's BEGIN IMMEDIATE makes them: two admins demoting each
// other would otherwise lock rows in opposite orders and deadlock.
async function lockAccounts(db: Db): Promise<void> {
  await lockForTransaction(db, LOCKS.accounts);
}

// Keeps an active admin, so nobody locks the business out; on PostgreSQL the admins are locked first, so
// two demoting themselves at once cannot both pass.
async function assertAnotherAdmin(db: Db, exceptId: number): Promise<void> {
  const q = db('users').where({ role: 'admin', is_active: true }).select('id');
  const admins = (await (isPostgres(db) ? q.forUpdate() : q)) as Array<{ id: number }>;
  if (!admins.some((a) => Number(a.id) !== exceptId)) throw new ForbiddenError(problem('last_admin'));
}

export async function deleteUser(ctx: ServiceContext, rawId: unknown): Promise<User> {
  requirePermission(ctx.actor, 'manage_users');
  return ctx.db.transaction(async (trx) => {
    await lockAccounts(trx);
    const before = toUser(await loadUser(trx, rawId));
    if (!userVisibleTo(ctx.actor, before)) throw new NotFoundError(problem('user_not_found'));
    deny(deleteUserRefusal(ctx.actor, before));
    if (before.role === 'admin') await assertAnotherAdmin(trx, before.id);
    await trx('users').where({ id: before.id }).delete();
    await recordAudit(trx, ctx, { action: 'delete', entity: 'user', entityId: before.id, before });
    return before;
  });
}
