/**
 * Failed sign-ins (and failed current-password checks) limited per client address and per
 * account. The counts live in `login_attempts`, so every API instance on the same database sees
 * the same ones. Only failures that happened are counted (issue 10, item 8): a burst of correct
 * sign-ins from one shop router is never refused.
 *
 * Designed as careful sign-in systems are (issue 10, item 9), so that a stranger cannot lock
 * the owner out:
 * - an address with `maxFailures` failures in the window (any usernames) is refused;
 * - an account with `maxFailures` failures in the window refuses the addresses that failed on it,
 *   while an address with no failure on it still gets in, at most one attempt per
 *   `slowdownMs` for that account: the per-account limit slows guessing, it does not shut the
 *   door on the right password;
 * - `remit users unlock USERNAME` forgets an account's failures.
 * Retry-After is the true time until the refusal lifts.
 *
 * Attempts racing each other are counted once their password check ends, so a burst can pass
 * a few more guesses than the limit: as many as the password-hashing pool runs and queues.
 */
import type { Db } from '../db/connect.js';
import { TooManyRequestsError } from '../errors.js';
import type { SecuritySettings, SignInLimit } from './context.js';

export const DEFAULT_SIGN_IN_LIMIT: SignInLimit = { maxFailures: 10, windowMs: 15 * 60 * 1000 };
/** Under attack, an account takes one attempt from a clean address per this many ms. */
export const ACCOUNT_SLOWDOWN_MS = 1000;

export function signInLimitOf(security: Pick<SecuritySettings, 'signInLimit'>): SignInLimit {
  return security.signInLimit ?? DEFAULT_SIGN_IN_LIMIT;
}

export interface AttemptKey {
  username: string;
  ip: string;
}

export function attemptKey(username: string, ip: string | null | undefined): AttemptKey {
  return { username: username.toLowerCase().slice(0, 128), ip: (ip ?? '').slice(0, 64) };
}

/** Throws TooManyRequestsError, with the seconds until it lifts, when this attempt must wait. */
export async function checkSignInAllowed(db: Db, limit: SignInLimit, key: AttemptKey, now = Date.now()): Promise<void> {
  const cutoff = now - limit.windowMs;
  let waitMs = 0;
  if (key.ip) {
    const lifts = await limitLiftsAt(db, { ip: key.ip }, limit, cutoff);
    if (lifts !== null) waitMs = Math.max(waitMs, lifts - now);
  }
  const accountLifts = await limitLiftsAt(db, { username: key.username }, limit, cutoff);
  if (accountLifts !== null) {
    const own = (await db('login_attempts').where({ username: key.username, ip: key.ip }).andWhere('at', '>=', cutoff).max({ at: 'at' }).first()) as
      | { at: number | string | null }
      | undefined;
    if (own?.at !== null && own?.at !== undefined) {
      // This address failed on this account: refused until its last failure or the account's limit lifts.
      waitMs = Math.max(waitMs, Math.min(Number(own.at) + limit.windowMs, accountLifts) - now);
    } else {
      const last = (await db('login_attempts').where({ username: key.username }).max({ at: 'at' }).first()) as { at: number | string | null } | undefined;
      const next = Number(last?.at ?? 0) + ACCOUNT_SLOWDOWN_MS;
      if (next > now) waitMs = Math.max(waitMs, next - now);
    }
  }
  if (waitMs > 0) throw new TooManyRequestsError(Math.max(1, Math.ceil(waitMs / 1000)));
}

/** When the limit on these failures lifts (the maxFailures-th most recent leaves the window), or null when not over it. */
async function limitLiftsAt(db: Db, where: Partial<AttemptKey>, limit: SignInLimit, cutoff: number): Promise<number | null> {
  const row = await db('login_attempts')
    .where(where)
    .andWhere('at', '>=', cutoff)
    .orderBy([{ column: 'at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .offset(limit.maxFailures - 1)
    .first('at');
  return row ? Number(row.at) + limit.windowMs : null;
}

/** Counts one failure (a wrong password, an unknown username) and prunes rows past the window. */
export async function recordSignInFailure(db: Db, limit: SignInLimit, key: AttemptKey, now = Date.now()): Promise<void> {
  await db('login_attempts').where('at', '<', now - limit.windowMs).delete();
  await db('login_throttle_notes').where('window_start', '<', now - 2 * limit.windowMs).delete();
  await db('login_attempts').insert({ username: key.username, ip: key.ip, at: now });
}

/** After the right password: forgets that username's failures from that address. */
export async function clearSignInFailures(db: Db, key: AttemptKey): Promise<void> {
  await db('login_attempts').where({ username: key.username, ip: key.ip }).delete();
}

/** `remit users unlock USERNAME`: forgets every failure of the account; answers how many. */
export async function unlockSignIn(db: Db, username: string): Promise<number> {
  return db('login_attempts').where({ username: username.toLowerCase().slice(0, 128) }).delete();
}

/**
 * True the first time a refusal of this username from this address is noted in this window,
 * false after: refused attempts are audited once per key and window, so a flood of them writes
 * no flood of audit rows (issue 10, item 11).
 */
export async function firstThrottleInWindow(db: Db, limit: SignInLimit, key: AttemptKey, now = Date.now()): Promise<boolean> {
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const inserted = (await db('login_throttle_notes')
    .insert({ note_key: `${key.ip} ${key.username}`.slice(0, 200), window_start: windowStart })
    .onConflict(['note_key', 'window_start'])
    .ignore()
    .returning('note_key')) as unknown[];
  return inserted.length > 0;
}
