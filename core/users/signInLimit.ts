// Password guessing, limited where the guesser is: a pair of address and account with `maxFailures` in the
// window is refused (429), whatever the password. An account or address with as many overall is only slowed,
// so nobody else's failures refuse a correct password. Attempts count before their check, so sends at once
// cannot pass more guesses; change-password is also limited per account. Shared by instances in the database.
import { addressNetwork } from '../network.js';

import { problem, TooManyRequestsError } from '../errors.js';
import type { SecuritySettings, SignInLimit, Db } from '../context.js';

const DEFAULT_SIGN_IN_LIMIT: SignInLimit = { maxFailures: 10, windowMs: 15 * 60 * 1000 };
/** An account or address under attack takes one attempt per this many ms. */
const SLOWDOWN_MS = 1000;
/** No attempt is held back longer than this, however many wait for the same account or address. */
export const MAX_SLOWDOWN_MS = 3000;
/** Failed sign-ins written to the audit log per address and window, whatever names are sent. */
export const AUDITED_FAILURES_PER_ADDRESS = 20;

export function signInLimitOf(security: Pick<SecuritySettings, 'signInLimit'>): SignInLimit {
  return security.signInLimit ?? DEFAULT_SIGN_IN_LIMIT;
}

export interface AttemptKey {
  username: string;
  ip: string;
}

export type AttemptKind = 'signin' | 'password';

export function attemptKey(username: string, ip: string | null | undefined): AttemptKey {
  // an address's network, so an IPv6 /64 is one client
  return { username: username.toLowerCase().slice(0, 128), ip: addressNetwork(ip) };
}

export interface Attempt {
  id: number;
  key: AttemptKey;
  kind: AttemptKind;
  waitMs: number;
}

/** Refused when its pair (or for change-password, its account) is over; else a pending failure, with its wait. */
export async function beginAttempt(
  db: Db,
  limit: SignInLimit,
  key: AttemptKey,
  kind: AttemptKind,
  now = Date.now(),
): Promise<Attempt> {
  const cutoff = now - limit.windowMs;
  await db('login_attempts').where('at', '<', cutoff).delete();
  await refuseIfOver(db, limit, key, kind, cutoff, now, 1);

  let slot = now;
  const under = async (where: Partial<AttemptKey> & { kind?: AttemptKind }) => {
    if ((await liftsAt(db, where, limit, cutoff, 1)) === null) return;
    const last = (await db('login_attempts').where(where).max({ at: 'at' }).first()) as
      | { at: number | string | null }
      | undefined;
    if (last?.at !== null && last?.at !== undefined) slot = Math.max(slot, Number(last.at) + SLOWDOWN_MS);
  };
  await under({ username: key.username, kind: 'signin' });
  if (key.ip) await under({ ip: key.ip });
  slot = Math.min(slot, now + MAX_SLOWDOWN_MS);

  const [row] = (await db('login_attempts')
    .insert({ username: key.username, ip: key.ip, at: slot, kind })
    .returning('id')) as Array<number | { id: number }>;
  const id = Number(typeof row === 'object' ? row.id : row);
  try {
    // Attempts sent at once all passed the check above: the ones past the limit give way.
    await refuseIfOver(db, limit, key, kind, cutoff, now, 0);
  } catch (err) {
    await db('login_attempts').where({ id }).delete();
    throw err;
  }
  return { id, key, kind, waitMs: slot - now };
}

/** `spare` 1: refuse when `maxFailures` are counted already; 0: when more than that (this attempt among them). */
async function refuseIfOver(
  db: Db,
  limit: SignInLimit,
  key: AttemptKey,
  kind: AttemptKind,
  cutoff: number,
  now: number,
  spare: 0 | 1,
): Promise<void> {
  let lifts = (await liftsAt(db, { username: key.username, ip: key.ip }, limit, cutoff, spare)) ?? 0;
  if (kind === 'password')
    lifts = Math.max(
      lifts,
      (await liftsAt(db, { username: key.username, kind: 'password' }, limit, cutoff, spare)) ?? 0,
    );
  if (lifts > now) {
    const seconds = Math.max(1, Math.ceil((lifts - now) / 1000));
    throw new TooManyRequestsError(
      seconds,
      kind === 'password' ? problem('too_many_password_failures', { minutes: Math.ceil(seconds / 60) }) : undefined,
    );
  }
}

/** When the `maxFailures`-th most recent failure leaves the window; null when fewer (+1 with spare 0) count. */
async function liftsAt(
  db: Db,
  where: Record<string, string>,
  limit: SignInLimit,
  cutoff: number,
  spare: 0 | 1,
): Promise<number | null> {
  const row = await db('login_attempts')
    .where(where)
    .andWhere('at', '>=', cutoff)
    .orderBy([
      { column: 'at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset(limit.maxFailures - spare)
    .first('at');
  return row ? Number(row.at) + limit.windowMs : null;
}

/** The password was right: not a guess. Forgets the pair's failures (and for the form, the account's). */
export async function attemptSucceeded(db: Db, attempt: Attempt): Promise<void> {
  await db('login_attempts').where({ username: attempt.key.username, ip: attempt.key.ip }).delete();
  if (attempt.kind === 'password')
    await db('login_attempts').where({ username: attempt.key.username, kind: 'password' }).delete();
}

/** The password was never checked (the hashing queue was full, the request failed): not a failure. */
export async function attemptAbandoned(db: Db, attempt: Attempt): Promise<void> {
  await db('login_attempts').where({ id: attempt.id }).delete();
}

/** `remit users unlock USERNAME`: forgets every failure of the account; answers how many. */
export async function unlockSignIn(db: Db, username: string): Promise<number> {
  return db('login_attempts')
    .where({ username: username.toLowerCase().slice(0, 128) })
    .delete();
}

/** Audit this failure? Numbered slots per address and window, so racing instances cannot both take the last. */
export async function mayAuditFailure(
  db: Db,
  limit: SignInLimit,
  key: AttemptKey,
  refused: boolean,
  now = Date.now(),
): Promise<boolean> {
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  await db('login_throttle_notes')
    .where('window_start', '<', now - 2 * limit.windowMs)
    .delete();
  const take = async (noteKey: string) =>
    (
      (await db('login_throttle_notes')
        .insert({ note_key: noteKey.slice(0, 200), window_start: windowStart })
        .onConflict(['note_key', 'window_start'])
        .ignore()
        .returning('note_key')) as unknown[]
    ).length > 0;
  if (refused && !(await take(`${key.ip} ${key.username}`))) return false;
  const prefix = `audit ${key.ip} #`;
  // LIKE rather than a range of strings: it does not depend on the database's collation.
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const taken = (await db('login_throttle_notes')
    .where({ window_start: windowStart })
    .andWhereRaw("note_key like ? escape '\\'", [pattern])
    .count({ n: '*' })
    .first()) as { n: number | string } | undefined;
  for (let slot = Number(taken?.n ?? 0) + 1; slot <= AUDITED_FAILURES_PER_ADDRESS; slot++) {
    if (await take(`${prefix}${String(slot).padStart(4, '0')}`)) return true;
  }
  return false;
}
