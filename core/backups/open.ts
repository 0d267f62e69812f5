// Reading a backup before anything is replaced: the format (this one, or a database file as `remit backup`
// wrote before), its integrity, that it is this product's and not newer, what it holds. An older schema is
// brought forward on a copy of its rows; nothing of the file runs but its rows read as data.
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { NotFoundError, problem } from '../errors.js';
import { knownMigrationNames, migrateLatest, migrateTo } from '../db/migrate.js';
import { BadRow, copyTables, withoutTriggers } from './copy.js';
import { openFileReadOnly, openScratch } from './files.js';
import { sniff, unwrap, type BackupCounts } from './format.js';
import { refusal } from './refusals.js';
import { schemaAt, type SchemaSpec } from './schema.js';
import { countRows } from './take.js';

export interface BackupInfo {
  /** `remit-backup`: this format; `sqlite`: a database file, as `remit backup` wrote them before */
  format: 'remit-backup' | 'sqlite';
  /** ISO instant; null for a database file, which does not say */
  taken_at: string | null;
  database: 'sqlite' | 'postgres' | null;
  migrations: string[];
  /** the newest migration it has: its schema's version */
  schema: string;
  /** an older schema, brought forward to this program's on a copy */
  upgraded: boolean;
  counts: BackupCounts;
  sha256: string | null;
  bytes: number;
}

export interface OpenedBackup {
  info: BackupInfo;
  /** a SQLite file at this program's schema, to copy the rows from */
  payload: string;
  /** written by this program (an upgraded copy): its rows were checked once already */
  checked: boolean;
  close(): Promise<void>;
}

/** 4 GiB once unpacked: a small chain's years of payments fit many times over; past it, a file made to fill a disk */
const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024 * 1024;
const REQUIRED = ['knex_migrations', 'stores', 'users', 'payments', 'audit_log'];

/** A file's rows that cannot go where they belong, as a refusal naming the table. */
export function badRowRefusal(err: unknown): unknown {
  return err instanceof BadRow
    ? refusal('backup_bad_rows', { table: err.table, column: err.column, reason: err.reason })
    : err;
}

async function integrity(db: Knex): Promise<void> {
  let rows: Array<{ integrity_check: string }>;
  try {
    rows = (await db.raw('PRAGMA integrity_check')) as Array<{ integrity_check: string }>;
  } catch (err) {
    throw refusal('backup_unreadable', { reason: (err as Error).message });
  }
  if (rows.length !== 1 || rows[0].integrity_check !== 'ok')
    throw refusal('backup_integrity', { problems: rows.map((r) => r.integrity_check).slice(0, 3) });
}

async function migrationsOf(db: Knex, tables: Set<string>): Promise<string[]> {
  if (!tables.has('knex_migrations'))
    throw refusal('backup_not_remit', { tables: REQUIRED.filter((t) => !tables.has(t)) });
  const names = ((await db('knex_migrations').select('name').orderBy('id')) as Array<{ name: unknown }>).map((r) =>
    String(r.name),
  );
  const known = knownMigrationNames();
  const newer = names.filter((n) => !known.includes(n));
  if (newer.length) throw refusal('backup_newer', { migrations: newer.slice(0, 5) });
  if (!names.length) throw refusal('backup_not_remit', { tables: ['knex_migrations'] });
  if (names.some((n, i) => known[i] !== n)) throw refusal('backup_odd_schema', { tables: ['knex_migrations'] });
  return names;
}

/** Each known table an ordinary table of the file, with every known column plain (none computed when read). */
async function checkTables(
  db: Knex,
  spec: SchemaSpec,
  master: Array<{ type: string; name: string; sql: string | null }>,
) {
  const missing: string[] = [];
  const odd: string[] = [];
  for (const t of spec.tables) {
    const entry = master.find((m) => m.name.toLowerCase() === t.name);
    if (!entry) {
      missing.push(t.name);
      continue;
    }
    if (entry.type !== 'table' || /^\s*create\s+virtual/i.test(entry.sql ?? '')) {
      odd.push(t.name);
      continue;
    }
    const cols = (await db.raw(`pragma table_xinfo(${JSON.stringify(t.name)})`)) as Array<{
      name: string;
      hidden: number;
    }>;
    const byName = new Map(cols.map((c) => [c.name.toLowerCase(), c.hidden]));
    if (t.columns.some((c) => byName.get(c.name) !== 0)) odd.push(t.name);
  }
  if (missing.length) throw refusal('backup_not_remit', { tables: missing });
  if (odd.length) throw refusal('backup_odd_schema', { tables: odd });
}

