// Taking a backup of the live database without stopping anyone: SQLite's VACUUM INTO on a connection of its
// own (one read transaction, the server's writer left free), or on PostgreSQL a fresh SQLite file migrated to
// the same schema and filled inside one REPEATABLE READ, READ ONLY transaction. Either way one format.
import { existsSync } from 'node:fs';
import { link, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Knex } from 'knex';
import type { Db } from '../context.js';
import { ConflictError, NotFoundError, problem } from '../errors.js';
import { isPostgres } from '../db/connect.js';
import { appliedMigrations, migrateTo } from '../db/migrate.js';
import { toIso } from '../time.js';
import { copyTables, withoutTriggers } from './copy.js';
import { openBeside, openScratch } from './files.js';
import { requireFreeSpace } from './folder.js';
import { writeWrapped, type BackupCounts, type BackupHeader } from './format.js';
import { schemaAt } from './schema.js';

const COUNTED = ['payments', 'stores', 'users', 'audit_log'] as const;

export async function countRows(db: Db): Promise<BackupCounts> {
  const out = {} as BackupCounts;
  for (const t of COUNTED) out[t] = Number(((await db(t).count({ n: '*' }).first()) as { n: number | string }).n);
  return out;
}

/** Beside the target, so a rename puts it in place and the disk checked is the one written. */
function besides(target: string, what: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.${what}.tmp`);
}

function sqliteFileOf(db: Db): string {
  return String((db.client.config.connection as { filename: string }).filename);
}

/** About how many bytes the copy takes: the database's size (its payload, then as much again at most). */
async function liveBytes(db: Db): Promise<number> {
  if (isPostgres(db)) {
    const r = (await db.raw(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as n from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`,
    )) as { rows: Array<{ n: number | string }> };
    return Number(r.rows[0].n);
  }
  const file = sqliteFileOf(db);
  if (file === ':memory:') return 0;
  const sizes = await Promise.all(
    [file, `${file}-wal`].map((f) =>
      stat(f).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes[0] + sizes[1];
}

/** A standalone file: no WAL flag in its header for whoever opens it next. */
async function standalone(file: string): Promise<BackupCounts> {
  const db = openScratch(file);
  try {
    await db.raw('PRAGMA journal_mode = DELETE');
    return await countRows(db);
  } finally {
    await db.destroy();
  }
}

async function sqlitePayload(db: Db, payload: string): Promise<void> {
  const file = sqliteFileOf(db);
  // an in-memory database (tests) has no file for a second connection to read
  const reader = file === ':memory:' ? null : openBeside(file);
  try {
    await (reader ?? db).raw('VACUUM INTO ?', [payload]);
  } finally {
    await reader?.destroy();
  }
}

/** `via`: a transaction already holding what it reads still (a restore's, before it replaces the data). */
async function postgresPayload(db: Db, payload: string, via?: Db): Promise<void> {
  const fill = async (pg: Db) => {
    const migrations = await appliedMigrations(pg as Knex);
    const spec = await schemaAt(migrations);
    const out = openScratch(payload);
    try {
      await migrateTo(out, migrations);
      await out.transaction((trx) => withoutTriggers(trx, spec.tables, () => copyTables(pg, trx, spec.tables)));
    } finally {
      await out.destroy();
    }
  };
  // inside a caller's transaction already: its view is the one to copy
  const inside = via ?? ((db as { isTransaction?: boolean }).isTransaction ? db : null);
  if (inside) return fill(inside);
  await (db as Knex).transaction(fill, { isolationLevel: 'repeatable read', readOnly: true });
}

/**
 * Writes a backup of the live database to `target`, 0600, never half a file: refuses an existing one unless
 * `force`, a missing folder, and a disk without room for it.
 */
export async function writeBackup(
  db: Db,
  target: string,
  opts: { force?: boolean; via?: Db; now?: number; keepFree?: number } = {},
): Promise<{ file: string; bytes: number; header: BackupHeader }> {
  if (!existsSync(dirname(target))) throw new NotFoundError(problem('backup_dir_missing', { path: dirname(target) }));
  if (existsSync(target) && !opts.force) throw new ConflictError(problem('file_exists', { path: target }));
  const payload = besides(target, 'payload');
  const wrapped = besides(target, 'backup');
  const takenAt = opts.now ?? Date.now();
  try {
    // every password hash and payment: owner-only from the first byte (VACUUM INTO takes an empty file)
    await writeFile(payload, '', { mode: 0o600, flag: 'wx' });
    // a folder that takes no file is said as such first; then whether the disk holds the copy
    await requireFreeSpace(dirname(target), 2 * (await liveBytes(db)), opts.keepFree);
    const pg = isPostgres(db);
    if (pg) await postgresPayload(db, payload, opts.via);
    else await sqlitePayload(db, payload);
    const counts = await standalone(payload);
    const reader = openScratch(payload);
    const migrations = await appliedMigrations(reader).finally(() => reader.destroy());
    const header = await writeWrapped(
      payload,
      { taken_at: toIso(takenAt), database: pg ? 'postgres' : 'sqlite', migrations, counts },
      wrapped,
    );
    await putInPlace(wrapped, target, Boolean(opts.force));
    return { file: target, bytes: (await stat(target)).size, header };
  } finally {
    await Promise.all([payload, `${payload}-journal`, wrapped].map((f) => rm(f, { force: true })));
  }
}

/** `link` refuses at once if someone made the target meanwhile; `force` replaces it. */
async function putInPlace(tmp: string, target: string, force: boolean): Promise<void> {
  if (force) return rename(tmp, target);
  try {
    await link(tmp, target);
  } catch (err) {
    if ((err as { code?: string }).code === 'EEXIST') throw new ConflictError(problem('file_exists', { path: target }));
    throw err;
  }
}
