// Rows from one database to another, table by table and a batch at a time, each value checked against the
// column it goes into: a backup's file is read as data only, whatever it holds.
import type { Knex } from 'knex';
import type { Db } from '../context.js';
import { isPostgres } from '../db/connect.js';
import { insertRows } from '../db/batch.js';
import type { ColumnSpec, TableSpec } from './schema.js';

/** A value that cannot go into its column: the restore stops and nothing is changed. */
export class BadRow extends Error {
  constructor(
    readonly table: string,
    readonly column: string | null,
    readonly reason: 'type' | 'too_long' | 'nul' | 'count' | 'constraint',
  ) {
    super(`${table}.${column ?? ''}: ${reason}`);
  }
}

/** A row the target's keys, foreign keys or NOT NULL refuse (SQLite's SQLITE_CONSTRAINT, PostgreSQL's class 23). */
function isConstraintError(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return code.startsWith('SQLITE_CONSTRAINT') || /^23\d{3}$/.test(code);
}

/** a batch's values in memory at most, whatever a file's rows hold */
const BATCH_BYTES = 16 << 20;
const BATCH_ROWS = 2_000;

function codePoints(s: string, max: number): number {
  return s.length <= max ? s.length : [...s].length;
}

/** The value as the target stores it, or BadRow: a number for an integer, a string within its length. */
function checked(table: string, c: ColumnSpec, v: unknown, pg: boolean): unknown {
  if (v === null || v === undefined) return null;
  const bad = (reason: BadRow['reason']) => new BadRow(table, c.name, reason);
  switch (c.kind) {
    case 'integer':
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      throw bad('type');
    case 'boolean':
      if (v === true || v === 1) return pg ? true : 1;
      if (v === false || v === 0) return pg ? false : 0;
      throw bad('type');
    case 'real':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      throw bad('type');
    case 'text':
      if (typeof v !== 'string') throw bad('type');
      if (c.max !== undefined && codePoints(v, c.max) > c.max) throw bad('too_long');
      // PostgreSQL cannot hold it, and no field of this product has one
      if (v.includes('\u0000')) throw bad('nul');
      return v;
  }
}

/** How many rows of a table make a batch: the widest row a file holds decides, so memory stays bounded. */
async function batchRows(from: Db, t: TableSpec, untrusted: boolean): Promise<number> {
  const byVars = Math.floor(30_000 / t.columns.length);
  if (!untrusted) return Math.min(BATCH_ROWS, byVars);
  const texts = t.columns.filter((c) => c.kind === 'text');
  if (!texts.length) return Math.min(BATCH_ROWS, byVars);
  const widest = (await from(t.name)
    .select(texts.map((c, i) => from.raw('max(length(??)) as ??', [c.name, `w${i}`])))
    .first()) as Record<string, number | null>;
  const rowBytes = t.columns.length * 16 + texts.reduce((sum, _c, i) => sum + 4 * Number(widest[`w${i}`] ?? 0), 0);
  return Math.max(1, Math.min(BATCH_ROWS, byVars, Math.floor(BATCH_BYTES / rowBytes)));
}

/** A table's rows in key order, `size` at a time (keyset: no OFFSET walking the table again for each batch). */
async function* batches(from: Db, t: TableSpec, size: number): AsyncGenerator<Array<Record<string, unknown>>> {
  let last: unknown[] | null = null;
  for (let page = 0; ; page++) {
    const q = from(t.name).select(t.columns.map((c) => c.name));
    if (t.key.length) {
      q.orderBy(t.key.map((column) => ({ column, order: 'asc' as const })));
      if (last)
        q.whereRaw(`(${t.key.map(() => '??').join(', ')}) > (${t.key.map(() => '?').join(', ')})`, [
          ...t.key,
          ...(last as Knex.RawBinding[]),
        ]);
    } else q.offset(page * size);
    const rows = (await q.limit(size)) as Array<Record<string, unknown>>;
    if (!rows.length) return;
    yield rows;
    if (rows.length < size) return;
    const end = rows[rows.length - 1];
    last = t.key.map((k) => end[k]);
  }
}

