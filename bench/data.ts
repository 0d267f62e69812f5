/**
 * Deterministic synthetic data for the benchmarks: a fixed seed, 4 stores, realistic amounts
 * (mostly a few hundred to a few thousand NT$, some large), times spread over a year.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import * as XLSX from 'xlsx';
import { formatTaipei } from '../core/index.js';
import { HEADERS, SHEET_NAME } from '../core/payments/sheetFile.js';
import { type PaymentRow } from '../core/payments/rows.js';

export const STORES = [
  { name: '台北店', code: 'TPE' },
  { name: '台中店', code: 'TXG' },
  { name: '高雄店', code: 'KHH' },
  { name: '新竹店', code: 'HSZ' },
];
const STATUSES = ['未確認', '已入帳', '已入帳', '已入帳', '未入帳'] as const;
export const YEAR_START = Date.UTC(2025, 10, 1) - 8 * 3600_000; // 2025-11-01 Taiwan
const YEAR_MS = 365 * 24 * 3600_000;

/** mulberry32: a small, fast, seeded generator */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenPayment {
  store: number; // index into STORES
  last_five: string;
  paid_at: number;
  amount: number;
  status: (typeof STATUSES)[number];
  note: string;
}

export function* payments(n: number, seed = 42): Generator<GenPayment> {
  const r = rng(seed);
  for (let i = 0; i < n; i++) {
    const big = r() < 0.05;
    yield {
      store: Math.floor(r() * STORES.length),
      last_five: String(Math.floor(r() * 100000)).padStart(5, '0'),
      paid_at: YEAR_START + Math.floor((r() * YEAR_MS) / 60_000) * 60_000,
      amount: big ? 10_000 + Math.floor(r() * 90_000) : 100 + Math.floor(r() * 4_900),
      status: STATUSES[Math.floor(r() * STATUSES.length)],
      note: r() < 0.2 ? `備註${i}` : '',
    };
  }
}

/** The stores, then `n` payments inserted in large batches (the fastest honest way to fill a table). */
export async function seedDatabase(db: Knex, n: number, seed = 42): Promise<number[]> {
  const now = Date.now();
  const ids: number[] = [];
  for (const s of STORES) {
    const existing = await db('stores').where({ code: s.code }).first('id');
    if (existing) ids.push(Number(existing.id));
    else {
      const [row] = await db('stores')
        .insert({ ...s, created_at: now, updated_at: now })
        .returning('id');
      ids.push(Number(typeof row === 'object' ? row.id : row));
    }
  }
  const batch: PaymentRow[] = [];
  const flush = async (trx: Knex.Transaction) => {
    if (batch.length) await trx('payments').insert(batch.splice(0));
  };
  await db.transaction(async (trx) => {
    for (const p of payments(n, seed)) {
      batch.push({
        uuid: randomUUID(),
        store_id: ids[p.store],
        last_five: p.last_five,
        paid_at: p.paid_at,
        amount: p.amount,
        status: p.status,
        note: p.note,
        created_by: null,
        created_at: now,
        updated_at: now,
      });
      if (batch.length >= 500) await flush(trx);
    }
    await flush(trx);
  });
  return ids;
}

/** An import workbook of `n` rows in the spec's columns (time as text, as people type it). */
export function importWorkbook(n: number, seed = 7): Uint8Array {
  const rows: unknown[][] = [HEADERS];
  for (const p of payments(n, seed)) {
    const time = formatTaipei(p.paid_at);
    rows.push([
      time.slice(0, 10),
      { t: 's', v: p.last_five, z: '@' },
      time,
      p.amount,
      p.note,
      STORES[p.store].code,
      p.status === '已入帳' ? '已點收' : '',
    ]);
  }
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows, { dense: true }), SHEET_NAME);
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer);
}

/**
 * `n` more payments made by the database itself (a recursive series, one INSERT … SELECT), for
 * sizes where inserting from JavaScript would take minutes: the same 4 stores, statuses spread,
 * one payment a minute backwards from the end of the year, a note on every fifth. SQLite and
 * PostgreSQL alike. `tag` keeps the uuids of separate calls apart.
 */
export async function seedDatabaseFast(db: Knex, n: number, tag = 'f'): Promise<void> {
  const ids = await seedDatabase(db, 0);
  const now = Date.now();
  const pg = db.client.config.client === 'pg';
  const text = (e: string) => (pg ? `(${e})::text` : `cast(${e} as text)`);
  const pick = (list: readonly (string | number)[], e: string) =>
    `case ${list.map((v, i) => `when ${e} = ${i} then ${typeof v === 'number' ? v : `'${v}'`}`).join(' ')} end`;
  await db.raw(
    `with recursive s(i) as (select 1 union all select i + 1 from s where i < ?)
     insert into payments (uuid, store_id, last_five, paid_at, amount, status, note, created_by, created_at, updated_at)
     select ? || ${text('i')}, ${pick(ids, '(i % 4)')}, ${pg ? `lpad(${text('(i * cast(7919 as bigint)) % 100000')}, 5, '0')` : `substr('0000' || ${text('(i * cast(7919 as bigint)) % 100000')}, -5)`},
       cast(? as bigint) - i * cast(60000 as bigint), 100 + (i * 37) % 4900, ${pick(STATUSES, '(i % 5)')},
       case when i % 5 = 0 then '備註' || ${text('i')} else '' end, null, ?, ?
     from s`,
    [n, `${tag}-`, YEAR_START + YEAR_MS, now, now],
  );
}
