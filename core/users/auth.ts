// Sign-in, session tokens and password changes. Tokens carry the username (spec section 3) and a token
// version, which a password change or a deactivation bumps, so every older token stops at once.
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import {
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthenticatedError,
  ValidationError,
  problem,
} from '../errors.js';
import { effectivePermissions, type Principal } from '../permissions.js';
import { toUser, type UserRow } from './rows.js';

import { Batcher, batcherFor } from '../db/batch.js';
import type { Me } from '../types.js';
import { validateLogin } from './login.js';
import { toId } from '../validation.js';
import { PASSWORD_MAX_BYTES, validatePasswordChange } from './validate.js';
import { recordAudit } from '../audit/service.js';
import {
  attemptAbandoned,
  attemptKey,
  attemptSucceeded,
  beginAttempt,
  mayAuditFailure,
  signInLimitOf,
  type Attempt,
} from './signInLimit.js';
import { bcryptCompare, bcryptHash } from './hashPool.js';
import { readContext, type AppContext, type SecuritySettings, type ServiceContext, type Db } from '../context.js';
import { requireSignedIn, valid } from '../guard.js';
import { anonymousActor, type Actor } from '../actor.js';

const MIN_BCRYPT_COST = 10;

const costOf = (security: Pick<SecuritySettings, 'bcryptCost'>) => Math.max(MIN_BCRYPT_COST, security.bcryptCost);

export function hashPassword(
  password: string,
  security: Pick<SecuritySettings, 'bcryptCost' | 'hashing'>,
): Promise<string> {
  return bcryptHash(password, costOf(security), security.hashing);
}

// Compared against for an unknown username, so both cases cost one bcrypt check at the configured cost.
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(security: Pick<SecuritySettings, 'bcryptCost' | 'hashing'>): Promise<string> {
  const c = costOf(security);
  let h = dummyHashes.get(c);
  if (!h) {
    h = bcryptHash('remit-no-such-user', c, security.hashing);
    h.catch(() => dummyHashes.delete(c));
    dummyHashes.set(c, h);
  }
  return h;
}

export async function warmSignIn(security: Pick<SecuritySettings, 'bcryptCost' | 'hashing'>): Promise<void> {
  await dummyHash(security);
}

// `hash` undefined is an unknown user, checked against a dummy so both take as long. bcrypt reads only
// 72 bytes and no longer password can be set, so a longer one is wrong rather than cut.
async function verifyPassword(
  security: Pick<SecuritySettings, 'bcryptCost' | 'hashing'>,
  password: string,
  hash: string | undefined,
): Promise<boolean> {
  const ok = await bcryptCompare(password, hash ?? (await dummyHash(security)), security.hashing);
  return ok && hash !== undefined && Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
}

// Remade at the configured cost, so sign-in time tells no names apart; written only if still the hash checked.
async function rehashIfCostChanged(app: AppContext, row: UserRow, password: string): Promise<void> {
  if (bcrypt.getRounds(row.password_hash) === costOf(app.security)) return;
  const hash = await hashPassword(password, app.security);
  await app.db('users').where({ id: row.id, password_hash: row.password_hash }).update({ password_hash: hash });
}

interface TokenPayload {
  sub: string;
  username: string;
  tv: number;
  /** the session's id: 登出 revokes it */
  jti?: string;
  exp?: number;
}

const keys = new Map<string, KeyObject>();
/** Made once: handed a string, jsonwebtoken tries it as a public key on every call, the dearest part of a request. */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export function signToken(
  security: SecuritySettings,
  user: Pick<UserRow, 'id' | 'username' | 'token_version'>,
): string {
  const payload: TokenPayload = { sub: String(user.id), username: user.username, tv: Number(user.token_version) };
  return jwt.sign(payload, keyOf(security.jwtSecret), {
    algorithm: 'HS256',
    expiresIn: security.tokenTtlSeconds,
    jwtid: randomUUID(),
  });
}

