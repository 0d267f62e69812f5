/**
 * A payment sent from the form while a large import holds the database: on SQLite, `remit import`
 * in another process holds the one writer; on PostgreSQL, an import holds the import lock, and a
 * submission cannot be checked against rows not yet committed. Either way the payment waits for
 * it (10 s), then, if the import is still writing, is refused with a message that says what
 * happened and that nothing was stored (503, Retry-After), never a bare 500; sent again once the
 * import is done, it is stored.
 */
import sqlite3 from 'sqlite3';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../core/index.js';
import { LOCKS } from '../../core/db/locks.js';
import { DB_KINDS, PG_URL } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Holds what an import holds, from a connection of its own, until `release`. */
async function holdLikeAnImport(s: TestServer): Promise<() => Promise<void>> {
  if (s.t.kind === 'sqlite') {
    const db = new sqlite3.Database(s.t.where);
    const exec = (sql: string) => new Promise<void>((res, rej) => db.exec(sql, (e) => (e ? rej(e) : res())));
    await exec('PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE');
    return async () => {
      await exec('ROLLBACK');
      await new Promise<void>((res) => db.close(() => res()));
    };
  }
  const pg = knexFactory({ client: 'pg', connection: PG_URL, pool: { min: 1, max: 1 } });
  const trx = await pg.transaction();
  await trx.raw('select pg_advisory_xact_lock(?)', [LOCKS.import]);
  return async () => {
    await trx.rollback();
    await pg.destroy();
  };
}

describe.each(DB_KINDS)('a payment sent while an import holds the database (%s)', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());

  const count = async () =>
    Number(((await s.t.db('payments').where({ amount: 4321 }).count({ n: '*' }).first()) as { n: number | string }).n);

  it('answers 503 資料庫正在寫入… with Retry-After, stores nothing, and is stored when sent again', async () => {
    const payment = {
      last_five: '24680',
      paid_at: '2026-11-20T10:15',
      amount: 4321,
      store_id: s.stores.A.id,
      note: '匯入時回報',
    };
    const release = await holdLikeAnImport(s);
    try {
      const refused = await s.api('POST', '/payments', { as: 'admin', body: payment });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ message: MSG.databaseBusy, request_id: expect.any(String) });
      expect(refused.headers.get('retry-after')).toBe('10');
    } finally {
      await release();
    }
    expect(await count()).toBe(0);
    const stored = await s.api('POST', '/payments', { as: 'admin', body: payment });
    expect(stored.status).toBe(201);
    expect(await count()).toBe(1);
    expect(s.errors).toEqual([]);
  }, 60_000);
});
