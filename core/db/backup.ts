/**
 * Backup and restore of the SQLite database. A backup is `VACUUM INTO` on the live database: a
 * consistent snapshot taken in one read transaction while the server keeps writing. A restore
 * checks a copy of the file beside the database, then renames it into place while holding an
 * exclusive lock, so nobody is left reading a half-written file.
 */
import { chmodSync, closeSync, existsSync, fchmodSync, linkSync, openSync, readSync, renameSync, rmSync, statSync, copyFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { knownMigrationNames } from './migrate.js';

/** Tables every remit database holds. */
export const REMIT_TABLES = ['stores', 'users', 'payments', 'audit_log', 'knex_migrations'] as const;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** A database handle on one file, with no waiting for locks (a busy database answers at once). */
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

/**
 * Writes a consistent copy of the live database to `target`. Refuses an existing target unless
 * `force`; the copy is written beside it first, so a failure never leaves half a file there.
 */
export async function backupSqlite(db: Knex, target: string, opts: { force?: boolean } = {}): Promise<{ file: string; bytes: number }> {
  if (!existsSync(dirname(target))) throw new NotFoundError(`備份目錄不存在：${dirname(target)}`);
  if (existsSync(target) && !opts.force) throw new ConflictError(`檔案已存在：${target}（要覆蓋請加 --force）`);
  const tmp = tempBeside(target);
  try {
    // Password hashes and every payment: the owner's eyes only, from the first byte. The file is
    // made empty and 0600 before SQLite writes into it (VACUUM INTO takes an empty file), so no
    // one can open it while the copy is written.
    ownerOnlyEmptyFile(tmp);
    await db.raw('VACUUM INTO ?', [tmp]);
    chmodSync(tmp, 0o600);
    if (opts.force) renameSync(tmp, target);
    else {
      // link refuses atomically if someone created the target meanwhile
      try {
        linkSync(tmp, target);
      } catch (err) {
        if ((err as { code?: string }).code === 'EEXIST') throw new ConflictError(`檔案已存在：${target}（要覆蓋請加 --force）`);
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

const bad = (message: string) => ValidationError.single('file', message);

/** What a restore found in the backup file. */
export interface BackupInfo {
  migrations: string[];
  counts: Record<string, number>;
}

/** Checks a SQLite file is a whole remit database this program can run; returns what it holds. */
export async function checkBackup(file: string, shownAs: string = file): Promise<BackupInfo> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new NotFoundError(`找不到備份檔：${shownAs}`);
  if (!isSqliteFile(file)) throw bad(`不是 SQLite 資料庫檔案：${shownAs}`);
  const db = openRaw(file);
  try {
    let integrity: Array<{ integrity_check: string }>;
    try {
      integrity = (await db.raw('PRAGMA integrity_check')) as Array<{ integrity_check: string }>;
    } catch (err) {
      throw bad(`備份檔已損壞，無法讀取：${(err as Error).message}`);
    }
    if (integrity.length !== 1 || integrity[0].integrity_check !== 'ok') {
      throw bad(`備份檔未通過完整性檢查：${integrity.map((r) => r.integrity_check).slice(0, 3).join('；')}`);
    }
    const tables = new Set(((await db.raw("SELECT name FROM sqlite_master WHERE type = 'table'")) as Array<{ name: string }>).map((r) => r.name));
    const missing = REMIT_TABLES.filter((t) => !tables.has(t));
    if (missing.length) throw bad(`不是 remit 的資料庫（缺少資料表：${missing.join('、')}）`);
    const migrations = ((await db('knex_migrations').select('name').orderBy('id')) as Array<{ name: string }>).map((r) => r.name);
    const known = new Set(knownMigrationNames());
    const newer = migrations.filter((m) => !known.has(m));
    if (newer.length) throw bad(`備份來自較新版本的 remit（未知的資料庫遷移：${newer.join('、')}），請先更新程式`);
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

/**
 * Puts a checked backup in place of the database file `target`. Refuses while another process
 * has the database open (a running server): leaving WAL mode needs every other connection gone.
 */
export async function restoreSqlite(source: string, target: string): Promise<BackupInfo> {
  if (!existsSync(source) || !statSync(source).isFile()) throw new NotFoundError(`找不到備份檔：${source}`);
  if (!existsSync(dirname(target))) throw new NotFoundError(`資料庫目錄不存在：${dirname(target)}`);
  const tmp = tempBeside(target);
  let live: Knex | null = null;
  try {
    ownerOnlyEmptyFile(tmp);
    copyFileSync(source, tmp);
    chmodSync(tmp, 0o600);
    const info = await checkBackup(tmp, source);
    if (existsSync(target)) {
      live = openRaw(target);
      const busy = new ConflictError('資料庫正在使用中（例如伺服器正在執行）：請先停止伺服器再還原');
      try {
        await live.raw('PRAGMA busy_timeout = 0');
        const [mode] = (await live.raw('PRAGMA journal_mode = DELETE')) as Array<{ journal_mode: string }>;
        if (mode?.journal_mode !== 'delete') throw busy;
        await live.raw('BEGIN EXCLUSIVE');
      } catch (err) {
        if (err === busy || /SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(String((err as Error).message))) throw busy;
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
