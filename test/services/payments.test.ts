/**
 * The payments, statistics, audit and store services called directly (a database, an actor, a
 * call), so a failing rule points at its service rather than at the HTTP layer around it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError,
  MSG,
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
    if (err instanceof DomainError)
      return {
        name: err.constructor.name,
        message: (err as { errors?: Array<{ message: string }> }).errors?.[0]?.message ?? err.message,
        fields: ((err as { errors?: Array<{ field: string }> }).errors ?? []).map((e) => e.field),
      };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe.each(DB_KINDS)('payment services on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let admin: ServiceContext;
  const as = async (username: string): Promise<ServiceContext> => ({
    db: t.db,
    security: TEST_SECURITY,
    actor: await principalByUsername(t.db, username),
    ip: null,
  });

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    admin = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    await createPayment(admin, {
      last_five: '12345',
      paid_at: '2026-11-10T10:00',
      amount: 1500,
      store_id: f.stores.A.id,
    });
    await createPayment(admin, {
      last_five: '54321',
      paid_at: '2026-11-12T09:30',
      amount: 800,
      store_id: f.stores.B.id,
    });
  });
  afterAll(() => t?.cleanup());

  it('refuses a start date after the end date in the list, the export, the statistics, the audit and reconciliation, with one message', async () => {
    const message = '開始日期（2026-11-12）不能晚於結束日期（2026-11-10）';
    const filter = { paid_at_gte: '2026-11-12', paid_at_lte: '2026-11-10' };
    expect(await refusal(listPayments(admin, { filter }))).toMatchObject({ name: 'ValidationError', message });
    expect(await refusal(exportPayments(admin, { filter }))).toMatchObject({ name: 'ValidationError', message });
    expect(await refusal(statsSummary(admin, { from: '2026-11-12', to: '2026-11-10' }))).toMatchObject({
      name: 'ValidationError',
      message,
      fields: ['from'],
    });
    expect(await refusal(listAudit(admin, { filter: { at_gte: '2026-11-12', at_lte: '2026-11-10' } }))).toMatchObject({
      name: 'ValidationError',
      message,
    });
    expect(await refusal(proposeMatches(admin, { from: '2026-11-12', to: '2026-11-10' }))).toMatchObject({
      name: 'ValidationError',
      message,
      fields: ['from'],
    });
  });

  it('counts one day when from and to are the same day', async () => {
    const list = await listPayments(admin, { filter: { paid_at_gte: '2026-11-10', paid_at_lte: '2026-11-10' } });
    expect(list.rows.map((p) => p.last_five)).toEqual(['12345']);
    expect((await statsSummary(admin, { from: '2026-11-12', to: '2026-11-12' })).totalPayments).toBe(1);
  });

  it("shows branch staff only their own store, and refuses a change to another store's payment", async () => {
    const branchA = await as('branchA');
    const mine = await listPayments(branchA);
    expect(mine.rows.map((p) => p.store_id)).toEqual([f.stores.A.id]);
    const other = (await listPayments(admin, { filter: { store_id: f.stores.B.id } })).rows[0];
    expect(await refusal(updatePayment(branchA, other.uuid, { status: '已入帳' }))).toMatchObject({
      name: 'ForbiddenError',
    });
  });

  it('searches last five by prefix, amount by whole number and note by contained text, within the store scope', async () => {
    const branchA = await as('branchA');
    const day = { paid_at_gte: '2026-10-01', paid_at_lte: '2026-10-02' };
    await createPayment(branchA, {
      last_five: '01234',
      paid_at: '2026-10-01T09:00',
      amount: 1200,
      store_id: f.stores.A.id,
      note: '早班 Cash',
    });
    await createPayment(branchA, {
      last_five: '01299',
      paid_at: '2026-10-01T10:00',
      amount: 1234,
      store_id: f.stores.A.id,
    });
    await createPayment(admin, {
      last_five: '91234',
      paid_at: '2026-10-02T11:00',
      amount: 500,
      store_id: f.stores.B.id,
      note: '晚班 100%_',
    });
    const found = async (ctx: ServiceContext, q: string) =>
      (await listPayments(ctx, { filter: { ...day, q } })).rows.map((p) => p.last_five).sort();
    expect(await found(admin, '012')).toEqual(['01234', '01299']); // prefix, leading zero kept
    expect(await found(admin, '01234')).toEqual(['01234']); // five digits: that one (a leading zero is no amount)
    expect(await found(admin, '1234')).toEqual(['01299']); // not a prefix of 01234 or 91234; the amount 1234
    expect(await found(admin, '1,200')).toEqual(['01234']);
    expect(await found(admin, 'NT$1,200')).toEqual(['01234']);
    expect(await found(admin, '500')).toEqual(['91234']);
    expect(await found(admin, 'cash')).toEqual(['01234']); // any case
    expect(await found(admin, '晚班')).toEqual(['91234']);
    expect(await found(admin, '%')).toEqual(['91234']); // a wildcard is text, not "anything"
    expect(await found(admin, '_')).toEqual(['91234']);
    expect(await found(admin, '沒有這筆')).toEqual([]);
    // Branch staff of A search only store A.
    expect(await found(branchA, '晚班')).toEqual([]);
    expect(await found(branchA, '500')).toEqual([]);
    // The count agrees with the rows.
    expect((await listPayments(admin, { filter: { ...day, q: '012' } })).total).toBe(2);
  });

  it('names who submitted each payment in the list, and nobody for a payment the system wrote (no account)', async () => {
    const branchA = await as('branchA');
    const mine = await createPayment(branchA, {
      last_five: '77001',
      paid_at: '2026-09-01T09:00',
      amount: 100,
      store_id: f.stores.A.id,
    });
    const bySystem = await createPayment(admin, {
      last_five: '77002',
      paid_at: '2026-09-01T10:00',
      amount: 100,
      store_id: f.stores.A.id,
    });
    const rows = (await listPayments(admin, { filter: { paid_at_gte: '2026-09-01', paid_at_lte: '2026-09-01' } })).rows;
    expect(rows.find((p) => p.uuid === mine.uuid)).toMatchObject({
      created_by: f.users.branchA.id,
      created_by_username: 'branchA',
    });
    expect(rows.find((p) => p.uuid === bySystem.uuid)?.created_by_username).toBeNull();
    // Branch staff see the same column on their own store's rows.
    const theirs = (await listPayments(branchA, { filter: { q: '77001' } })).rows;
    expect(theirs.map((p) => p.created_by_username)).toEqual(['branchA']);
  });

  it('finds stores by code whatever the case, and names an unknown code', async () => {
    expect(await storeIdsByCode(admin, ['txg', 'TPE'])).toEqual([f.stores.B.id, f.stores.A.id]);
    expect(await refusal(storeIdsByCode(admin, ['TPE', 'NOPE']))).toMatchObject({
      name: 'NotFoundError',
      message: '找不到分店代碼「NOPE」',
    });
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
    const fresh = {
      row: 4,
      last_five: '33333',
      paid_at: '2026-11-15T10:00:00.000Z',
      amount: 500,
      store_id: f.stores.C.id,
    };
    expect(await importPayments(admin, [...rows, fresh, { ...fresh, row: 5 }], { dryRun: true })).toMatchObject({
      imported: 1,
      skipped: 3,
      duplicates: [2, 3, 5],
      duplicate_of: [{ row: 2 }, { row: 3 }, { row: 5, earlier_row: 4 }],
    });
    expect((await listPayments(admin, { filter: { store_id: f.stores.C.id } })).total).toBe(2);
  });

  it('refuses an imported row over a day ahead, as the form is refused, and writes none of the rows', async () => {
    const ahead = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const rows = [
      { row: 2, last_five: '44441', paid_at: '2026-11-15T08:00:00.000Z', amount: 300, store_id: f.stores.C.id },
      { row: 3, last_five: '44442', paid_at: ahead, amount: 400, store_id: f.stores.C.id },
    ];
    expect(await refusal(importPayments(admin, rows, { dryRun: true }))).toEqual({
      name: 'ValidationError',
      message: `第 3 行：${MSG.paidAtTooFarAhead}`,
      fields: ['payments.1.paid_at'],
    });
    expect(await refusal(importPayments(admin, rows))).toMatchObject({ message: `第 3 行：${MSG.paidAtTooFarAhead}` });
    expect((await listPayments(admin, { filter: { q: '4444' } })).total).toBe(0);
  });
});
