/**
 * The Taiwan day in SQL comes from core/time.ts: its expression, evaluated by
 * each database, gives taipeiDayNumber's day for every instant, the last and first millisecond of
 * a Taiwan day included; and payment_daily's triggers in force (written by a migration, whose
 * text is history) compute the same expression, so the dashboard's days are time.ts's days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../core/db/connect.js';
import { MAX_INSTANT, MIN_INSTANT, taipeiDayNumber, taipeiDayNumberSql, taipeiDayStart } from '../core/time.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

const midnight = taipeiDayStart('2026-11-19')!;
/** around Taiwan midnight (16:00 UTC), the first and last days a payment may have, and a spread of others */
const INSTANTS = [
  midnight - 1,
  midnight,
  midnight + 1,
  midnight - 8 * 3_600_000,
  midnight + 16 * 3_600_000 - 1,
  MIN_INSTANT,
  MAX_INSTANT - 1,
  ...Array.from(
    { length: 40 },
    (_, i) => MIN_INSTANT + Math.floor(((MAX_INSTANT - MIN_INSTANT) / 40) * i) + i * 3_599_999,
  ),
];

describe.each(DB_KINDS)('the Taiwan day in SQL (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => t?.cleanup());
  const dialect = () => (isPostgres(t.db) ? 'pg' : 'sqlite');

  it("time.ts's expression gives taipeiDayNumber's day for every instant", async () => {
    for (const ms of INSTANTS) {
      const rows = (await t.db.raw(
        `select ${taipeiDayNumberSql(isPostgres(t.db) ? 'cast(? as bigint)' : 'cast(? as integer)', dialect())} as d`,
        [ms],
      )) as unknown;
      const row = Array.isArray(rows) ? rows[0] : (rows as { rows: Array<{ d: unknown }> }).rows[0];
      expect(Number((row as { d: unknown }).d), new Date(ms).toISOString()).toBe(taipeiDayNumber(ms));
    }
  });

  it("payment_daily's triggers count each payment on time.ts's day, and their text is time.ts's expression", async () => {
    const now = Date.now();
    const [store] = await t
      .db('stores')
      .insert({ name: '日界店', code: 'DAY', created_at: now, updated_at: now })
      .returning('id');
    const storeId = Number(typeof store === 'object' ? store.id : store);
    await t.db('payments').insert(
      INSTANTS.map((ms, i) => ({
        uuid: `d-${i}`,
        store_id: storeId,
        last_five: '12345',
        paid_at: ms,
        amount: i + 1,
        status: '未確認',
        note: '',
        created_by: null,
        created_at: now,
        updated_at: now,
      })),
    );
    const daily = (await t.db('payment_daily').where({ store_id: storeId }).select('day', 'amount')) as Array<{
      day: number | string;
      amount: number | string;
    }>;
    const expected = new Map<number, number>();
    INSTANTS.forEach((ms, i) => expected.set(taipeiDayNumber(ms), (expected.get(taipeiDayNumber(ms)) ?? 0) + i + 1));
    expect(new Map(daily.map((r) => [Number(r.day), Number(r.amount)]))).toEqual(expected);

    const definitions = isPostgres(t.db)
      ? (
          (await t.db.raw("select pg_get_functiondef('payments_daily_apply'::regproc) as sql")) as {
            rows: Array<{ sql: string }>;
          }
        ).rows.map((r) => r.sql)
      : (
          (await t.db.raw(
            "select sql from sqlite_master where type = 'trigger' and name like 'payments_daily_%'",
          )) as Array<{ sql: string }>
        ).map((r) => r.sql);
    expect(definitions.length).toBeGreaterThan(0);
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    for (const sql of definitions) {
      const uses = ['new', 'old'].filter((p) =>
        flat(sql).includes(flat(taipeiDayNumberSql(`${p}.paid_at`, dialect()))),
      );
      expect(uses.length, sql).toBeGreaterThan(0);
    }
  });
});
