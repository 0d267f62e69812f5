import { afterEach, describe, expect, it } from 'vitest';
import { migrateDownAll, migrateLatest, pendingMigrations } from '../core/index.js';
import { knownMigrationNames, migrateNext } from '../core/db/migrate.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

const TABLES = [
  'stores',
  'users',
  'payments',
  'audit_log',
  'payment_daily',
  'login_attempts',
  'login_throttle_notes',
  'bank_statements',
  'bank_lines',
  'bank_links',
  'reconcile_payers',
  'revoked_sessions',
  'cash_out',
  'day_closes',
];
/** every migration the program knows (test/migrations-each.test.ts checks this is the folder) */
const ALL = knownMigrationNames();

describe.each(DB_KINDS)('migrations on %s', (kind) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('go up on an empty database, down again, and up again', async () => {
    t = await createTestDb(kind, { migrate: false });
    expect(await pendingMigrations(t.db)).toEqual(ALL);
    expect(await migrateLatest(t.db)).toEqual(ALL);
    for (const table of TABLES) expect(await t.db.schema.hasTable(table), table).toBe(true);
    expect(await pendingMigrations(t.db)).toEqual([]);
    expect(await migrateLatest(t.db)).toEqual([]);

    await migrateDownAll(t.db);
    for (const table of TABLES) expect(await t.db.schema.hasTable(table), table).toBe(false);
    expect(await migrateLatest(t.db)).toEqual(ALL);
  });

  it('keeps the per-day statistics equal to the payments through inserts, updates and deletes, and backfills them', async () => {
    t = await createTestDb(kind, { migrate: false });
    expect(await migrateNext(t.db)).toEqual([ALL[0]]);
    const now = Date.now();
    const ids: number[] = [];
    for (const code of ['TPE', 'TXG']) {
      const [row] = await t.db('stores').insert({ name: code, code, created_at: now, updated_at: now }).returning('id');
      ids.push(Number(typeof row === 'object' ? row.id : row));
    }
    const [a, b] = ids;
    const day = Date.UTC(2026, 10, 18, 15, 59); // 23:59 on 11-18 in Taiwan
    const pay = (uuid: string, store: number, paid: number, amount: number, status = '未確認') => ({
      uuid,
      store_id: store,
      last_five: '12345',
      paid_at: paid,
      amount,
      status,
      note: '',
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    // before the migration: counted by its backfill
    await t.db('payments').insert([pay('old1', a, day - 86_400_000, 50), pay('old2', b, day, 70, '未入帳')]);
    expect(await migrateLatest(t.db)).toEqual(ALL.slice(1));
    // after it: counted by the triggers
    await t
      .db('payments')
      .insert([pay('p1', a, day, 100), pay('p2', a, day + 60_000, 200), pay('p3', b, day, 300, '已入帳')]);
    await t.db('payments').where({ uuid: 'p1' }).update({ status: '已入帳' });
    await t.db('payments').where({ uuid: 'p2' }).update({ store_id: b, amount: 250 });
    await t.db('payments').where({ uuid: 'p3' }).delete();

    const dayExpr = t.db.raw('((paid_at + 28800000) / 86400000)');
    const expected = await t
      .db('payments')
      .select('store_id', 'status', t.db.raw('((paid_at + 28800000) / 86400000) as day'))
      .count({ n: '*' })
      .sum({ amount: 'amount' })
      .groupBy('store_id', 'status', dayExpr);
    const daily = await t.db('payment_daily').where('n', '>', 0).select('store_id', 'status', 'day', 'n', 'amount');
    const norm = (rows: any[]) =>
      rows
        .map((r) => [Number(r.store_id), r.status, Number(r.day), Number(r.n), Number(r.amount)])
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(norm(daily)).toEqual(norm(expected));
    expect(norm(daily)).toHaveLength(4);
    // 23:59 and 00:00 in Taiwan fall on different days
    expect(
      new Set(
        norm(daily)
          .filter((r) => r[0] === a)
          .map((r) => r[2]),
      ).size,
    ).toBe(2);
  });

  it('enforces foreign keys and unique codes in the database itself', async () => {
    t = await createTestDb(kind);
    const now = Date.now();
    await t.db('stores').insert({ name: '台北店', code: 'TPE', created_at: now, updated_at: now });
    await expect(
      t.db('stores').insert({ name: '另一家', code: 'TPE', created_at: now, updated_at: now }),
    ).rejects.toThrow();
    await expect(
      t.db('payments').insert({
        uuid: 'x',
        store_id: 999,
        last_five: '12345',
        paid_at: now,
        amount: 1,
        status: '未確認',
        note: '',
        created_at: now,
        updated_at: now,
      }),
    ).rejects.toThrow();
  });
});
