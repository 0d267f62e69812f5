/**
 * Opens the database: the embedded SQLite file by default, PostgreSQL when a URL is given.
 * Both get the same migrations and behave the same to the services.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type DbConfig =
  | { client: 'sqlite'; filename: string }
  | { client: 'pg'; connectionString: string; searchPath?: string; poolMax?: number };

/** Any knex handle a service can run on: the database or a transaction inside it. */
export type Db = Knex | Knex.Transaction;

const INT8 = 20;
const NUMERIC = 1700;
/** bigint and numeric come back as numbers: ids, times in ms and NT$ sums all fit in 2^53. */
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function openDatabase(cfg: DbConfig): Knex {
  if (cfg.client === 'pg') {
    return knexFactory({
      client: 'pg',
      connection: { connectionString: cfg.connectionString, types: pgTypes } as Knex.PgConnectionConfig,
      searchPath: cfg.searchPath ? [cfg.searchPath] : undefined,
      pool: { min: 0, max: cfg.poolMax ?? 10 },
    });
  }
  if (cfg.filename !== ':memory:') mkdirSync(dirname(cfg.filename), { recursive: true });
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: cfg.filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { exec(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) {
        // WAL lets readers work beside a writer; busy_timeout makes a second process wait
        // for the write lock instead of failing; foreign keys are off in SQLite by default.
        conn.exec(
          'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; PRAGMA synchronous = NORMAL;',
          (err) => done(err, conn),
        );
      },
    },
  });
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}