/** What a SQLite file holds, refused unless it is a whole database of this product at a schema this program knows. */
async function inspect(file: string): Promise<{ migrations: string[]; counts: BackupCounts }> {
  const db = openFileReadOnly(file);
  try {
    await integrity(db);
    const master = (await db.raw('select type, name, sql from sqlite_master')) as Array<{
      type: string;
      name: string;
      sql: string | null;
    }>;
    const tables = new Set(master.filter((m) => m.type === 'table').map((m) => m.name.toLowerCase()));
    const migrations = await migrationsOf(db, tables);
    await checkTables(db, await schemaAt(migrations), master);
    return { migrations, counts: await countRows(db) };
  } finally {
    await db.destroy();
  }
}

/** An older backup's rows, copied into a database made at its schema, then migrated as any database is. */
async function upgrade(file: string, migrations: string[], out: string): Promise<void> {
  const spec = await schemaAt(migrations);
  await writeFile(out, '', { mode: 0o600, flag: 'wx' });
  const source = openFileReadOnly(file);
  const target = openScratch(out);
  try {
    await migrateTo(target, migrations);
    await target.transaction((trx) =>
      withoutTriggers(trx, spec.tables, () => copyTables(source, trx, spec.tables, { untrusted: true })),
    );
    await migrateLatest(target);
  } catch (err) {
    throw badRowRefusal(err);
  } finally {
    await Promise.all([source.destroy(), target.destroy()]);
  }
}

/**
 * Opens a backup file for a restore: checked whole, and brought to this program's schema if older.
 * `workDir` takes the unpacked copy (its disk checked first); `shownAs` names the file in messages.
 */
export async function openBackup(
  file: string,
  opts: { workDir: string; shownAs?: string; maxPayloadBytes?: number; keepFree?: number },
): Promise<OpenedBackup> {
  const shownAs = opts.shownAs ?? file;
  if (!existsSync(file) || !statSync(file).isFile())
    throw new NotFoundError(problem('backup_not_found', { path: shownAs }));
  const kind = sniff(file);
  if (kind === 'other') throw refusal('backup_not_backup', { path: shownAs });
  const work = await mkdtemp(join(opts.workDir, '.remit-restore-'));
  const close = () => rm(work, { recursive: true, force: true });
  try {
    let payload = file;
    const header =
      kind === 'wrapped'
        ? await unwrap(file, (payload = join(work, 'payload.sqlite')), {
            shownAs,
            maxPayloadBytes: opts.maxPayloadBytes ?? MAX_PAYLOAD_BYTES,
            keepFree: opts.keepFree,
          })
        : null;
    const { migrations, counts } = await inspect(payload);
    const differs = (Object.keys(counts) as Array<keyof BackupCounts>).some((k) => header?.counts[k] !== counts[k]);
    if (header && (header.migrations.join('\n') !== migrations.join('\n') || differs)) throw refusal('backup_tampered');
    const upgraded = migrations.length < knownMigrationNames().length;
    if (upgraded) await upgrade(payload, migrations, (payload = join(work, 'upgraded.sqlite')));
    const info: BackupInfo = {
      format: header ? 'remit-backup' : 'sqlite',
      taken_at: header?.taken_at ?? null,
      database: header?.database ?? null,
      migrations,
      schema: migrations[migrations.length - 1],
      upgraded,
      counts,
      sha256: header?.payload_sha256 ?? null,
      bytes: statSync(file).size,
    };
    return { info, payload, checked: upgraded, close };
  } catch (err) {
    await close();
    throw err;
  }
}
