import type { Knex } from 'knex';
import type { Actor } from './actor.js';
import type { PoolSettings } from './workerPool.js';

/** The database, or a transaction on it. */
export type Db = Knex | Knex.Transaction;

export interface SecuritySettings {
  /** HS256 signing secret for session tokens */
  jwtSecret: string;
  /** how long a token lasts, seconds */
  tokenTtlSeconds: number;
  /** bcrypt cost factor for password hashes */
  bcryptCost: number;
  /** worker threads and queue bound for password hashing; defaults when absent */
  hashing?: PoolSettings;
  /** failed sign-ins allowed per username and per address in a window; default 10 in 15 minutes */
  signInLimit?: SignInLimit;
  /** a store's public link: the address links are written with (REMIT_PUBLIC_URL) and the abuse limits */
  publicLinks?: PublicLinkSettings;
}

export interface SignInLimit {
  maxFailures: number;
  windowMs: number;
}

/** What every service receives: the database (or a transaction), its settings, and who acts. */
export interface AppContext {
  db: Db;
  /**
   * Connections for reads only, beside the one writer (SQLite: a small read pool, so a list never
   * waits behind an import; WAL lets them read while the writer writes). Absent, reads use `db`.
   */
  read?: Db;
  security: SecuritySettings;
  /**
   * Worker threads and queue bound for reconciliation matching (the API sets it, so no request
   * holds the event loop). Absent, the matcher runs in the calling thread (the CLI).
   */
  matching?: PoolSettings;
}

export interface ServiceContext extends AppContext {
  /** who acts (core/actor.ts): a signed-in user, the command line, the system, a store's public link */
  actor: Actor;
  /** the caller's address, for the audit log */
  ip?: string | null;
  /** the session the request came with (its token's id), when it came with one */
  sessionId?: string;
}

export { systemActor } from './actor.js';

/**
 * The same context with reads sent to the read pool, for services that only read. Inside a
 * transaction nothing changes: reads there must see the transaction's own writes.
 */
export function readContext<T extends AppContext>(ctx: T): T {
  if (!ctx.read || (ctx.db as { isTransaction?: boolean }).isTransaction) return ctx;
  return { ...ctx, db: ctx.read };
}

/** The abuse limits of the public link: per client address a minute and a day, per link a day. */
export interface PublicLimits {
  perAddressMinute: number;
  perAddressDay: number;
  perLinkDay: number;
}

/** The public link's settings: the address links are written with, and the limits. */
export interface PublicLinkSettings {
  /** REMIT_PUBLIC_URL, e.g. https://remit.example.tw; absent, the address the server listens on */
  url?: string;
  limits?: PublicLimits;
}
