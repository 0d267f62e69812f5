/**
 * payment_daily's triggers come from one description (migrations/support/dailyFigures.ts):
 * - what each migration's description produces is pinned, so a change of the generator cannot
 *   silently rewrite what an old migration created (it needs a new migration and a new pin);
 * - the triggers in force on a migrated database are exactly the generator's output for the latest
 *   description, on SQLite and on PostgreSQL;
 * - and they keep the figures right through inserts, updates (of every watched column) and deletes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../core/db/connect.js';
import { dailyFiguresSql, type DailyFigures } from '../migrations/support/dailyFigures.js';
import { taipeiDayNumber, taipeiDayStart } from '../core/time.js';
import { PAYMENT_DAILY } from '../migrations/20261127000100_daily_figures_from_time.js';
import { PAYMENT_DAILY as PAYMENT_DAILY_BY_METHOD } from '../migrations/20261127000700_payment_daily_by_method.js';
import { CASH_OUT_DAILY, PAYMENT_BLOCKS } from '../migrations/20261127002600_board_figures.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

/** Every migration that writes payment_daily's triggers from the generator, oldest first, with its pins. */
const PINNED: Array<{ migration: string; figures: DailyFigures; sqlite: string; pg: string }> = [
  {
    migration: '20261127000100_daily_figures_from_time',
    figures: PAYMENT_DAILY,
    sqlite: '6ad69d828d7e6923',
    pg: '2871de2523889a4e',
  },
  {
    migration: '20261127000700_payment_daily_by_method',
    figures: PAYMENT_DAILY_BY_METHOD,
    sqlite: '08085bfc6600623a',
    pg: '2631886a620478d3',
  },
];
const LATEST = PINNED[PINNED.length - 1].figures;

const digest = (figures: DailyFigures, dialect: 'sqlite' | 'pg') =>
  createHash('sha256')
    .update(JSON.stringify(dailyFiguresSql(figures, dialect)))
    .digest('hex')
    .slice(0, 16);
const flat = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The other tables the generator keeps (the 32-day runs and cash out per day), pinned the same way. */
const PINNED_OTHERS: Array<{ migration: string; figures: DailyFigures; sqlite: string; pg: string }> = [
  {
    migration: '20261127002600_board_figures (payment_block)',
    figures: PAYMENT_BLOCKS,
    sqlite: '5f49d0b494cc0760',
    pg: '44bd917cb2706c5c',
  },
  {
    migration: '20261127002600_board_figures (cash_out_daily)',
    figures: CASH_OUT_DAILY,
    sqlite: '8091d74928042d62',
    pg: '68520e105f5e602c',
  },
];

describe("the generator's output for each migration is history", () => {
  it.each([...PINNED, ...PINNED_OTHERS])('$migration', ({ figures, sqlite, pg }) => {
    expect({ sqlite: digest(figures, 'sqlite'), pg: digest(figures, 'pg') }).toEqual({ sqlite, pg });
  });
});

describe.each(DB_KINDS)("payment_daily's triggers in force (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => t?.cleanup());

  it("are the generator's output for the latest description", async () => {
    const pg = isPostgres(t.db);
    const expected = dailyFiguresSql(LATEST, pg ? 'pg' : 'sqlite').create;
    if (pg) {
      const fn = (
        (await t.db.raw("select pg_get_functiondef('payments_daily_apply'::regproc) as sql")) as {
          rows: Array<{ sql: string }>;
        }
      ).rows[0].sql;
      const body = (s: string) =>
        flat(s.slice(s.indexOf('$'), s.lastIndexOf('$') + 1)).replace(/\$function\$|\$\$/g, '$');
      expect(body(fn)).toBe(body(expected[0]));
      const triggers = (
        (await t.db.raw("select tgname from pg_trigger where tgrelid = 'payments'::regclass and not tgisinternal")) as {
          rows: Array<{ tgname: string }>;
        }
      ).rows.map((r) => r.tgname);
      expect(triggers.filter((n) => n.startsWith('payments_daily'))).toEqual(['payments_daily']);
    } else {
      const inForce = (
        (await t.db.raw(
          "select sql from sqlite_master where type = 'trigger' and tbl_name = 'payments' and name like 'payments_daily%' order by name",
        )) as Array<{ sql: string }>
      ).map((r) => flat(r.sql));
      expect(inForce.sort()).toEqual(expected.map(flat).sort());
    }
  });

  it('keep the figures equal to the rows through inserts, updates and deletes', async () => {
    const now = Date.now();
    const ids: number[] = [];
    for (const code of ['FA', 'FB']) {
      const [row] = await t
        .db('stores')
        .insert({ name: `${code}店`, code, created_at: now, updated_at: now })
        .returning('id');
      ids.push(Number(typeof row === 'object' ? row.id : row));
    }
    const midnight = taipeiDayStart('2026-11-19')!;
    const times = [midnight - 1, midnight, midnight + 5_000, midnight + 86_400_000 - 1];
    await t.db('payments').insert(
      times.map((ms, i) => ({
        uuid: `f-${i}`,
        store_id: ids[i % 2],
        last_five: '12345',
        paid_at: ms,
        amount: 100 * (i + 1),
        status: '未確認',
        note: '',
        created_by: null,
        created_at: now,
        updated_at: now,
      })),
    );
    await t.db('payments').where({ uuid: 'f-0' }).update({ status: '已入帳' });
    await t.db('payments').where({ uuid: 'f-1' }).update({ store_id: ids[0], amount: 250 });
    await t
      .db('payments')
      .where({ uuid: 'f-2' })
      .update({ paid_at: midnight - 10 });
    await t.db('payments').where({ uuid: 'f-3' }).delete();
    // the figures are kept by method too (a payment whose method is corrected moves)
    await t.db('payments').insert({
      uuid: 'f-4',
      store_id: ids[0],
      last_five: '',
      paid_at: midnight + 9_000,
      amount: 70,
      status: '已入帳',
      method: '現金',
      note: '',
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    await t.db('payments').where({ uuid: 'f-0' }).update({ method: '刷卡', last_five: '' });

    const rows = (await t
      .db('payments')
      .whereIn('store_id', ids)
      .select('store_id', 'status', 'method', 'paid_at', 'amount')) as Array<{
      store_id: number;
      status: string;
      method: string;
      paid_at: number | string;
      amount: number | string;
    }>;
    expect(new Set(rows.map((r) => r.method))).toEqual(new Set(['匯款', '現金', '刷卡']));
    const want = new Map<string, { n: number; amount: number }>();
    for (const r of rows) {
      const key = `${r.store_id}|${taipeiDayNumber(Number(r.paid_at))}|${r.status}|${r.method}`;
      const v = want.get(key) ?? { n: 0, amount: 0 };
      want.set(key, { n: v.n + 1, amount: v.amount + Number(r.amount) });
    }
    const daily = (await t
      .db('payment_daily')
      .whereIn('store_id', ids)
      .where('n', '>', 0)
      .select('store_id', 'day', 'status', 'method', 'n', 'amount')) as Array<Record<string, number | string>>;
    expect(
      new Map(
        daily.map((d) => [
          `${d.store_id}|${d.day}|${d.status}|${d.method}`,
          { n: Number(d.n), amount: Number(d.amount) },
        ]),
      ),
    ).toEqual(want);
    // nothing left behind: every emptied key is at zero
    const leftovers = await t.db('payment_daily').whereIn('store_id', ids).where('n', '=', 0).where('amount', '!=', 0);
    expect(leftovers).toEqual([]);
  });
});
