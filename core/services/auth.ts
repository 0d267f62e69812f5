/**
 * Sign-in, session tokens and password changes. Tokens are HS256 JWTs carrying the username
 * (spec section 3) and a token version: a password change or a deactivation bumps the version
 * in the database, so every older token stops working at once.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthenticatedError, ValidationError } from '../errors.js';
import { MSG } from '../messages.js';
import { effectivePermissions, type Principal } from '../permissions.js';
import { toUser, type UserRow } from '../db/rows.js';
import type { Db } from '../db/connect.js';
import { Batcher, batcherFor } from '../db/batch.js';
import type { Me } from '../types.js';
import { validateLogin } from '../validation/login.js';
import { toId } from '../validation/result.js';
import { validatePasswordChange } from '../validation/user.js';
import { recordAudit } from './audit.js';
import { attemptKey, claimSignInAttempt, clearSignInFailures, signInLimitOf } from './signInLimit.js';
import type { AppContext, SecuritySettings, ServiceContext } from './context.js';
import { valid } from './guard.js';

export const MIN_BCRYPT_COST = 10;

export function hashPassword(password: string, security: Pick<SecuritySettings, 'bcryptCost'>): Promise<string> {
  return bcrypt.hash(password, Math.max(MIN_BCRYPT_COST, security.bcryptCost));
}

// Compared against when the username is unknown, so both cases cost one bcrypt check of the same
// cost. Made on first use (every CLI command loads this module; few sign anyone in), and by
// `warmSignIn` when a server starts, so the first unknown name is not slower either.
const dummyHashes = new Map<number, string>();
function dummyHash(cost: number): string {
  const c = Math.max(MIN_BCRYPT_COST, cost);
  let h = dummyHashes.get(c);
  if (!h) {
    h = bcrypt.hashSync('remit-no-such-user', c);
    dummyHashes.set(c, h);
  }
  return h;
}

export function warmSignIn(security: Pick<SecuritySettings, 'bcryptCost'>): void {
  dummyHash(security.bcryptCost);
}

interface TokenPayload {
  sub: string;
  username: string;
  tv: number;
}

const keys = new Map<string, KeyObject>();
/**
 * The signing secret as a key object, made once: handed a string, jsonwebtoken first tries to
 * read it as a public key on every call, which costs more than everything else in a request.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export function signToken(security: SecuritySettings, user: Pick<UserRow, 'id' | 'username' | 'token_version'>): string {
  const payload: TokenPayload = { sub: String(user.id), username: user.username, tv: Number(user.token_version) };
  return jwt.sign(payload, keyOf(security.jwtSecret), { algorithm: 'HS256', expiresIn: security.tokenTtlSeconds });
}

export function toPrincipal(row: UserRow): Principal {
  const u = toUser(row);
  return { id: u.id, username: u.username, role: u.role, permissions: u.permissions, store_id: u.store_id, accessible_stores: u.accessible_stores };
}

/**
 * Checks username and password; answers a token and who signed in. `ip` is the client's address:
 * failed sign-ins are limited per username and per address (see signInLimit.ts), and every
 * attempt, success or failure, is written to the audit log (never the password). Known and
 * unknown usernames take the same path: one lookup, the limit check, one bcrypt comparison.
 */
