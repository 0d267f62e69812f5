/**
 * The migrations with rows on both databases: every payment stored before methods becomes
 * 匯款 (with its last five, status and figures as they were), the per-day figures gain the method
 * and keep their sums, and going down puts back the figures by store, day and status, every payment kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { knownMigrationNames, migrateDownOne, migrateNext } from '../core/db/migrate.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

const METHODS = '20261127000500_payment_methods';
const CASH = '20261127000600_cash_and_closes';
const BY_METHOD = '20261127000700_payment_daily_by_method';

describe.each(DB_KINDS)('the payment methods migrations on %s', (kind) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('make every stored payment a 匯款, keep the figures by method, and come back down with every row', async () => {
    t = await createTestDb(kind, { migrate: false });
    const db = t.db;
    const names = knownMigrationNames();
    // up to the migration before the methods
    while (true) {
      const pending = names.filter((n) => n < METHODS);
      const applied = (await db('knex_migrations')
        .select('name')
        .catch(() => [])) as Array<{ name: string }>;
      if (applied.length >= pending.length) break;
      await migrateNext(db);
    }
    const now = Date.UTC(2026, 10, 20, 2, 0);
    const [store] = await db('stores')
      .insert({ name: '台北店', code: 'TPE', created_at: now, updated_at: now })
      .returning('id');
    const storeId = Number(typeof store === 'object' ? store.id : store);
    const payments = [
      {
        uuid: 'm-1',
        store_id: storeId,
        last_five: '01234',
        paid_at: now,
        amount: 1500,
        status: '未確認',
        note: '',
        created_by: null,
        created_at: now,
        updated_at: now,
      },
      {
        uuid: 'm-2',
        store_id: storeId,
        last_five: '56789',
        paid_at: now + 60_000,
        amount: 800,
        status: '已入帳',
        note: '早班',
        created_by: null,
        created_at: now,
        updated_at: now,
      },
      {
        uuid: 'm-3',
        store_id: storeId,
        last_five: '11111',
        paid_at: now - 86_400_000,
        amount: 50,
        status: '未入帳',
        note: '',
        created_by: null,
        created_at: now,
        updated_at: now,
      },
    ];
    await db('payments').insert(payments);
    const dailyBefore = (
      await db('payment_daily').orderBy(['day', 'status']).select('store_id', 'day', 'status', 'n', 'amount')
    ).map((r) => ({ ...r, n: Number(r.n), amount: Number(r.amount) }));
    expect(dailyBefore.reduce((s, r) => s + r.amount, 0)).toBe(2350);

    expect(await migrateNext(db)).toEqual([METHODS]);
    expect(await migrateNext(db)).toEqual([CASH]);
    expect(await migrateNext(db)).toEqual([BY_METHOD]);
    const after = (await db('payments')
      .orderBy('uuid')
      .select('uuid', 'last_five', 'status', 'amount', 'method', 'method_detail', 'employee')) as Array<
      Record<string, unknown>
    >;
    expect(
      after.map((p) => [
        p.uuid,
        p.last_five,
        p.status,
        Number(p.amount),
        p.method,
        p.method_detail,
        Boolean(p.employee),
      ]),
    ).toEqual([
      ['m-1', '01234', '未確認', 1500, '匯款', null, false],
      ['m-2', '56789', '已入帳', 800, '匯款', null, false],
      ['m-3', '11111', '未入帳', 50, '匯款', null, false],
    ]);
    const dailyUp = (
      await db('payment_daily').orderBy(['day', 'status']).select('store_id', 'day', 'status', 'method', 'n', 'amount')
    ).map((r) => ({ ...r, n: Number(r.n), amount: Number(r.amount) }));
    expect(dailyUp).toEqual(dailyBefore.map((r) => ({ ...r, method: '匯款' })));

    // the figures follow a cash sale and a method corrected, by method
    await db('payments').insert({
      uuid: 'm-4',
      store_id: storeId,
      last_five: '',
      paid_at: now + 120_000,
      amount: 320,
      status: '已入帳',
      method: '現金',
      note: '',
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    await db('payments').where({ uuid: 'm-2' }).update({ method: '刷卡', last_five: '' });
    const byMethod = (await db('payment_daily')
      .where('n', '>', 0)
      .groupBy('method')
      .select('method')
      .sum({ amount: 'amount' })) as Array<{ method: string; amount: number | string }>;
    expect(Object.fromEntries(byMethod.map((r) => [r.method, Number(r.amount)]))).toEqual({
      匯款: 1550,
      現金: 320,
      刷卡: 800,
    });

    expect(await migrateDownOne(db)).toEqual([BY_METHOD]);
    const dailyDown = (
      await db('payment_daily')
        .where('n', '>', 0)
        .orderBy(['day', 'status'])
        .select('store_id', 'day', 'status', 'n', 'amount')
    ).map((r) => ({ ...r, n: Number(r.n), amount: Number(r.amount) }));
    expect(dailyDown.reduce((s, r) => s + r.amount, 0)).toBe(2670);
    expect(await migrateDownOne(db)).toEqual([CASH]);
    expect(await migrateDownOne(db)).toEqual([METHODS]);
    const cols = Object.keys(await db('payments').columnInfo());
    expect(cols).not.toContain('method');
    expect(cols).not.toContain('employee');
    expect(Number(((await db('payments').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(4);
    // the by-status triggers still keep the figures
    await db('payments').where({ uuid: 'm-1' }).update({ status: '已入帳' });
    const credited = (await db('payment_daily').where({ status: '已入帳' }).sum({ amount: 'amount' }).first()) as {
      amount: number | string;
    };
    expect(Number(credited.amount)).toBe(1500 + 800 + 320);
    // and up again
    expect(await migrateNext(db)).toEqual([METHODS]);
    expect(await migrateNext(db)).toEqual([CASH]);
    expect(await migrateNext(db)).toEqual([BY_METHOD]);
    expect(((await db('payments').distinct('method')) as Array<{ method: string }>).map((r) => r.method)).toEqual([
      '匯款',
    ]);
  });
});