function toPrincipal(row: UserRow): Principal {
  const u = toUser(row);
  return {
    id: u.id,
    username: u.username,
    role: u.role,
    permissions: u.permissions,
    store_id: u.store_id,
    accessible_stores: u.accessible_stores,
  };
}

/** Limited per username and address (signInLimit.ts), audited (never the password); unknown names go the same way. */
export async function login(
  app: AppContext,
  input: unknown,
  ip: string | null = null,
): Promise<{ token: string; user: Me }> {
  const { username, password } = valid(validateLogin(input));
  // Usernames are unique whatever their case, so sign-in does not depend on it either.
  const row = await app.db<UserRow>('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
  const key = attemptKey(username, ip);
  const limit = signInLimitOf(app.security);
  let attempt: Attempt;
  try {
    attempt = await beginAttempt(app.db, limit, key, 'signin');
  } catch (err) {
    if (err instanceof TooManyRequestsError && (await mayAuditFailure(app.db, limit, key, true))) {
      await auditSignIn(app.db, ip, username, row, 'too_many_attempts');
    }
    throw err;
  }
  const ok = await checkAttempt(app, attempt, password, row?.password_hash);
  if (!row || !ok) {
    if (await mayAuditFailure(app.db, limit, key, false))
      await auditSignIn(app.db, ip, username, row, row ? 'wrong_password' : 'unknown_user');
    throw new UnauthenticatedError(problem('login_failed'));
  }
  // The right password: not a guess, whether or not the account may sign in.
  await attemptSucceeded(app.db, attempt);
  if (!row.is_active) {
    await auditSignIn(app.db, ip, username, row, 'inactive');
    throw new UnauthenticatedError(problem('account_inactive'));
  }
  await rehashIfCostChanged(app, row, password);
  await auditSignIn(app.db, ip, username, row, null);
  return { token: signToken(app.security, row), user: meOf(row) };
}

/** Waits for the attempt's turn, then checks; a check that never ran (queue full, an error) is no failure. */
async function checkAttempt(
  app: AppContext,
  attempt: Attempt,
  password: string,
  hash: string | undefined,
): Promise<boolean> {
  try {
    if (attempt.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, attempt.waitMs));
    return await verifyPassword(app.security, password, hash);
  } catch (err) {
    await attemptAbandoned(app.db, attempt);
    throw err;
  }
}

type SignInFailure = 'unknown_user' | 'wrong_password' | 'inactive' | 'too_many_attempts';

/** 'login' or 'login_failed' on the user (when the name is known), with the name as typed. */
async function auditSignIn(
  db: Db,
  ip: string | null,
  username: string,
  row: UserRow | undefined,
  failure: SignInFailure | null,
): Promise<void> {
  const actor: Actor = failure === null && row ? toPrincipal(row) : anonymousActor(username);
  const after =
    failure === null ? { username: username.slice(0, 100) } : { username: username.slice(0, 100), reason: failure };
  await recordAudit(
    db,
    { actor, ip },
    { action: failure === null ? 'login' : 'login_failed', entity: 'user', entityId: row?.id ?? null, after },
  );
}

const userLoaders = new WeakMap<object, Batcher<number, UserRow | undefined>>();

/** A user row by id; lookups arriving together share one query. */
function userById(db: Db, id: number): Promise<UserRow | undefined> {
  const loader = batcherFor(
    userLoaders,
    db,
    (root) =>
      new Batcher<number, UserRow | undefined>(async (ids) => {
        const rows = (await root<UserRow>('users')
          .whereIn('id', [...new Set(ids)])
          .select('*')) as UserRow[];
        const byId = new Map(rows.map((r) => [Number(r.id), r]));
        return ids.map((i) => byId.get(i));
      }),
  );
  return loader ? loader.push(id) : db<UserRow>('users').where({ id }).first();
}

/** The signed-in user behind a token, checked against the database on every call. */
export async function authenticate(app: AppContext, token: string): Promise<Principal> {
  return (await authenticateSession(app, token)).actor;
}

