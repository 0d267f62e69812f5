/**
 * Failed sign-ins limited per username and per client address (issue 6, point 5). The counts
 * live in `login_attempts`, so every API instance on the same database sees the same ones.
 *
 * An attempt is recorded before the password is checked and counted together with the ones
 * before it; when the username or the address already has `maxFailures` in the window, the
 * attempt is withdrawn and refused. Recording first means requests racing each other cannot all
 * slip under the limit while their bcrypt checks run. A successful sign-in withdraws the
 * failures of that username from that address only: other addresses keep their counts.
 */
import type { Db } from '../db/connect.js';
import { TooManyRequestsError } from '../errors.js';
import type { SecuritySettings, SignInLimit } from './context.js';

export const DEFAULT_SIGN_IN_LIMIT: SignInLimit = { maxFailures: 10, windowMs: 15 * 60 * 1000 };

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

/**
 * Records one sign-in attempt, counted as a failure until `clearSignInFailures` withdraws it.
 * Throws TooManyRequestsError (with the seconds until the oldest counted failure leaves the
 * window) when the username or the address is over the limit.
 */
export async function claimSignInAttempt(db: Db, limit: SignInLimit, key: AttemptKey, now = Date.now()): Promise<void> {
  const cutoff = now - limit.windowMs;
  await db('login_attempts').where('at', '<', cutoff).delete();
  const [inserted] = await db('login_attempts').insert({ username: key.username, ip: key.ip, at: now }).returning('id');
  const id = Number(typeof inserted === 'object' ? inserted.id : inserted);

  const over: Array<'username' | 'ip'> = [];
  if ((await countSince(db, 'username', key.username, cutoff)) > limit.maxFailures) over.push('username');
  if (key.ip && (await countSince(db, 'ip', key.ip, cutoff)) > limit.maxFailures) over.push('ip');
  if (over.length === 0) return;

  await db('login_attempts').where({ id }).delete();
  let waitMs = 0;
  for (const col of over) {
    // The limit lifts when the maxFailures-th most recent failure leaves the window.
    const row = await db('login_attempts')
      .where(col, key[col])
      .andWhere('at', '>=', cutoff)
      .orderBy([{ column: 'at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .offset(limit.maxFailures - 1)
      .first('at');
    waitMs = Math.max(waitMs, row ? Number(row.at) + limit.windowMs - now : limit.windowMs);
  }
  throw new TooManyRequestsError(Math.max(1, Math.ceil(waitMs / 1000)));
}

/** After a sign-in with the right password: forgets that username's failures from that address. */
export async function clearSignInFailures(db: Db, key: AttemptKey): Promise<void> {
  await db('login_attempts').where({ username: key.username, ip: key.ip }).delete();
}

async function countSince(db: Db, col: 'username' | 'ip', value: string, cutoff: number): Promise<number> {
  const row = await db('login_attempts').where(col, value).andWhere('at', '>=', cutoff).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
