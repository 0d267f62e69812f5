// SQLite backup (`VACUUM INTO`: a consistent snapshot while the server keeps writing) and restore (a checked
// copy renamed into place under an exclusive lock, so nobody reads a half-written file).
import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  copyFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { ConflictError, fieldErrorOf, NotFoundError, problem, ValidationError, type Problem } from '../errors.js';
import { knownMigrationNames } from './migrate.js';

const REMIT_TABLES = ['stores', 'users', 'payments', 'audit_log', 'knex_migrations'] as const;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** No waiting for locks: a busy database answers at once. */
function openRaw(filename: string): Knex {
  return knexFactory({ client: 'sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
}

function tempBeside(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
}

/** A new empty file only its owner may read, whatever the umask; refuses one that exists. */
function ownerOnlyEmptyFile(file: string): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
}

/** Refuses an existing `target` unless `force`; written beside it first, so a failure leaves no half file. */
export async function backupSqlite(
  db: Knex,
  target: string,
  opts: { force?: boolean } = {},
): Promise<{ file: string; bytes: number }> {
  if (!existsSync(dirname(target))) throw new NotFoundError(problem('backup_dir_missing', { path: dirname(target) }));
  if (existsSync(target) && !opts.force) throw new ConflictError(problem('file_exists', { path: target }));
  const tmp = tempBeside(target);
  try {
    // Password hashes and every payment: 0600 from the first byte (VACUUM INTO takes an empty file).
    ownerOnlyEmptyFile(tmp);
    await db.raw('VACUUM INTO ?', [tmp]);
    chmodSync(tmp, 0o600);
    if (opts.force) renameSync(tmp, target);
    else {
      // link refuses atomically if someone created the target meanwhile
      try {
        linkSync(tmp, target);
      } catch (err) {
        if ((err as { code?: string }).code === 'EEXIST')
          throw new ConflictError(problem('file_exists', { path: target }));
        throw err;
      }
    }
  } finally {
    removeQuietly(tmp);
  }
  return { file: target, bytes: statSync(target).size };
}

function isSqliteFile(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const n = readSync(fd, head, 0, head.length, 0);
    return n === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

const bad = (p: Problem) => new ValidationError([fieldErrorOf('file', p)]);

interface BackupInfo {
  migrations: string[];
  counts: Record<string, number>;
}

/** Checks a SQLite file is a whole remit database this program can run; returns what it holds. */
async function checkBackup(file: string, shownAs: string = file): Promise<BackupInfo> {
  if (!existsSync(file) || !statSync(file).isFile())
    throw new NotFoundError(problem('backup_not_found', { path: shownAs }));
  if (!isSqliteFile(file)) throw bad(problem('backup_not_sqlite', { path: shownAs }));
  const db = openRaw(file);
  try {
    let integrity: Array<{ integrity_check: string }>;
    try {
      integrity = (await db.raw('PRAGMA integrity_check')) as Array<{ integrity_check: string }>;
    } catch (err) {
      throw bad(problem('backup_unreadable', { reason: (err as Error).message }));
    }
    if (integrity.length !== 1 || integrity[0].integrity_check !== 'ok') {
      throw bad(problem('backup_integrity', { problems: integrity.map((r) => r.integrity_check).slice(0, 3) }));
    }
    const tables = new Set(
      ((await db.raw("SELECT name FROM sqlite_master WHERE type = 'table'")) as Array<{ name: string }>).map(
        (r) => r.name,
      ),
    );
    const missing = REMIT_TABLES.filter((t) => !tables.has(t));
    if (missing.length) throw bad(problem('backup_not_remit', { tables: missing }));
    const migrations = ((await db('knex_migrations').select('name').orderBy('id')) as Array<{ name: string }>).map(
      (r) => r.name,
    );
    const known = new Set(knownMigrationNames());
    const newer = migrations.filter((m) => !known.has(m));
    if (newer.length) throw bad(problem('backup_newer', { migrations: newer }));
    const counts: Record<string, number> = {};
    for (const t of ['stores', 'users', 'payments', 'audit_log']) {
      counts[t] = Number(((await db(t).count({ n: '*' }).first()) as { n: number }).n);
    }
    // a standalone file: no -wal beside it once closed
    await db.raw('PRAGMA journal_mode = DELETE');
    return { migrations, counts };
  } finally {
    await db.destroy();
  }
}

/** Refuses while another process has the database open: leaving WAL mode needs every other connection gone. */
export async function restoreSqlite(source: string, target: string): Promise<BackupInfo> {
  if (!existsSync(source) || !statSync(source).isFile())
    throw new NotFoundError(problem('backup_not_found', { path: source }));
  if (!existsSync(dirname(target))) throw new NotFoundError(problem('database_dir_missing', { path: dirname(target) }));
  const tmp = tempBeside(target);
  let live: Knex | null = null;
  try {
    ownerOnlyEmptyFile(tmp);
    copyFileSync(source, tmp);
    chmodSync(tmp, 0o600);
    const info = await checkBackup(tmp, source);
    if (existsSync(target)) {
      live = openRaw(target);
      const busy = new ConflictError(problem('database_in_use'));
      try {
        await live.raw('PRAGMA busy_timeout = 0');
        const [mode] = (await live.raw('PRAGMA journal_mode = DELETE')) as Array<{ journal_mode: string }>;
        if (mode?.journal_mode !== 'delete') throw busy;
        await live.raw('BEGIN EXCLUSIVE');
      } catch (err) {
        if (err === busy || /SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(String((err as Error).message)))
          throw busy;
        throw err;
      }
    }
    // Holding the exclusive lock (or with no database yet): swap the file in, drop stale WAL files.
    renameSync(tmp, target);
    rmSync(`${target}-wal`, { force: true });
    rmSync(`${target}-shm`, { force: true });
    return info;
  } finally {
    if (live) {
      await live.raw('ROLLBACK').catch(() => undefined);
      await live.destroy();
    }
    removeQuietly(tmp);
  }
}