export async function login(app: AppContext, input: unknown, ip: string | null = null): Promise<{ token: string; user: Me }> {
  const { username, password } = valid(validateLogin(input));
  // Usernames are unique whatever their case, so sign-in does not depend on it either.
  const row = await app.db<UserRow>('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
  const key = attemptKey(username, ip);
  try {
    await claimSignInAttempt(app.db, signInLimitOf(app.security), key);
  } catch (err) {
    if (err instanceof TooManyRequestsError) await auditSignIn(app.db, ip, username, row, 'too_many_attempts');
    throw err;
  }
  const ok = await bcrypt.compare(password, row?.password_hash ?? dummyHash(app.security.bcryptCost));
  if (!row || !ok) {
    await auditSignIn(app.db, ip, username, row, row ? 'wrong_password' : 'unknown_user');
    throw new UnauthenticatedError(MSG.loginFailed);
  }
  // The right password: not a guess, whether or not the account may sign in.
  await clearSignInFailures(app.db, key);
  if (!row.is_active) {
    await auditSignIn(app.db, ip, username, row, 'inactive');
    throw new UnauthenticatedError(MSG.accountInactive);
  }
  await auditSignIn(app.db, ip, username, row, null);
  return { token: signToken(app.security, row), user: meOf(row) };
}

type SignInFailure = 'unknown_user' | 'wrong_password' | 'inactive' | 'too_many_attempts';

/** 'login' or 'login_failed' on the user (when the name is known), with the name as typed. */
async function auditSignIn(db: Db, ip: string | null, username: string, row: UserRow | undefined, failure: SignInFailure | null): Promise<void> {
  const actor: Principal =
    failure === null && row ? toPrincipal(row) : { id: 0, username, role: 'user', permissions: [], store_id: null, accessible_stores: [] };
  const after = failure === null ? { username: username.slice(0, 100) } : { username: username.slice(0, 100), reason: failure };
  await recordAudit(db, { actor, ip }, { action: failure === null ? 'login' : 'login_failed', entity: 'user', entityId: row?.id ?? null, after });
}

const userLoaders = new WeakMap<object, Batcher<number, UserRow | undefined>>();

/** A user row by id; lookups arriving together share one query. */
function userById(db: Db, id: number): Promise<UserRow | undefined> {
  const loader = batcherFor(userLoaders, db, (root) =>
    new Batcher<number, UserRow | undefined>(async (ids) => {
      const rows = (await root<UserRow>('users').whereIn('id', [...new Set(ids)]).select('*')) as UserRow[];
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      return ids.map((i) => byId.get(i));
    }),
  );
  return loader ? loader.push(id) : db<UserRow>('users').where({ id }).first();
}

/** The signed-in user behind a token, checked against the database on every call. */
export async function authenticate(app: AppContext, token: string): Promise<Principal> {
  let payload: TokenPayload;
  try {
    payload = jwt.verify(token, keyOf(app.security.jwtSecret), { algorithms: ['HS256'] }) as TokenPayload;
  } catch {
    throw new UnauthenticatedError(MSG.tokenInvalid);
  }
  const id = toId(payload.sub);
  if (id === null) throw new UnauthenticatedError(MSG.tokenInvalid);
  const row = await userById(app.db, id);
  if (!row || !row.is_active || row.username !== payload.username || Number(row.token_version) !== payload.tv) {
    throw new UnauthenticatedError(MSG.tokenInvalid);
  }
  return toPrincipal(row);
}

function meOf(row: UserRow): Me {
  const p = toPrincipal(row);
  return { ...p, permissions: effectivePermissions(p), accessible_stores: [...p.accessible_stores] };
}

/** The principal of an active user by name, for commands run on someone's behalf (`remit import --as`). */
export async function principalByUsername(db: Db, username: string): Promise<Principal> {
  const row = await db<UserRow>('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
  if (!row) throw new NotFoundError(MSG.userNotFoundNamed(username));
  if (!row.is_active) throw new ForbiddenError(MSG.accountInactive);
  return toPrincipal(row);
}

/** `GET /api/admin/me`. */
export async function me(ctx: ServiceContext): Promise<Me> {
  const row = await ctx.db<UserRow>('users').where({ id: ctx.actor.id }).first();
  if (!row) throw new UnauthenticatedError(MSG.tokenInvalid);
  return meOf(row);
}

/** Changes the caller's own password; older tokens stop working and a fresh one is returned. */
export async function changePassword(ctx: ServiceContext, input: unknown): Promise<{ token: string }> {
  const { currentPassword, newPassword } = valid(validatePasswordChange(input));
  if (ctx.actor.id <= 0) throw new ForbiddenError(MSG.cannotChangeOthersPassword);
  const row = await ctx.db<UserRow>('users').where({ id: ctx.actor.id }).first();
  if (!row) throw new UnauthenticatedError(MSG.tokenInvalid);
  if (!(await bcrypt.compare(currentPassword, row.password_hash))) {
    throw ValidationError.single('currentPassword', MSG.currentPasswordWrong);
  }
  const hash = await hashPassword(newPassword, ctx.security);
  return ctx.db.transaction(async (trx) => {
    const version = Number(row.token_version) + 1;
    await setPassword(trx, row.id, hash, version);
    await recordAudit(trx, ctx, { action: 'password', entity: 'user', entityId: row.id });
    return { token: signToken(ctx.security, { ...row, token_version: version }) };
  });
}

export async function setPassword(db: Db, userId: number, hash: string, tokenVersion: number): Promise<void> {
  await db('users').where({ id: userId }).update({ password_hash: hash, token_version: tokenVersion, updated_at: Date.now() });
}
