import type { Knex } from 'knex';
import type { Actor } from './actor.js';
import type { PoolSettings } from './workerPool.js';

/** The database, or a transaction on it. */
export type Db = Knex | Knex.Transaction;

export interface SecuritySettings {
  /** HS256 signing secret for session tokens */
  jwtSecret: string;
  tokenTtlSeconds: number;
  bcryptCost: number;
  hashing?: PoolSettings;
  /** failed sign-ins allowed per username and per address in a window; default 10 in 15 minutes */
  signInLimit?: SignInLimit;
  publicLinks?: PublicLinkSettings;
}

export interface SignInLimit {
  maxFailures: number;
  windowMs: number;
}

/** What every service receives: the database (or a transaction), its settings, and who acts. */
export interface AppContext {
  db: Db;
  /** read-only connections beside the one writer, so a list never waits behind an import; absent, `db` */
  read?: Db;
  security: SecuritySettings;
  /** the API's, so matching holds no request's event loop; absent (the CLI), it runs in the calling thread */
  matching?: PoolSettings;
  /** where backups go; absent (a program using the library), no automatic backup is taken */
  backups?: BackupSettings;
}

export interface BackupSettings {
  /** the folder (REMIT_BACKUP_DIR): beside the SQLite file, or ./data/backups on PostgreSQL */
  dir: string;
  /** REMIT_BACKUP_KEEP_DAYS: when set, it wins over the days set on the 備份 page */
  keepDays?: number;
  /** the largest upload the 備份 page takes (default MAX_BACKUP_UPLOAD_BYTES) */
  maxUploadBytes?: number;
  /** the largest backup once unpacked (default 4 GiB) */
  maxPayloadBytes?: number;
  /** bytes the disk keeps free after a backup or an unpacked upload is written (default 64 MB) */
  keepFree?: number;
}

export interface ServiceContext extends AppContext {
  actor: Actor;
  /** the caller's address, for the audit log */
  ip?: string | null;
  /** the id of the token the request came with */
  sessionId?: string;
}

export { systemActor } from './actor.js';

/** Reads to the read pool, except inside a transaction: reads there must see the transaction's own writes. */
export function readContext<T extends AppContext>(ctx: T): T {
  if (!ctx.read || (ctx.db as { isTransaction?: boolean }).isTransaction) return ctx;
  return { ...ctx, db: ctx.read };
}

export interface PublicLimits {
  perAddressMinute: number;
  perAddressDay: number;
  perLinkDay: number;
}

export interface PublicLinkSettings {
  /** REMIT_PUBLIC_URL; absent, the address the server listens on */
  url?: string;
  limits?: PublicLimits;
}
