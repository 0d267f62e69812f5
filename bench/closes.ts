/**
 * Scenario 13 of `npm run bench`: the 日結總覽 board and the takings by method for 50
 * stores × 365 days over 1 000 000 payments (every method, staff purchases among them), a close
 * on nine days in ten and two cash-out entries a day, on SQLite and on PostgreSQL. Both answers
 * come from per-day figures (payment_daily by method, kept by triggers; the closes; cash out
 * summed per day in SQL), asked over HTTP from a running `remit serve`. The floor is loading the
 * payments' rows (store, time, amount, method) and summing them per store and day in JavaScript:
 * what the board would cost without the per-day figures. Goal: under 100 ms each.
 */
import knexFactory, { type Knex } from 'knex';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { migrateLatest, openDatabase, taipeiDate } from '../core/index.js';
import type { DbConfig } from '../core/db/connect.js';
import { YEAR_START } from './data.js';
import type { BenchKit } from './streaming.js';

const STORES = 50;
const DAYS = 365;
const DAY_MS = 86_400_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** 50 stores, `n` payments by the database itself (a recursive series), the closes and the cash out. */
export async function seedCloses(db: Knex, n: number): Promise<void> {
  const now = Date.now();
  const stores = Array.from({ length: STORES }, (_, i) => ({
    name: `分店${i + 1}`,
    code: `S${String(i + 1).padStart(2, '0')}`,
    created_at: now,
    updated_at: now,
  }));
  await db('stores').insert(stores);
  const ids = ((await db('stores').select('id').orderBy('id')) as Array<{ id: number }>).map((s) => Number(s.id));
  const first = ids[0];
  if (ids.at(-1) !== first + STORES - 1) throw new Error('store ids are not consecutive');
  const pg = db.client.config.client === 'pg';
  const text = (e: string) => (pg ? `(${e})::text` : `cast(${e} as text)`);
  // method: 4 in 10 transfers, 3 cash, 2 card, 1 e-payment, at every store (drawn from i / STORES: i
  // itself picks the store, and i % 10 would give each store one method only); a staff purchase in 23
  const pick = `((i / ${STORES}) * 13) % 10`;
  const method = `case when ${pick} < 4 then '匯款' when ${pick} < 7 then '現金' when ${pick} < 9 then '刷卡' else '電子支付' end`;
  await db.raw(
    `with recursive s(i) as (select cast(1 as bigint) union all select i + 1 from s where i < ?)
     insert into payments (uuid, store_id, last_five, paid_at, amount, status, note, method, employee, created_by, created_at, updated_at)
     select 'c-' || ${text('i')}, ? + (i % ${STORES}),
       case when ${pick} < 4 then ${pg ? `lpad(${text('(i * cast(7919 as bigint)) % 100000')}, 5, '0')` : `substr('0000' || ${text('(i * cast(7919 as bigint)) % 100000')}, -5)`} else '' end,
       cast(? as bigint) + ((i * cast(7919 as bigint)) % ${DAYS * 1440}) * 60000, 100 + (i * 37) % 4900,
       case when ${pick} < 4 then (case when i % 3 = 0 then '未確認' else '已入帳' end) else '已入帳' end,
       '', ${method}, ${pg ? '(i % 23 = 0)' : 'case when i % 23 = 0 then 1 else 0 end'}, null, ?, ?
     from s`,
    [n, first, YEAR_START, now, now],
  );
  await db.raw(
    `with recursive s(i) as (select cast(1 as bigint) union all select i + 1 from s where i < ?)
     insert into cash_out (store_id, at, kind, category, amount, note, after_close, created_by, created_by_username, created_at)
     select ? + (i % ${STORES}), cast(? as bigint) + (i / ${STORES * 2}) * ${DAY_MS} + 36000000 + (i % 2) * 3600000,
       case when i % 2 = 0 then '店內支出' else '提領' end, case when i % 2 = 0 then '雜支' else '' end, 50 + (i * 17) % 2000, '', ${pg ? 'false' : '0'}, null, 'bench', ?
     from s`,
    [STORES * DAYS * 2, first, YEAR_START, now],
  );
  const closes: Array<Record<string, unknown>> = [];
  for (let d = 0; d < DAYS; d++) {
    const date = taipeiDate(YEAR_START + d * DAY_MS + 3_600_000);
    for (let s = 0; s < STORES; s++) {
      if ((d * 7 + s) % 10 === 0) continue; // a day in ten not closed
      const expected = 5000 + ((d * 31 + s * 17) % 3000);
      const counted = expected + (((d + s) % 7) - 3) * 10;
      closes.push({
        store_id: first + s,
        date,
        state: 'closed',
        opening: 5000,
        opening_stated: false,
        cash_in: 0,
        cash_out: 0,
        expected,
        counted,
        difference: counted - expected,
        by_method: '{}',
        denominations: null,
        note: '',
        closed_by: null,
        closed_by_username: 'bench',
        closed_at: now,
        late_changes: 0,
      });
    }
  }
  for (let i = 0; i < closes.length; i += 500) await db('day_closes').insert(closes.slice(i, i + 500));
}

