/**
 * The board's figures (bench 13): core/db/paymentSums.ts's sums over whole Taiwan days read whole 32-day runs from
 * payment_block and the days at either end from payment_daily. They equal the payments' own sums,
 * by store, status and method, for ranges inside one run, across runs, on run edges, unbounded on
 * either side, after inserts, updates (time, store, status, method, amount) and deletes; and
 * cash_out_daily equals the cash out entries per store and day. The triggers are the generator's
 * output for the migration's descriptions, which are pinned.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyFiguresSql } from '../migrations/support/dailyFigures.js';
import { BLOCK_DAYS, paymentSums } from '../core/db/paymentSums.js';
import { taipeiDayNumber, taipeiDayNumberStart } from '../core/time.js';
import { CASH_OUT_DAILY, PAYMENT_BLOCKS } from '../migrations/20261127002600_board_figures.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

const digest = (dialect: 'sqlite' | 'pg', figures = PAYMENT_BLOCKS) =>
  createHash('sha256')
    .update(JSON.stringify(dailyFiguresSql(figures, dialect)))
    .digest('hex')
    .slice(0, 16);

describe('payment_block triggers', () => {
  it("the migration's description gives the SQL it gave when it landed (a change is a new migration)", () => {
    expect({ sqlite: digest('sqlite'), pg: digest('pg') }).toEqual({
      sqlite: '5f49d0b494cc0760',
      pg: '44bd917cb2706c5c',
    });
    expect({ sqlite: digest('sqlite', CASH_OUT_DAILY), pg: digest('pg', CASH_OUT_DAILY) }).toEqual({
      sqlite: '8091d74928042d62',
      pg: '68520e105f5e602c',
    });
  });
});

describe.each(DB_KINDS)('paymentSums on %s', (kind) => {
  let t: TestDb;
  const stores: number[] = [];
  beforeAll(async () => {
    t = await createTestDb(kind);
    const now = Date.now();
    for (const code of ['SA', 'SB']) {
      const [row] = await t
        .db('stores')
        .insert({ name: `${code}店`, code, created_at: now, updated_at: now })
        .returning('id');
      stores.push(Number(typeof row === 'object' ? row.id : row));
    }
    // 400 payments over 100 days from the start of a run, a few at each day's edges
    const start = taipeiDayNumberStart(
      Math.ceil(taipeiDayNumber(Date.parse('2026-03-01T00:00:00+08:00')) / BLOCK_DAYS) * BLOCK_DAYS,
    );
    const methods = ['匯款', '現金', '刷卡', '電子支付'];
    const statuses = ['未確認', '已入帳', '未入帳'];
    const rows = Array.from({ length: 400 }, (_, i) => ({
      uuid: `s-${i}`,
      store_id: stores[i % 2],
      last_five: '',
      paid_at: start + Math.floor(i / 4) * 86_400_000 + [0, 1, 43_200_000, 86_399_999][i % 4],
      amount: 10 + i,
      status: statuses[i % 3],
      method: methods[(i >> 1) % 4],
      note: '',
      created_by: null,
      created_at: now,
      updated_at: now,
    }));
    await t.db('payments').insert(rows);
    // the triggers through updates and deletes
    await t
      .db('payments')
      .where({ uuid: 's-5' })
      .update({ paid_at: start + 40 * 86_400_000 });
    await t
      .db('payments')
      .where({ uuid: 's-6' })
      .update({ store_id: stores[1], method: '現金', status: '已入帳', amount: 999 });
    await t.db('payments').where({ uuid: 's-7' }).delete();
  });
  afterAll(async () => t?.cleanup());

  /** the payments' own sums over whole days [first, last] */
  const direct = async (first?: number, last?: number) => {
    const rows = (await t.db('payments').select('store_id', 'status', 'method', 'paid_at', 'amount')) as Array<{
      store_id: number;
      status: string;
      method: string;
      paid_at: number | string;
      amount: number | string;
    }>;
    const out = new Map<string, { n: number; amount: number }>();
    for (const r of rows) {
      const day = taipeiDayNumber(Number(r.paid_at));
      if ((first !== undefined && day < first) || (last !== undefined && day > last)) continue;
      const k = `${r.store_id}|${r.status}|${r.method}`;
      const s = out.get(k) ?? { n: 0, amount: 0 };
      s.n += 1;
      s.amount += Number(r.amount);
      out.set(k, s);
    }
    return out;
  };
  const viaSums = async (first?: number, last?: number) =>
    new Map(
      (await paymentSums(t.db, 'all', first, last))
        .filter((s) => s.n !== 0)
        .map((s) => [`${s.store_id}|${s.status}|${s.method}`, { n: s.n, amount: s.amount }]),
    );

  it('equal the payments’ own sums for every kind of range', async () => {
    const first = taipeiDayNumber(Number((await t.db('payments').min({ m: 'paid_at' }).first())!.m));
    const ranges: Array<[number | undefined, number | undefined]> = [
      [first, first + 99],
      [first + 3, first + 10],
      [first + 5, first + 70],
      [first, first + BLOCK_DAYS - 1],
      [first + BLOCK_DAYS - 1, first + BLOCK_DAYS],
      [first + 1, first + 2 * BLOCK_DAYS],
      [undefined, first + 40],
      [first + 33, undefined],
      [undefined, undefined],
      [first + 200, first + 300],
    ];
    for (const [a, b] of ranges)
      expect([a, b, Object.fromEntries(await viaSums(a, b))]).toEqual([a, b, Object.fromEntries(await direct(a, b))]);
  });

  it('cash_out_daily equals the cash out entries per store and day through inserts, updates and deletes', async () => {
    const at = Date.parse('2026-03-10T23:59:59+08:00');
    const entry = (i: number) => ({
      store_id: stores[i % 2],
      at: at + (i % 3),
      kind: i % 2 ? '提領' : '店內支出',
      category: '',
      amount: 100 + i,
      note: '',
      after_close: false,
      created_by: null,
      created_by_username: 't',
      created_at: at,
    });
    await t.db('cash_out').insert([0, 1, 2, 3, 4].map(entry));
    const ids = ((await t.db('cash_out').select('id').orderBy('id')) as Array<{ id: number }>).map((r) => r.id);
    await t
      .db('cash_out')
      .where({ id: ids[0] })
      .update({ at: at + 1000 }); // the next Taiwan day
    await t.db('cash_out').where({ id: ids[1] }).update({ store_id: stores[0], amount: 7 });
    await t.db('cash_out').where({ id: ids[2] }).delete();
    const rows = (await t.db('cash_out').select('store_id', 'at', 'amount')) as Array<{
      store_id: number;
      at: number | string;
      amount: number;
    }>;
    const want = new Map<string, number>();
    for (const r of rows)
      want.set(
        `${r.store_id}|${taipeiDayNumber(Number(r.at))}`,
        (want.get(`${r.store_id}|${taipeiDayNumber(Number(r.at))}`) ?? 0) + Number(r.amount),
      );
    const kept = (await t.db('cash_out_daily').where('n', '>', 0).select('store_id', 'day', 'amount')) as Array<{
      store_id: number;
      day: number;
      amount: number | string;
    }>;
    expect(new Map(kept.map((r) => [`${r.store_id}|${r.day}`, Number(r.amount)]))).toEqual(want);
  });

  it('narrow to the stores asked for', async () => {
    const only = await paymentSums(t.db, [stores[0]]);
    expect(new Set(only.map((s) => s.store_id))).toEqual(new Set([stores[0]]));
  });
});
