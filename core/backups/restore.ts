// A logical restore: in one transaction the product's tables are emptied and filled from the backup's rows,
// so readers see the old data or the new, never half, and writers wait for it or are told why they are refused.
import type { Knex } from 'knex';
import type { Db } from '../context.js';
import { isPostgres } from '../db/connect.js';
import { lockForTransaction, LOCKS } from '../db/locks.js';
import { copyTables, emptyTables, resetSequences, withoutTriggers } from './copy.js';
import { openFileReadOnly } from './files.js';
import { badRowRefusal, type OpenedBackup } from './open.js';
import { schemaAt, type TableSpec } from './schema.js';

/**
 * What a restore leaves as it is: sign-outs (a token signed out stays so), sign-in and flood limits, and the
 * installation's settings. A session whose user the backup lacks, or holds changed, ends by itself: a token
 * names its user's id, name and password version.
 */
const KEPT = new Set(['revoked_sessions', 'login_attempts', 'login_throttle_notes', 'public_limits', 'settings']);

const running = new Map<unknown, number>();
const keyOf = (db: Db) => db.client.config;

/** A restore of this process is replacing the data: a write now would only wait for it. */
export function restoreRunning(db: Db): boolean {
  return (running.get(keyOf(db)) ?? 0) > 0;
}

/** This process's restore, or on PostgreSQL another instance's (it holds the restore lock). */
export async function restoreInProgress(db: Db): Promise<boolean> {
  if (restoreRunning(db)) return true;
  if (!isPostgres(db)) return false;
  const r = (await db.raw(
    `select exists (select 1 from pg_locks where locktype = 'advisory' and granted and classid = 0 and objid = ?
       and objsubid = 1 and database = (select oid from pg_database where datname = current_database())) as held`,
    [LOCKS.restore],
  )) as { rows: Array<{ held: boolean }> };
  return Boolean(r.rows[0]?.held);
}

interface ReplaceHooks<B> {
  /** after the locks, before anything is replaced: the backup of what is there */
  before(trx: Knex.Transaction): Promise<B>;
  /** the attempt failed and rolled back: undo what `before` left outside the database */
  discard(before: B): Promise<void>;
  /** after the rows are in, in the same transaction: the audit entry */
  after(trx: Knex.Transaction, copied: Record<string, number>, before: B): Promise<void>;
}

const isDeadlock = (err: unknown) => (err as { code?: string })?.code === '40P01';

/** Replaces the data with the backup's, whole or not at all; a PostgreSQL deadlock with a writer is tried again. */
export async function replaceData<B>(
  db: Knex,
  opened: OpenedBackup,
  hooks: ReplaceHooks<B>,
): Promise<{ copied: Record<string, number>; before: B }> {
  const tables = (await schemaAt()).tables.filter((t) => !KEPT.has(t.name));
  for (let attempt = 1; ; attempt++) {
    let before: { value: B } | null = null;
    try {
      return await db.transaction(async (trx) => {
        await lockAll(trx, tables);
        // from here on a write would only wait: this instance says so at once (http/app.ts)
        return await whileRunning(db, async () => {
          before = { value: await hooks.before(trx) };
          const copied = await copyFrom(trx, opened, tables);
          await resetSequences(trx, tables);
          await hooks.after(trx, copied, before.value);
          return { copied, before: before.value };
        });
      });
    } catch (err) {
      if (before) await hooks.discard((before as { value: B }).value);
      if (!isDeadlock(err) || attempt >= 3) throw badRowRefusal(err);
    }
  }
}

async function whileRunning<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const key = keyOf(db);
  running.set(key, (running.get(key) ?? 0) + 1);
  try {
    return await fn();
  } finally {
    running.set(key, (running.get(key) ?? 1) - 1);
  }
}

/**
 * One restore at a time; on PostgreSQL the tables are locked against writers (reading goes on), who wait for
 * the commit. SQLite's transaction already holds the one writer.
 */
async function lockAll(trx: Knex.Transaction, tables: readonly TableSpec[]): Promise<void> {
  await lockForTransaction(trx, LOCKS.restore);
  if (isPostgres(trx))
    await trx.raw(
      `lock table ${tables.map(() => '??').join(', ')} in exclusive mode`,
      tables.map((t) => t.name),
    );
}

async function copyFrom(
  trx: Knex.Transaction,
  opened: OpenedBackup,
  tables: readonly TableSpec[],
): Promise<Record<string, number>> {
  const source = openFileReadOnly(opened.payload);
  try {
    return await withoutTriggers(trx, tables, async () => {
      await emptyTables(trx, tables);
      return copyTables(source, trx, tables, { untrusted: !opened.checked });
    });
  } finally {
    await source.destroy();
  }
}
