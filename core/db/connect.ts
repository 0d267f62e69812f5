// The embedded SQLite file by default, PostgreSQL given a URL: the same migrations, the same to the services.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Db } from '../context.js';

export type DbConfig =
  | { client: 'sqlite'; filename: string }
  | { client: 'pg'; connectionString: string; searchPath?: string; poolMax?: number };

const INT8 = 20;
const NUMERIC = 1700;
/** bigint and numeric come back as numbers: ids, times in ms and NT$ sums all fit in 2^53. */
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

// Every transaction begins IMMEDIATE: one that reads, then writes, would otherwise fail at once (SQLITE_BUSY,
// no waiting) when another process wrote in between, e.g. `remit import` beside the server.
function immediateSqliteClient(): unknown {
  const require = createRequire(import.meta.url);
  /* eslint-disable @typescript-eslint/no-explicit-any -- knex's dialect classes have no published types */
  const Client = require('knex/lib/dialects/sqlite3/index.js') as new (...a: any[]) => any;
  const Transaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js') as new (...a: any[]) => any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  class ImmediateTransaction extends Transaction {
    begin(conn: unknown) {
      return this.query(conn, 'BEGIN IMMEDIATE;');
    }
  }
  return class ImmediateSqlite extends Client {
    transaction(...args: unknown[]) {
      return new ImmediateTransaction(this, ...args);
    }
  };
}
let sqliteClient: unknown;

/** knex's warnings, minus those on an error it then throws: the CLI says that error in Chinese. */
const KNEX_LOG = {
  warn(message: string) {
    if (
      !/^(Can't take lock to run migrations|If you are sure migrations are not running|migration failed with error|migration file ")/.test(
        message,
      )
    )
      console.warn(message);
  },
};

export function openDatabase(cfg: DbConfig): Knex {
  if (cfg.client === 'pg') {
    return knexFactory({
      client: 'pg',
      log: KNEX_LOG,
      connection: { connectionString: cfg.connectionString, types: pgTypes } as Knex.PgConnectionConfig,
      searchPath: cfg.searchPath ? [cfg.searchPath] : undefined,
      pool: { min: 0, max: cfg.poolMax ?? 10 },
    });
  }
  if (cfg.filename !== ':memory:') {
    mkdirSync(dirname(cfg.filename), { recursive: true });
    ownerOnly(cfg.filename);
  }
  sqliteClient ??= immediateSqliteClient();
  return knexFactory({
    client: sqliteClient as typeof Knex.Client,
    connection: { filename: cfg.filename },
    useNullAsDefault: true,
    log: KNEX_LOG,
    pool: {
      min: 1,
      max: 1,
      afterCreate(
        conn: { exec(sql: string, cb: (err: Error | null) => void): void },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        // WAL lets readers work beside a writer; busy_timeout makes a second process wait
        // for the write lock instead of failing; foreign keys are off in SQLite by default.
        conn.exec(
          `PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${WRITE_WAIT_MS}; PRAGMA synchronous = NORMAL;`,
          (err) => done(err, conn),
        );
      },
    },
  });
}

/** Password hashes and every payment: 0600 before SQLite opens it (its -wal and -shm follow), or narrowed to it. */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || (e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(e.message ?? ''));
}

/** The row a foreign key points at is gone, or the row is still pointed at. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23503' || (e?.code === 'SQLITE_CONSTRAINT' && /FOREIGN KEY/i.test(e.message ?? ''));
}

/** How long a write waits for a database held by another (busy_timeout, lock_timeout) before it is refused as busy. */
export const WRITE_WAIT_MS = 10_000;

/** The writer or a lock was held past the wait (another process, an import): nothing of the write was stored. */
export function isDatabaseBusy(err: unknown): boolean {
  const e = err as { code?: string; name?: string };
  return e?.code === 'SQLITE_BUSY' || e?.code === '55P03' || e?.name === 'KnexTimeoutError';
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}

/** Enough for the back office's parallel requests. */
const READ_POOL_SIZE = 4;

/** Reads beside SQLite's one writer, not queued behind it; none for PostgreSQL (its pool does it) or :memory:. */
export function openReadPool(cfg: DbConfig, size: number = READ_POOL_SIZE): Knex | undefined {
  if (cfg.client !== 'sqlite' || cfg.filename === ':memory:') return undefined;
  sqliteClient ??= immediateSqliteClient();
  return knexFactory({
    client: sqliteClient as typeof Knex.Client,
    connection: { filename: cfg.filename },
    useNullAsDefault: true,
    pool: {
      min: 0,
      max: size,
      afterCreate(
        conn: { exec(sql: string, cb: (err: Error | null) => void): void },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        conn.exec(`PRAGMA query_only = ON; PRAGMA busy_timeout = ${WRITE_WAIT_MS}; PRAGMA foreign_keys = ON;`, (err) =>
          done(err, conn),
        );
      },
    },
  });
}
