/**
 * The payments, statistics, audit and store services called directly (a database, an actor, a
 * call), so a failing rule points at its service rather than at the HTTP layer around it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError,
  createPayment,
  exportPayments,
  importPayments,
  listAudit,
  listPayments,
  principalByUsername,
  proposeMatches,
  statsSummary,
  storeIdsByCode,
  systemActor,
  updatePayment,
  type ServiceContext,
} from '../../core/index.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';

async function refusal(p: Promise<unknown>): Promise<{ name: string; message: string; fields: string[] }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return { name: err.constructor.name, message: (err as { errors?: Array<{ message: string }> }).errors?.[0]?.message ?? err.message, fields: ((err as { errors?: Array<{ field: string }> }).errors ?? []).map((e) => e.field) };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe.each(DB_KINDS)('payment services on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let admin: ServiceContext;
  const as = async (username: string): Promise<ServiceContext> => ({ db: t.db, security: TEST_SECURITY, actor: await principalByUsername(t.db, username), ip: null });

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    admin = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    await createPayment(admin, { last_five: '12345', paid_at: '2026-11-10T10:00', amount: 1500, store_id: f.stores.A.id });
    await createPayment(admin, { last_five: '54321', paid_at: '2026-11-12T09:30', amount: 800, store_id: f.stores.B.id });
  });
  afterAll(() => t?.cleanup());

  it('refuses a start date after the end date in the list, the export, the statistics, the audit and reconciliation, with one message', async () => {
    const message = '開始日期（2026-11-12）不能晚於結束日期（2026-11-10）';
    const filter = { paid_at_gte: '2026-11-12', paid_at_lte: '2026-11-10' };
    expect(await refusal(listPayments(admin, { filter }))).toMatchObject({ name: 'ValidationError', message });
    expect(await refusal(exportPayments(admin, { filter }))).toMatchObject({ name: 'ValidationError', message });
    expect(await refusal(statsSummary(admin, { from: '2026-11-12', to: '2026-11-10' }))).toMatchObject({ name: 'ValidationError', message, fields: ['from'] });
    expect(await refusal(listAudit(admin, { filter: { at_gte: '2026-11-12', at_lte: '2026-11-10' } }))).toMatchObject({ name: 'ValidationError', message });
    expect(await refusal(proposeMatches(admin, { from: '2026-11-12', to: '2026-11-10' }))).toMatchObject({ name: 'ValidationError', message, fields: ['from'] });
  });

  it('counts one day when from and to are the same day', async () => {
    const list = await listPayments(admin, { filter: { paid_at_gte: '2026-11-10', paid_at_lte: '2026-11-10' } });
    expect(list.rows.map((p) => p.last_five)).toEqual(['12345']);
    expect((await statsSummary(admin, { from: '2026-11-12', to: '2026-11-12' })).totalPayments).toBe(1);
  });

  it('shows branch staff only their own store, and refuses a change to another store\'s payment', async () => {
    const branchA = await as('branchA');
    const mine = await listPayments(branchA);
    expect(mine.rows.map((p) => p.store_id)).toEqual([f.stores.A.id]);
    const other = (await listPayments(admin, { filter: { store_id: f.stores.B.id } })).rows[0];
    expect(await refusal(updatePayment(branchA, other.uuid, { status: '已入帳' }))).toMatchObject({ name: 'ForbiddenError' });
  });

  it('finds stores by code whatever the case, and names an unknown code', async () => {
    expect(await storeIdsByCode(admin, ['txg', 'TPE'])).toEqual([f.stores.B.id, f.stores.A.id]);
    expect(await refusal(storeIdsByCode(admin, ['TPE', 'NOPE']))).toMatchObject({ name: 'NotFoundError', message: '找不到分店代碼「NOPE」' });
  });

  it('imports once: the same rows again are skipped as duplicates of existing payments', async () => {
    const rows = [
      { row: 2, last_five: '11111', paid_at: '2026-11-15T08:00:00.000Z', amount: 300, store_id: f.stores.C.id },
      { row: 3, last_five: '22222', paid_at: '2026-11-15T09:00:00.000Z', amount: 400, store_id: f.stores.C.id },
    ];
    expect(await importPayments(admin, rows)).toEqual({ imported: 2, skipped: 0, duplicates: [], duplicate_of: [] });
    const again = await importPayments(admin, rows);
    expect(again).toMatchObject({ imported: 0, skipped: 2, duplicates: [2, 3] });
    expect(again.duplicate_of.map((d) => ('uuid' in d ? d.row : null))).toEqual([2, 3]);
    // a dry run says the same and writes nothing; a row repeated inside one import names the earlier row
    const fresh = { row: 4, last_five: '33333', paid_at: '2026-11-15T10:00:00.000Z', amount: 500, store_id: f.stores.C.id };
    expect(await importPayments(admin, [...rows, fresh, { ...fresh, row: 5 }], { dryRun: true })).toMatchObject({
      imported: 1,
      skipped: 3,
      duplicates: [2, 3, 5],
      duplicate_of: [{ row: 2 }, { row: 3 }, { row: 5, earlier_row: 4 }],
    });
    expect((await listPayments(admin, { filter: { store_id: f.stores.C.id } })).total).toBe(2);
  });
});