/** `sessionId` serves 登出 and the tickets made during the session. */
interface Session {
  actor: Principal;
  sessionId: string;
  expiresAt: number;
}

/** Refuses a token without an expiry or a session id, signed out, or whose user is inactive or changed version. */
export async function authenticateSession(app: AppContext, token: string): Promise<Session> {
  const payload = verifySessionToken(app, token);
  if (!payload) throw new UnauthenticatedError(problem('token_invalid'));
  // The read pool: every request passes here, and the SQLite writer may be in a long transaction.
  const reader = readContext(app);
  const [actor, revoked] = await Promise.all([principalOf(reader, payload), isRevoked(reader.db, payload.jti!)]);
  if (revoked) throw new UnauthenticatedError(problem('token_invalid'));
  return { actor, sessionId: payload.jti!, expiresAt: payload.exp! * 1000 };
}

function verifySessionToken(app: AppContext, token: string): TokenPayload | null {
  try {
    const payload = jwt.verify(token, keyOf(app.security.jwtSecret), { algorithms: ['HS256'] }) as TokenPayload;
    if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return null;
    if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 64) return null;
    return payload;
  } catch {
    return null;
  }
}

const revokedLoaders = new WeakMap<object, Batcher<string, boolean>>();

/** Whether a session id was signed out; lookups arriving together share one query. */
function isRevoked(db: Db, jti: string): Promise<boolean> {
  const loader = batcherFor(
    revokedLoaders,
    db,
    (root) =>
      new Batcher<string, boolean>(async (ids) => {
        const rows = (await root('revoked_sessions')
          .whereIn('jti', [...new Set(ids)])
          .select('jti')) as Array<{ jti: string }>;
        const found = new Set(rows.map((r) => r.jti));
        return ids.map((i) => found.has(i));
      }),
  );
  return loader ? loader.push(jti) : db('revoked_sessions').where({ jti }).first().then(Boolean);
}

/** 登出: the token stops working on every instance sharing the database; an invalid one already works nowhere. */
export async function signOut(
  app: AppContext,
  token: string,
  ip: string | null = null,
): Promise<{ signedOut: boolean }> {
  const payload = verifySessionToken(app, token);
  if (!payload) return { signedOut: false };
  const now = Date.now();
  await app.db('revoked_sessions').where('expires_at', '<', now).delete();
  const id = toId(payload.sub);
  return app.db.transaction(async (trx) => {
    const inserted = (await trx('revoked_sessions')
      .insert({ jti: payload.jti!, expires_at: payload.exp! * 1000 })
      .onConflict('jti')
      .ignore()
      .returning('jti')) as unknown[];
    // audited once, as the user who signed out
    const row = id === null ? undefined : await trx<UserRow>('users').where({ id }).first();
    if (inserted.length && row)
      await recordAudit(trx, { actor: toPrincipal(row), ip }, { action: 'logout', entity: 'user', entityId: row.id });
    return { signedOut: inserted.length > 0 };
  });
}

async function principalOf(app: AppContext, payload: TokenPayload): Promise<Principal> {
  const id = toId(payload.sub);
  if (id === null) throw new UnauthenticatedError(problem('token_invalid'));
  const row = await userById(app.db, id);
  if (!row || !row.is_active || row.username !== payload.username || Number(row.token_version) !== payload.tv) {
    throw new UnauthenticatedError(problem('token_invalid'));
  }
  return toPrincipal(row);
}

/** How long a download ticket lasts: long enough for the browser to follow the link, no more. */
export const TICKET_TTL_SECONDS = 60;

/** For a link the browser follows without Authorization; its own key, so never a session token nor the reverse. */
export async function signTicket(ctx: ServiceContext, what: string, claims: Record<string, unknown>): Promise<string> {
  const row = await ctx.db<UserRow>('users').where({ id: ctx.actor.id }).first();
  if (!row || !row.is_active) throw new UnauthenticatedError(problem('token_invalid'));
  // The session it was made in: signing out ends its tickets too.
  const payload = {
    sub: String(row.id),
    username: row.username,
    tv: Number(row.token_version),
    sid: ctx.sessionId ?? null,
    what,
    claims,
  };
  return jwt.sign(payload, keyOf(`${ctx.security.jwtSecret}\u0000ticket`), {
    algorithm: 'HS256',
    expiresIn: TICKET_TTL_SECONDS,
  });
}

