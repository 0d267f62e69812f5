import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import {
  loadConfig,
  migrateLatest,
  openDatabase,
  securitySettings,
  systemActor,
  type RemitConfig,
  type ServiceContext,
} from '../core/index.js';
import { DataError } from './errors.js';
import { DB, type DbSource } from './messages.js';

/** What a command needs from its surroundings; tests pass their own. */
export interface CliIO {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** a person reads stdout (a terminal): a scheduled run says nothing when all went well */
  watched?: boolean;
}

export interface GlobalOptions {
  db?: string;
  backupDir?: string;
}

export function configFrom(io: CliIO, opts: GlobalOptions & { port?: string; host?: string }): RemitConfig {
  return loadConfig(io.env, { db: opts.db, port: opts.port, host: opts.host, backupDir: opts.backupDir });
}

/** Where the SQLite path came from (--db, REMIT_DB or the default), to say so when it is wrong. */
function dbSource(io: CliIO, opts: GlobalOptions): DbSource {
  if (opts.db) return '--db';
  return io.env.REMIT_DB?.trim() ? 'REMIT_DB' : 'default';
}

/** The SQLite file to use (null: not a file); a missing one is refused: only migrate, serve and restore create it. */
function requireSqliteFile(io: CliIO, opts: GlobalOptions, config: RemitConfig = configFrom(io, opts)): string | null {
  if (config.db.client !== 'sqlite' || config.db.filename === ':memory:') return null;
  const path = resolve(config.db.filename);
  const kind = sqliteFileKind(path);
  if (kind === 'missing') throw new DataError(DB.missing(path, dbSource(io, opts), process.cwd()));
  if (kind === 'empty') throw new DataError(DB.empty(path));
  return path;
}

/** What is at a SQLite path, read before SQLite opens it (opening turns on WAL mode in whatever the file is). */
export function sqliteFileKind(path: string): 'missing' | 'empty' | 'sqlite' {
  if (!existsSync(path)) return 'missing';
  const head = Buffer.alloc(16);
  let read: number;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'EACCES') throw err; // said as such by the error handler
    throw new DataError(DB.notSqlite(path)); // a folder
  }
  if (read === 0) return 'empty';
  if (head.toString('latin1') !== 'SQLite format 3\0') throw new DataError(DB.notSqlite(path));
  return 'sqlite';
}

/** knex's own bookkeeping tables: a file holding only these was begun by a migrate that failed. */
const KNEX_TABLES = ['knex_migrations', 'knex_migrations_lock'];

/** Refuses, before writing to it, a SQLite file that is empty or another program's (migrate takes a new one). */
export async function checkSqliteTables(path: string, opts: { forMigrate?: boolean } = {}): Promise<void> {
  // a plain handle (no WAL mode, no mode bits): a file that is refused is left as it was
  const db = knexFactory({
    client: 'sqlite3',
    connection: { filename: path },
    useNullAsDefault: true,
    pool: { min: 0, max: 1 },
  });
  try {
    await tablesAreRemits(db, path, opts);
  } finally {
    await db.destroy();
  }
}

async function tablesAreRemits(db: Knex, path: string, opts: { forMigrate?: boolean }): Promise<void> {
  let tables: string[];
  try {
    tables = (
      (await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")) as Array<{
        name: string;
      }>
    ).map((t) => t.name);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw new DataError(DB.notSqlite(path));
    throw err;
  }
  const applied = tables.includes('knex_migrations') && Boolean(await db('knex_migrations').first());
  if (applied) return;
  const own = tables.filter((t) => !KNEX_TABLES.includes(t));
  if (opts.forMigrate && !own.length) return;
  if (!tables.length) throw new DataError(DB.empty(path));
  throw new DataError(DB.notRemit(path));
}

/**
 * Opens the database a command works on, which must exist already (`create`: made if missing, as
 * `remit migrate` makes it), and applies any newer migration.
 */
async function openExistingDatabase(
  io: CliIO,
  opts: GlobalOptions,
  create = false,
): Promise<{ db: Knex; config: RemitConfig }> {
  const config = configFrom(io, opts);
  const sqlite =
    config.db.client === 'sqlite' && config.db.filename !== ':memory:' ? resolve(config.db.filename) : null;
  if (create && sqlite && sqliteFileKind(sqlite) === 'sqlite') await checkSqliteTables(sqlite, { forMigrate: true });
  else if (!create) {
    const path = requireSqliteFile(io, opts, config);
    if (path) await checkSqliteTables(path);
  }
  const db = openDatabase(config.db);
  try {
    await migrateLatest(db);
    return { db, config };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/** Runs `fn` as the operator (whoever can run the CLI on the server holds the database anyway), then closes it. */
export async function withOperator<T>(
  io: CliIO,
  opts: GlobalOptions,
  fn: (ctx: ServiceContext) => Promise<T>,
  { create = false }: { create?: boolean } = {},
): Promise<T> {
  const { db, config } = await openExistingDatabase(io, opts, create);
  try {
    return await fn({
      db,
      security: securitySettings(config),
      actor: systemActor('cli'),
      ip: null,
      backups: config.backups,
    });
  } finally {
    await db.destroy();
  }
}

export function describeDb(config: RemitConfig): string {
  return config.db.client === 'sqlite'
    ? config.db.filename
    : config.db.connectionString.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@');
}
