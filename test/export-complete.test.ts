/**
 * The streamed export reads the database in keyset pages: on SQLite and
 * on PostgreSQL alike, a set of several pages, with many payments sharing a time across each
 * page boundary, comes out whole, each payment once, newest first with the uuid breaking ties,
 * exactly as the database orders it.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { exportPaymentsStream, storeLabel, systemActor } from '../core/index.js';
import { EXPORT_BATCH } from '../core/payments/exportPages.js';
import { seedDatabaseFast } from '../bench/data.js';
import { toPayment, type PaymentRow } from '../core/payments/rows.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from './helpers/db.js';

const ROWS = 2 * EXPORT_BATCH + 2_345;
/** Seven payments share each time, so ties straddle every page boundary. */
const TIE_MS = 7 * 60_000;

async function text(body: AsyncIterable<Uint8Array | string>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
  return Buffer.concat(parts).toString('utf8');
}

describe.each(DB_KINDS)('export of several pages (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await seedDatabaseFast(t.db, ROWS, 'x');
    await t.db.raw('update payments set paid_at = paid_at - (paid_at % ?)', [TIE_MS]);
  }, 120_000);
  afterAll(async () => t?.cleanup());

  const ctx = () => ({ db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null });

  it('writes every payment once, in the database order (paid_at, then uuid, newest first)', async () => {
    const expected = (
      (await t.db('payments').select('uuid').orderBy('paid_at', 'desc').orderBy('uuid', 'desc')) as Array<{
        uuid: string;
      }>
    ).map((r) => r.uuid);
    expect(expected.length).toBe(ROWS);
    const ties = (await t.db('payments').countDistinct({ n: 'paid_at' }).first()) as { n: number | string };
    expect(Number(ties.n)).toBeLessThan(ROWS / 5);

    const stream = await exportPaymentsStream(ctx(), { format: 'json' });
    expect(stream.count).toBe(ROWS);
    const rows = JSON.parse(await text(stream.body)) as Array<{ id: string; paid_at: string }>;
    expect(stream.written()).toBe(ROWS);
    expect(rows.map((r) => r.id)).toEqual(expected);
  }, 120_000);

  it('writes each payment in JSON as the API shows it, with its store, whatever its note holds', async () => {
    const notes = ['a,b"c\n=x\\y\u0001😀', '', '第一行\r\n第二行', '\t+1'];
    const before = (await t
      .db('payments')
      .select('uuid', 'note', 'created_by')
      .orderBy('uuid')
      .limit(notes.length)) as Array<{ uuid: string; note: string; created_by: number | null }>;
    const some = before.map((r) => r.uuid);
    const [user] = (await t.db('users').select('id').limit(1)) as Array<{ id: number }>;
    for (const [i, uuid] of some.entries())
      await t
        .db('payments')
        .where({ uuid })
        .update({ note: notes[i], created_by: user?.id ?? null });
    // the other tests of this file read the same payments as they were seeded
    onTestFinished(async () => {
      for (const r of before)
        await t.db('payments').where({ uuid: r.uuid }).update({ note: r.note, created_by: r.created_by });
    });
    const stores = new Map(
      ((await t.db('stores').select('id', 'name', 'code')) as Array<{ id: number; name: string; code: string }>).map(
        (s) => [Number(s.id), storeLabel(s)],
      ),
    );
    const stream = await exportPaymentsStream(ctx(), { format: 'json', filter: { id: some } });
    const got = JSON.parse(await text(stream.body)) as unknown[];
    const stored = (await t
      .db('payments')
      .whereIn('uuid', some)
      .orderBy('paid_at', 'desc')
      .orderBy('uuid', 'desc')) as PaymentRow[];
    // the JSON export writes method_detail and employee on every payment (null, false when unset); the API only when set
    expect(got).toEqual(
      stored.map((r) => ({
        ...toPayment(r),
        method_detail: r.method_detail ?? null,
        employee: Boolean(r.employee),
        store: stores.get(Number(r.store_id)),
      })),
    );
    expect(got.map((p) => (p as { note: string }).note).sort()).toEqual([...notes].sort());
  }, 120_000);

  it('writes the same count of rows as CSV, one line each', async () => {
    const stream = await exportPaymentsStream(ctx(), { format: 'csv', filter: { status: '已入帳' } });
    const lines = (await text(stream.body)).split(/\r?\n/).filter((l) => l.length > 0);
    const n = Number(
      ((await t.db('payments').where({ status: '已入帳' }).count({ n: '*' }).first()) as { n: number | string }).n,
    );
    expect(n).toBeGreaterThan(EXPORT_BATCH);
    expect(lines.length - 1).toBe(n);
    expect(stream.written()).toBe(n);
    const expected = (await t
      .db('payments')
      .where({ status: '已入帳' })
      .select('last_five', 'note')
      .orderBy('paid_at', 'desc')
      .orderBy('uuid', 'desc')) as Array<{ last_five: string; note: string }>;
    const cells = lines.slice(1).map((l) => l.split(','));
    expect(cells.map((c) => /\d{5}/.exec(c[1])?.[0])).toEqual(expected.map((r) => r.last_five));
    expect(cells.map((c) => c[4])).toEqual(expected.map((r) => r.note));
  }, 120_000);
});
