/**
 * Every migration in migrations/, up and down, with rows in the database, on SQLite and on
 * PostgreSQL. Written over the folder: a migration added there is covered without touching this
 * file. For each one: the database as the migrations before it leave it, with rows in every
 * table; up (no row lost, the new schema takes new rows); down (the tables before are back with
 * their rows, the new ones gone); up again.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { knownMigrationNames, migrateDownOne, migrateNext } from '../core/db/migrate.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

const FOLDER = join(import.meta.dirname, '..', 'migrations');
const ON_DISK = readdirSync(FOLDER)
  .filter((f) => /^\d{14}_\w+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

async function tables(db: Knex): Promise<string[]> {
  const rows =
    db.client.config.client === 'pg'
      ? ((
          await db.raw('select table_name as name from information_schema.tables where table_schema = current_schema()')
        ).rows as Array<{ name: string }>)
      : ((await db.raw("select name from sqlite_master where type = 'table'")) as Array<{ name: string }>);
  return rows
    .map((r) => r.name)
    .filter((n) => !/^(knex_|sqlite_)/.test(n))
    .sort();
}

async function counts(db: Knex): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of await tables(db))
    out[t] = Number(((await db(t).count({ n: '*' })) as Array<{ n: number | string }>)[0].n);
  return out;
}

/** Referenced rows first, so foreign keys hold. */
const ORDER = ['stores', 'users', 'payments', 'bank_statements', 'bank_lines'];

/**
 * One plausible row for each table: known columns get meaningful values, any other required
 * column (one a later migration added) a value of its type; ids of stores, users and payments
 * point at rows that exist.
 */
async function fillOnce(db: Knex, n: number): Promise<void> {
  const now = Date.UTC(2026, 10, 18, 2, 0) + n * 60_000;
  const refs: Record<string, unknown> = {};
  const present = await tables(db);
  const ordered = [...ORDER.filter((t) => present.includes(t)), ...present.filter((t) => !ORDER.includes(t))];
  for (const table of ordered) {
    const info = await db(table).columnInfo();
    const row: Record<string, unknown> = {};
    for (const [col, c] of Object.entries(info)) {
      const known: Record<string, unknown> = {
        name: `分店${n}`,
        code: `S${n}`,
        username: `user${n}`,
        password_hash: '$2b$10$abcdefghijklmnopqrstuv',
        role: 'user',
        permissions: '[]',
        accessible_stores: '[]',
        uuid: `mig-${table}-${n}`,
        last_five: String(10000 + n),
        paid_at: now,
        amount: 100 + n,
        status: '未確認',
        note: `第 ${n} 筆`,
        actor_username: 'migration-test',
        action: 'create',
        entity: 'payment',
        ip: '127.0.0.1',
        at: now,
        created_at: now,
        updated_at: now,
        day: 20_000 + n,
      };
      if (col === 'id' && table in { stores: 1, users: 1 }) continue;
      if (col === 'store_id' && refs.store_id !== undefined) row[col] = refs.store_id;
      else if (/^(created_by|user_id|actor_id)$/.test(col) && refs.user_id !== undefined) row[col] = refs.user_id;
      else if (col === 'payment_uuid' && refs.payment_uuid !== undefined) row[col] = refs.payment_uuid;
      else if (col === 'statement_id' && refs.statement_id !== undefined) row[col] = refs.statement_id;
      else if (col === 'line_id' && refs.line_id !== undefined) row[col] = refs.line_id;
      else if (col in known) row[col] = known[col];
      else if (c.nullable || c.defaultValue !== null || col === 'id') continue;
      else if (/int|serial|numeric|real|double|float|decimal/i.test(c.type)) row[col] = n;
      else if (/bool/i.test(c.type)) row[col] = false;
      else if (/json/i.test(c.type)) row[col] = '{}';
      else row[col] = `v${n}`.slice(0, Number(c.maxLength) || 100);
      if (typeof row[col] === 'string' && c.maxLength) row[col] = (row[col] as string).slice(0, Number(c.maxLength));
    }
    if (table === 'payment_daily') continue; // kept by triggers from payments
    try {
      const [ret] = await db(table)
        .insert(row)
        .returning(table in { stores: 1, users: 1 } ? 'id' : '*');
      if (table === 'stores') refs.store_id = Number(typeof ret === 'object' ? ret.id : ret);
      if (table === 'users') refs.user_id = Number(typeof ret === 'object' ? ret.id : ret);
      if (table === 'payments') refs.payment_uuid = row.uuid;
      if (table === 'bank_statements') refs.statement_id = Number(ret.id);
      if (table === 'bank_lines') refs.line_id = Number(ret.id);
    } catch (err) {
      throw new Error(
        `cannot put a row into ${table} (${JSON.stringify(row)}): give fillOnce in test/migrations-each.test.ts a value for its columns\n${err}`,
      );
    }
  }
}

describe('the migrations folder', () => {
  it('is exactly the list the program runs', () => {
    expect(knownMigrationNames()).toEqual(ON_DISK);
  });
});

describe.each(DB_KINDS)('each migration up and down with rows, on %s', (kind) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it.each(ON_DISK.map((name, i) => [name, i] as const))('%s', async (name, i) => {
    t = await createTestDb(kind, { migrate: false });
    for (let k = 0; k < i; k++) await migrateNext(t.db);
    await fillOnce(t.db, 1);
    const before = await counts(t.db);

    expect(await migrateNext(t.db)).toEqual([name]);
    const up = await counts(t.db);
    for (const [table, n] of Object.entries(before)) expect(up[table], `${table} after up`).toBeGreaterThanOrEqual(n);
    await fillOnce(t.db, 2);

    expect(await migrateDownOne(t.db)).toEqual([name]);
    const down = await counts(t.db);
    expect(Object.keys(down).sort()).toEqual(Object.keys(before).sort());
    for (const [table, n] of Object.entries(before))
      expect(down[table], `${table} after down`).toBeGreaterThanOrEqual(n);
    if ('payments' in before)
      expect(await t.db('payments').where({ uuid: 'mig-payments-1' }).first('note')).toEqual({ note: '第 1 筆' });

    expect(await migrateNext(t.db)).toEqual([name]);
  });
});
