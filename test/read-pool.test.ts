/**
 * Reads beside a write (SQLite): with the server's read pool, a payment list answers while the
 * writer holds a transaction open (an import halfway through), showing what was committed before
 * it and nothing of what it has not committed yet. On the writer's one connection the same list
 * would wait for the whole import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { openReadPool } from '../core/db/connect.js';
import { systemActor, type ServiceContext } from '../core/context.js';
import { listPayments } from '../core/payments/index.js';
import { statsSummary } from '../core/stats/service.js';
import type { Knex } from 'knex';

describe('SQLite read pool', () => {
  let t: TestDb;
  let read: Knex;
  beforeAll(async () => {
    t = await createTestDb('sqlite');
    read = openReadPool(t.config)!;
    const now = Date.now();
    const [store] = await t
      .db('stores')
      .insert({ name: '台北店', code: 'TPE', created_at: now, updated_at: now })
      .returning('id');
    const storeId = Number(typeof store === 'object' ? store.id : store);
    await t.db('payments').insert({
      uuid: 'committed-1',
      store_id: storeId,
      last_five: '01234',
      paid_at: now,
      amount: 1500,
      status: '未確認',
      note: '',
      created_by: null,
      created_at: now,
      updated_at: now,
    });
  });
  afterAll(async () => {
    await read.destroy();
    await t.cleanup();
  });

  it('lists and sums while the writer holds an import open, seeing only committed payments', async () => {
    const ctx: ServiceContext = { db: t.db, read, security: TEST_SECURITY, actor: systemActor('test') };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((r) => (inserted = r));
    const importing = t.db.transaction(async (trx) => {
      const store = (await trx('stores').first('id')) as { id: number };
      const now = Date.now();
      await trx('payments').insert({
        uuid: 'pending-1',
        store_id: store.id,
        last_five: '99999',
        paid_at: now,
        amount: 1,
        status: '未確認',
        note: '',
        created_by: null,
        created_at: now,
        updated_at: now,
      });
      inserted();
      await gate;
    });
    await insertedYet;
    const list = await listPayments(ctx, { filter: {} });
    const stats = await statsSummary(ctx, {});
    release();
    await importing;
    expect(list.rows.map((p) => p.uuid)).toEqual(['committed-1']);
    expect(stats.totalPayments).toBe(1);
    // Once committed, the next read sees it.
    expect((await listPayments(ctx, { filter: {} })).total).toBe(2);
  });

  it('refuses a write sent to a read connection', async () => {
    await expect(read('stores').update({ name: 'x' })).rejects.toThrow(/readonly|query_only|attempt to write/i);
  });
});
