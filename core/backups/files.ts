// SQLite files a backup is made of: a file read as data only, and a scratch file written by us.
import { pathToFileURL } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import sqlite3 from 'sqlite3';

/** the longest text or blob a file's row may hold: far above any field of the product, far below memory */
const MAX_VALUE_BYTES = 16 << 20;

type RawConnection = {
  exec(sql: string, cb: (err: Error | null) => void): void;
  configure(option: 'limit', id: number, value: number): void;
};

/**
 * A SQLite file opened read-only and as immutable (no journal, no lock, nothing written beside it), trusting
 * nothing in its schema (`trusted_schema = OFF`: no function a view, trigger or index names runs with
 * side effects), and no value longer than MAX_VALUE_BYTES.
 */
export function openFileReadOnly(file: string): Knex {
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: `${pathToFileURL(file).href}?mode=ro&immutable=1`, flags: ['OPEN_URI'] },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: RawConnection, done: (err: Error | null, conn: unknown) => void) {
        conn.configure('limit', sqlite3.LIMIT_LENGTH, MAX_VALUE_BYTES);
        conn.exec('PRAGMA trusted_schema = OFF; PRAGMA query_only = ON;', (err) => done(err, conn));
      },
    },
  });
}

/** A file of our own being filled: no journal to keep, nothing to sync until it is whole. */
export function openScratch(file: string): Knex {
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: RawConnection, done: (err: Error | null, conn: unknown) => void) {
        conn.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON;', (err) =>
          done(err, conn),
        );
      },
    },
  });
}

/**
 * A plain connection beside the server's, for a copy that must not hold the server's one writer; the copy
 * it writes is not synced by SQLite (the wrapped backup is, once, when whole).
 */
export function openBeside(file: string): Knex {
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: RawConnection, done: (err: Error | null, conn: unknown) => void) {
        conn.exec('PRAGMA busy_timeout = 10000; PRAGMA synchronous = OFF;', (err) => done(err, conn));
      },
    },
  });
}