export async function benchCloses(kit: BenchKit, kind: 'SQLite' | 'PostgreSQL', pgUrl?: string): Promise<void> {
  const n = kit.quick ? 20_000 : 1_000_000;
  let config: DbConfig;
  let env: Record<string, string> = {};
  let args: string[] = [];
  let cleanup = async () => {};
  if (kind === 'PostgreSQL') {
    const schema = `remit_bench_closes_${process.pid}`;
    const admin = knexFactory({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 1 } });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.raw('create schema ??', [schema]);
    await admin.destroy();
    config = { client: 'pg', connectionString: pgUrl!, searchPath: schema };
    const url = `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    env = { DATABASE_URL: url, REMIT_JWT_SECRET: 'b7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru', HOST: '127.0.0.1' };
    cleanup = async () => {
      const a = knexFactory({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 1 } });
      await a.raw('drop schema if exists ?? cascade', [schema]);
      await a.destroy();
    };
  } else {
    const file = join(kit.work, 'closes.sqlite');
    rmSync(file, { force: true });
    config = { client: 'sqlite', filename: file };
    args = ['--db', file];
    cleanup = async () => rmSync(file, { force: true });
  }
  const db = openDatabase(config);
  try {
    await migrateLatest(db);
    const seeded = performance.now();
    await seedCloses(db, n);
    if (kind === 'PostgreSQL') await db.raw('vacuum analyze');
    else await db.raw('pragma optimize');
    process.stderr.write(
      `  13. seeded ${n.toLocaleString('en')} payments on ${kind} in ${((performance.now() - seeded) / 1000).toFixed(0)} s\n`,
    );
    const server = await kit.serve(env, args);
    const auth = { authorization: `Bearer ${server.token}` };
    const from = taipeiDate(YEAR_START + 3_600_000);
    const to = taipeiDate(YEAR_START + (DAYS - 1) * DAY_MS + 3_600_000);
    try {
      const board = async () => {
        const res = await fetch(`${server.url}/api/closes/board?from=${from}&to=${to}`, { headers: auth });
        const body = (await res.json()) as { stores: unknown[]; dates: unknown[] };
        if (res.status !== 200 || body.stores.length !== STORES || body.dates.length !== DAYS)
          throw new Error(`board: ${res.status}`);
      };
      // the dashboard's takings by method per store over the year (h26a's figures, the same per-day table)
      const byMethod = async () => {
        const res = await fetch(`${server.url}/api/stats/summary?from=${from}&to=${to}`, { headers: auth });
        const text = await res.text();
        if (res.status !== 200 || !text.includes('"by_method"')) throw new Error(`by method: ${res.status}`);
      };
      // the floor: every payment's row loaded and summed per store and day and per method in JS
      const floor = async () => {
        const rows = (await db('payments').select('store_id', 'paid_at', 'amount', 'method')) as Array<{
          store_id: number;
          paid_at: number | string;
          amount: number | string;
          method: string;
        }>;
        const cash = new Map<string, number>();
        const methods = new Map<string, number>();
        for (const r of rows) {
          const day = Math.floor((Number(r.paid_at) + 8 * 3_600_000) / DAY_MS);
          const m = `${r.store_id}|${r.method}`;
          methods.set(m, (methods.get(m) ?? 0) + Number(r.amount));
          if (r.method === '現金') {
            const k = `${r.store_id}|${day}`;
            cash.set(k, (cash.get(k) ?? 0) + Number(r.amount));
          }
        }
        return cash.size + methods.size;
      };
      for (const [name, fn] of [
        ['board', board],
        ['by method', byMethod],
      ] as const) {
        await fn();
        const ours: number[] = [];
        for (let r = 0; r < Math.max(kit.runs, 5); r++) ours.push(await timed(fn));
        const floors: number[] = [];
        await floor();
        for (let r = 0; r < kit.runs; r++) floors.push(await timed(floor));
        const o = median(ours);
        const f = median(floors);
        kit.record(
          {
            scenario: `13${name === 'board' ? 'a' : 'b'}. ${name === 'board' ? '日結總覽 board' : 'takings by method'}, ${STORES} stores × ${DAYS} days, ${n.toLocaleString('en')} payments (${kind})`,
            measured: fmt(o),
            floor: `${fmt(f)} (load the rows, sum in JS)`,
            ratio: f / o,
            goal: '< 100 ms',
            met: kit.quick ? null : o < 100,
          },
          { rows: n, ours, floor: floors },
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    await db.destroy();
    await cleanup();
  }
}