/**
 * Copies each table's known columns from `from` into `to` (empty tables, parents first), checking every value;
 * `untrusted`: a file's, whose rows are sized before they are read. Answers the rows copied per table.
 */
export async function copyTables(
  from: Db,
  to: Db,
  tables: readonly TableSpec[],
  opts: { untrusted?: boolean } = {},
): Promise<Record<string, number>> {
  const pg = isPostgres(to);
  const copied: Record<string, number> = {};
  for (const t of tables) {
    const size = await batchRows(from, t, Boolean(opts.untrusted));
    let n = 0;
    for await (const rows of batches(from, t, size)) {
      const out = rows.map((r) => {
        const o: Record<string, unknown> = {};
        for (const c of t.columns) o[c.name] = checked(t.name, c, r[c.name], pg);
        return o;
      });
      await insertRows(to, t.name, out).catch((err) => {
        throw isConstraintError(err) ? new BadRow(t.name, null, 'constraint') : err;
      });
      n += rows.length;
    }
    // a file's table without its key may hold a key twice, which the walk by key steps over
    const total = Number(((await from(t.name).count({ n: '*' }).first()) as { n: number | string }).n);
    if (total !== n) throw new BadRow(t.name, null, 'count');
    copied[t.name] = n;
  }
  return copied;
}

/** Empties the tables, children first. */
export async function emptyTables(db: Db, tables: readonly TableSpec[]): Promise<void> {
  for (const t of [...tables].reverse()) await db(t.name).delete();
}

/**
 * Runs `fn` with the target's own triggers held off, so figures kept by triggers are copied as the backup
 * holds them, not counted twice. Inside a transaction: SQLite's are dropped and made again, PostgreSQL's
 * disabled and enabled (a lock that lets reading go on).
 */
export async function withoutTriggers<T>(db: Db, tables: readonly TableSpec[], fn: () => Promise<T>): Promise<T> {
  if (isPostgres(db)) {
    for (const t of tables) await db.raw('alter table ?? disable trigger user', [t.name]);
    const out = await fn();
    for (const t of tables) await db.raw('alter table ?? enable trigger user', [t.name]);
    return out;
  }
  const triggers = (await db.raw(
    "select name, sql from sqlite_master where type = 'trigger' and sql is not null",
  )) as Array<{ name: string; sql: string }>;
  for (const t of triggers) await db.raw(`drop trigger ${JSON.stringify(t.name)}`);
  const out = await fn();
  for (const t of triggers) await db.raw(t.sql);
  return out;
}

/** PostgreSQL's id sequences past every id now stored, never back below one already handed out. */
export async function resetSequences(db: Db, tables: readonly TableSpec[]): Promise<void> {
  if (!isPostgres(db)) return;
  for (const t of tables) {
    for (const c of t.columns.filter((x) => x.kind === 'integer')) {
      const seq = (
        (await db.raw('select pg_get_serial_sequence(?, ?) as s', [t.name, c.name])) as {
          rows: Array<{ s: string | null }>;
        }
      ).rows[0]?.s;
      if (!seq) continue;
      const top = Number(((await db(t.name).max({ m: c.name }).first()) as { m: number | null }).m ?? 0);
      const at = (
        (await db.raw(`select last_value, is_called from ${seq}`)) as {
          rows: Array<{ last_value: number; is_called: boolean }>;
        }
      ).rows[0];
      const issued = at.is_called ? Number(at.last_value) : Number(at.last_value) - 1;
      const next = Math.max(top, issued);
      if (next >= 1) await db.raw('select setval(?, ?, true)', [seq, next]);
      else await db.raw('select setval(?, 1, false)', [seq]);
    }
  }
}