/** A ticket's user and claims; refused when forged, expired, for another `what`, or the user changed. */
export async function redeemTicket(
  app: AppContext,
  ticket: string,
  what: string,
): Promise<{ actor: Principal; claims: Record<string, unknown> }> {
  let payload: TokenPayload & { what?: unknown; claims?: unknown; sid?: unknown };
  try {
    payload = jwt.verify(ticket, keyOf(`${app.security.jwtSecret}\u0000ticket`), {
      algorithms: ['HS256'],
    }) as typeof payload;
  } catch {
    throw new UnauthenticatedError(problem('token_invalid'));
  }
  if (payload.what !== what || !payload.claims || typeof payload.claims !== 'object' || typeof payload.exp !== 'number')
    throw new UnauthenticatedError(problem('token_invalid'));
  if (typeof payload.sid === 'string' && (await isRevoked(app.db, payload.sid)))
    throw new UnauthenticatedError(problem('token_invalid'));
  return { actor: await principalOf(app, payload), claims: payload.claims as Record<string, unknown> };
}

function meOf(row: UserRow): Me {
  const p = toPrincipal(row);
  return { ...p, permissions: effectivePermissions(p), accessible_stores: [...p.accessible_stores] };
}

/** The principal of an active user by name, for commands run on someone's behalf (`remit import --as`). */
export async function principalByUsername(db: Db, username: string): Promise<Principal> {
  const row = await db<UserRow>('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
  if (!row) throw new NotFoundError(problem('user_not_found', { username }));
  if (!row.is_active) throw new ForbiddenError(problem('account_inactive'));
  return toPrincipal(row);
}

export async function me(ctx: ServiceContext): Promise<Me> {
  const row = await ctx.db<UserRow>('users').where({ id: ctx.actor.id }).first();
  if (!row) throw new UnauthenticatedError(problem('token_invalid'));
  return meOf(row);
}

/** Returns a fresh token (older ones stop); a wrong current password counts as a failed sign-in, against guessing. */
export async function changePassword(ctx: ServiceContext, input: unknown): Promise<{ token: string }> {
  const { currentPassword, newPassword } = valid(validatePasswordChange(input, ctx.actor.username));
  requireSignedIn(ctx.actor, problem('cannot_change_others_password'));
  const row = await ctx.db<UserRow>('users').where({ id: ctx.actor.id }).first();
  if (!row) throw new UnauthenticatedError(problem('token_invalid'));
  // Counted like sign-in's, before the check, so calls sent at once cannot pass more guesses.
  const key = attemptKey(row.username, ctx.ip);
  const limit = signInLimitOf(ctx.security);
  const attempt = await beginAttempt(ctx.db, limit, key, 'password');
  if (!(await checkAttempt(ctx, attempt, currentPassword, row.password_hash))) {
    throw ValidationError.single('currentPassword', 'current_password_wrong');
  }
  await attemptSucceeded(ctx.db, attempt);
  const hash = await hashPassword(newPassword, ctx.security);
  return ctx.db.transaction(async (trx) => {
    // Bumped in SQL and read back: a deactivation or change made meanwhile is kept, not overwritten.
    await trx('users')
      .where({ id: row.id })
      .update({ password_hash: hash, token_version: trx.raw('token_version + 1'), updated_at: Date.now() });
    const fresh = await trx<UserRow>('users').where({ id: row.id }).first();
    if (!fresh) throw new UnauthenticatedError(problem('token_invalid'));
    await recordAudit(trx, ctx, { action: 'password', entity: 'user', entityId: row.id });
    return { token: signToken(ctx.security, fresh) };
  });
}
