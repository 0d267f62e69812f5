/**
 * cash out and the daily close, the services called directly on SQLite and PostgreSQL.
 * A store records a day of cash, card, transfer and e-payment takings and a cash expense, closes
 * the day with the counted drawer; the lock, the marks after the close, reopening, the board.
 */
import { randomUUID } from 'node:crypto';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeDay,
  createPayment,
  createStore,
  createUser,
  exportPayments,
  systemActor,
  deletePayment,
  updatePayment,
  closesBoard,
  deleteCashOut,
  updateCashOut,
  exportDayBook,
  getDay,
  parseInstant,
  principalByUsername,
  recordCashOut,
  reopenDay,
  type ServiceContext,
} from '../core/index.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { seed, type Fixture } from './helpers/fixtures.js';

const at = (text: string) => parseInstant(text)!;

describe.each(DB_KINDS)('cash and the daily close on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  const as = async (username: string): Promise<ServiceContext> => ({
    db: t.db,
    security: TEST_SECURITY,
    actor: await principalByUsername(t.db, username),
    ip: '127.0.0.1',
  });
  const pay = async (store: number, time: string, amount: number, method: string, employee = false) => {
    const now = Date.now();
    const uuid = randomUUID();
    await t.db('payments').insert({
      uuid,
      store_id: store,
      last_five: method === '匯款' ? '12345' : '',
      paid_at: at(time),
      amount,
      status: method === '匯款' ? '未確認' : '已入帳',
      note: '',
      method,
      employee,
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    return uuid;
  };

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('a day of takings and cash out, closed with the counted drawer; the next day carries the count', async () => {
    const A = f.stores.A.id;
    const clerk = await as('branchA');
    await pay(A, '2026-11-18T10:05', 1200, '現金');
    await pay(A, '2026-11-18T11:30', 800, '刷卡');
    await pay(A, '2026-11-18T12:00', 3000, '匯款');
    await pay(A, '2026-11-18T13:10', 450, '電子支付');
    await pay(A, '2026-11-18T14:00', 250, '現金', true); // 員工購物, by its method
    await pay(A, '2026-11-18T23:59', 100, '現金');
    await pay(A, '2026-11-19T00:01', 70, '現金'); // the next Taiwan day
    const expense = await recordCashOut(clerk, {
      store_id: A,
      kind: '店內支出',
      category: '清潔用品',
      amount: 300,
      note: '垃圾袋',
      at: '2026-11-18T15:00',
    });
    expect(expense).toMatchObject({
      kind: '店內支出',
      category: '清潔用品',
      amount: 300,
      after_close: false,
      created_by_username: 'branchA',
    });
    await recordCashOut(clerk, { kind: '提領', amount: 1000, at: '2026-11-18T20:00' }); // a branch user's own store by default

    const day = await getDay(clerk, { store_id: A, date: '2026-11-18' });
    expect(day.status).toBe('open');
    expect(day.figures).toMatchObject({
      opening: null,
      by_method: { 匯款: 3000, 現金: 1550, 刷卡: 800, 電子支付: 450 },
      cash_in: 1550,
      cash_out: 1300,
      expected: null,
    });
    expect(day.lines.map((l) => [l.method, l.cash])).toEqual([
      ['現金', 1200],
      ['刷卡', 0],
      ['匯款', 0],
      ['電子支付', 0],
      ['現金', 250],
      ['店內支出', -300],
      ['提領', -1000],
      ['現金', 100],
    ]);

    // the first close states its opening
    await expect(closeDay(clerk, { store_id: A, date: '2026-11-18', counted: 5300 })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'opening', message: '這是本店第一次日結，請填寫開帳現金（這天開始營業時抽屜裡的現金）' }],
    });
    const close = await closeDay(clerk, {
      store_id: A,
      date: '2026-11-18',
      opening: 5000,
      counted: 5300,
      denominations: { 1000: 5, 100: 3 },
      note: '正常',
    });
    expect(close).toMatchObject({
      state: 'closed',
      opening: 5000,
      opening_stated: true,
      cash_in: 1550,
      cash_out: 1300,
      expected: 5250,
      counted: 5300,
      difference: 50,
      closed_by: 'branchA',
      denominations: { 1000: 5, 100: 3 },
    });
    const audit = await t.db('audit_log').where({ entity: 'day_close', action: 'close' }).first();
    expect(JSON.parse(audit.after)).toMatchObject({
      date: '2026-11-18',
      expected: 5250,
      counted: 5300,
      difference: 50,
    });

    // the next day opens with the count, and refuses another opening
    await expect(
      closeDay(clerk, { store_id: A, date: '2026-11-19', opening: 4000, counted: 5370 }),
    ).rejects.toMatchObject({
      errors: [
        {
          field: 'opening',
          message:
            '開帳現金沿用前一次日結（2026-11-18）的點收現金 NT$5,300，不能另填 NT$4,000；如前一次點錯，請重新開帳 2026-11-18 更正',
        },
      ],
    });
    expect((await getDay(clerk, { store_id: A, date: '2026-11-19' })).figures).toMatchObject({
      opening: 5300,
      cash_in: 70,
      expected: 5370,
    });
  });

  it('closing a day already closed is refused and says so; one close is stored', async () => {
    const A = f.stores.A.id;
    const err = await closeDay(await as('admin'), { store_id: A, date: '2026-11-18', counted: 1 }).catch((e) => e);
    expect(err.code).toBe('day_already_closed');
    expect(err.message).toMatch(
      /^台北店 \(TPE\) 2026-11-18 已經結帳（branchA，2026\/\d\d\/\d\d \d\d:\d\d），不能再結一次/,
    );
    expect(
      Number((await t.db('day_closes').where({ store_id: A, date: '2026-11-18' }).count({ n: '*' }).first())?.n),
    ).toBe(1);
  });

  it('a closed day is locked for cash entries; manage_payments may change them, and each change is marked after the close', async () => {
    const A = f.stores.A.id;
    const clerk = await as('branchA');
    const err = await recordCashOut(clerk, {
      store_id: A,
      kind: '店內支出',
      category: '雜支',
      amount: 50,
      at: '2026-11-18T16:00',
    }).catch((e) => e);
    expect(err.code).toBe('day_closed_locked');
    expect(err.message).toBe(
      '台北店 (TPE) 2026-11-18 已日結，當天的現金收支已鎖定：需要「匯款管理」權限才能新增、修改或刪除（或請主管重新開帳）',
    );
    const late = await recordCashOut(await as('admin'), {
      store_id: A,
      kind: '店內支出',
      category: '雜支',
      amount: 50,
      at: '2026-11-18T16:00',
    });
    expect(late.after_close).toBe(true);
    const row = await t.db('day_closes').where({ store_id: A, date: '2026-11-18' }).first();
    expect(Number(row.late_changes)).toBe(1);
    const marks = await t.db('audit_log').where({ entity: 'day_close', action: 'after_close' });
    expect(marks.map((m) => JSON.parse(m.after))).toEqual([
      { store_id: A, date: '2026-11-18', entity: 'cash_out', entity_id: null, change: 'create' },
    ]);
    // deleting it is a change after the close too
    await expect(deleteCashOut(clerk, late.id)).rejects.toMatchObject({ code: 'day_closed_locked' });
    await deleteCashOut(await as('admin'), late.id);
    expect(Number((await t.db('day_closes').where({ id: row.id }).first()).late_changes)).toBe(2);
    // the day's page shows the close as it was closed, and its marks
    const day = await getDay(clerk, { store_id: A, date: '2026-11-18' });
    expect(day.close).toMatchObject({ expected: 5250, late_changes: 2 });
  });

  it('the lock holds for 現金 payments through the one payment writer: added, changed or deleted', async () => {
    const A = f.stores.A.id;
    const clerk = await as('branchA');
    const refused = await createPayment(clerk, {
      method: '現金',
      paid_at: '2026-11-18T17:00',
      amount: 90,
      store_id: A,
    }).catch((e) => e);
    expect(refused.code).toBe('day_closed_locked');
    // a card payment of the closed day is no cash entry: it goes in
    expect(
      (await createPayment(clerk, { method: '刷卡', paid_at: '2026-11-18T17:00', amount: 90, store_id: A })).method,
    ).toBe('刷卡');
    const admin = await as('admin');
    const late = await createPayment(admin, { method: '現金', paid_at: '2026-11-18T17:05', amount: 90, store_id: A });
    await expect(deletePayment(clerk, late.uuid)).rejects.toMatchObject({ code: 'day_closed_locked' });
    await expect(updatePayment(clerk, late.uuid, { note: '改' })).rejects.toMatchObject({ code: 'day_closed_locked' });
    await deletePayment(admin, late.uuid);
    const marks = (await t.db('audit_log').where({ entity: 'day_close', action: 'after_close' }).orderBy('id')).map(
      (m) => JSON.parse(m.after),
    );
    expect(marks.slice(-2)).toEqual([
      { store_id: A, date: '2026-11-18', entity: 'payment', entity_id: late.uuid, change: 'create' },
      { store_id: A, date: '2026-11-18', entity: 'payment', entity_id: late.uuid, change: 'delete' },
    ]);
    expect(Number((await t.db('day_closes').where({ store_id: A, date: '2026-11-18' }).first()).late_changes)).toBe(4);
  });

  it('reopening needs manage_payments, is audited, and a re-close counts what was added', async () => {
    const A = f.stores.A.id;
    await expect(reopenDay(await as('branchA'), { store_id: A, date: '2026-11-18' })).rejects.toMatchObject({
      code: 'permission_required',
      message: '權限不足：需要「匯款管理」權限',
    });
    const manager = await as('hq_manage_payments');
    const reopened = await reopenDay(manager, { store_id: A, date: '2026-11-18' });
    expect(reopened).toMatchObject({ state: 'reopened', reopened_by: 'hq_manage_payments' });
    await expect(reopenDay(manager, { store_id: A, date: '2026-11-18' })).rejects.toMatchObject({
      code: 'day_not_closed',
      message: '台北店 (TPE) 2026-11-18 尚未結帳，不需要重新開帳',
    });
    const audit = await t.db('audit_log').where({ entity: 'day_close', action: 'reopen' }).first();
    expect(JSON.parse(audit.after)).toEqual({ store_id: A, date: '2026-11-18', state: 'reopened' });
    // open again: the clerk adds the expense without a mark
    const clerk = await as('branchA');
    expect(
      (
        await recordCashOut(clerk, {
          store_id: A,
          kind: '店內支出',
          category: '餐費',
          amount: 150,
          at: '2026-11-18T18:00',
        })
      ).after_close,
    ).toBe(false);
    const again = await closeDay(clerk, { store_id: A, date: '2026-11-18', opening: 5000, counted: 5100 });
    expect(again).toMatchObject({ state: 'closed', opening: 5000, cash_out: 1450, expected: 5100, difference: 0 });
    expect(
      Number((await t.db('day_closes').where({ store_id: A, date: '2026-11-18' }).count({ n: '*' }).first())?.n),
    ).toBe(1);
  });

  it('enforces the store boundary and the permissions for reads and writes', async () => {
    const B = f.stores.B.id;
    const clerkA = await as('branchA');
    await expect(getDay(clerkA, { store_id: B, date: '2026-11-18' })).rejects.toMatchObject({
      code: 'store_out_of_scope',
    });
    await expect(closeDay(clerkA, { store_id: B, date: '2026-11-18', opening: 0, counted: 0 })).rejects.toMatchObject({
      code: 'store_out_of_scope',
    });
    await expect(recordCashOut(clerkA, { store_id: B, kind: '提領', amount: 10 })).rejects.toMatchObject({
      code: 'branch_own_store_only',
    });
    await expect(
      closeDay(await as('hq_view_payments'), { store_id: B, date: '2026-11-18', opening: 0, counted: 0 }),
    ).rejects.toMatchObject({ code: 'permission_required' });
    await expect(closesBoard(await as('hq_none'), {})).rejects.toMatchObject({ code: 'permission_required' });
    await expect(
      exportDayBook(await as('hq_edit_payments'), { store_id: B, from: '2026-11-18', to: '2026-11-18' }),
    ).rejects.toMatchObject({ code: 'permission_required' });
    const board = await closesBoard(clerkA, { from: '2026-11-17', to: '2026-11-19' });
    expect(board.stores.map((s) => s.code)).toEqual(['TPE']);
  });

  it('the board: stores by days, 已結帳 with its difference, 未結帳, 無收支, and the takings by method, from per-day figures', async () => {
    const board = await closesBoard(await as('hq_view_reports'), { from: '2026-11-17', to: '2026-11-19' });
    expect(board.dates).toEqual(['2026-11-17', '2026-11-18', '2026-11-19']);
    expect(board.stores.map((s) => s.code)).toEqual(['TPE', 'TXG']);
    const tpe = board.stores.find((s) => s.code === 'TPE')!;
    expect(tpe.days.map((d) => [d.date, d.status, d.expected, d.counted, d.difference])).toEqual([
      // nothing came in or went out that day: nothing to close
      ['2026-11-17', 'quiet', null, null, null],
      ['2026-11-18', 'closed', 5100, 5100, 0],
      ['2026-11-19', 'open', 5170, null, null],
    ]);
    expect(tpe.by_method).toEqual({ 匯款: 3000, 現金: 1620, 刷卡: 890, 電子支付: 450 });
    expect(board.by_method).toEqual(tpe.by_method);
  });

  it('the day book as .xlsx and CSV: every entry with its method, the cash out and the close', async () => {
    const ctx = await as('branchA');
    // a payment of another day, which these files leave out: a day book holding every payment of
    // a branch user's stores would be an export all (the test below)
    await createPayment(await as('admin'), {
      method: '刷卡',
      paid_at: '2026-11-25T12:00',
      amount: 10,
      store_id: f.stores.A.id,
    });
    const csv = await exportDayBook(ctx, {
      store_id: f.stores.A.id,
      from: '2026-11-18',
      to: '2026-11-19',
      format: 'csv',
    });
    expect(csv.fileName).toMatch(/^日記帳_TPE_20261118-20261119_\d{12}\.csv$/);
    const text = String(csv.body);
    expect(text.split('\r\n')[0]).toBe(
      '\uFEFF營業日期,時間,類別,付款方式／支出類型,員工購物,帳號後五碼,項目,金額,現金增減,現金結餘,狀態,備註',
    );
    expect(text).toContain('2026-11-18,2026/11/18 14:00:00,收入,現金,是,,,250,250,6450,已入帳,');
    expect(text).toContain('2026-11-18,2026/11/18 15:00:00,支出,店內支出,,,清潔用品,300,-300,6150,,垃圾袋');
    expect(text).toMatch(
      /2026-11-18,[^,]+,日結,,,,點收 branchA,5100,0,5100,已結帳,開帳 5000，現金收入 1550，現金支出 1450，應有 5100，點收 5100，短溢 0/,
    );
    const xlsx = await exportDayBook(ctx, { store_id: f.stores.A.id, from: '2026-11-18', to: '2026-11-19' });
    const wb = XLSX.read(xlsx.body, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(wb.Sheets['日記帳'], { header: 1, raw: false });
    expect(rows.filter((r) => r[2] === '日結').map((r) => [r[0], r[10]])).toEqual([
      ['2026-11-18', '已結帳'],
      ['2026-11-19', '未結帳'],
    ]);
    // each file an export of payments in the audit log, as the list's exports are
    const entries = (await t.db('audit_log').where({ action: 'export', actor_username: 'branchA' }).orderBy('id')).map(
      (e) => JSON.parse(e.after),
    );
    expect(entries.slice(-2)).toEqual([
      {
        filter: { store_id: [f.stores.A.id], paid_at_gte: '2026-11-18', paid_at_lte: '2026-11-19' },
        format: 'csv',
        count: csv.count,
        daybook: true,
        stores: [f.stores.A.id],
        store_id: f.stores.A.id,
      },
      {
        filter: { store_id: [f.stores.A.id], paid_at_gte: '2026-11-18', paid_at_lte: '2026-11-19' },
        format: 'xlsx',
        count: xlsx.count,
        daybook: true,
        stores: [f.stores.A.id],
        store_id: f.stores.A.id,
      },
    ]);
  });

  it("a day book holding every payment of a branch user's stores is an export all: manage_payments, and in pieces neither", async () => {
    const ctx = await as('branchA');
    await t
      .db('audit_log')
      .where({ action: 'export' })
      .update({ at: Date.now() - 25 * 3600 * 1000 });
    const before = Number(((await t.db('audit_log').count({ n: '*' }).first()) as { n: number | string }).n);
    const whole = '權限不足：這次匯出含您分店的每一筆匯款，等於匯出全部，需要「匯款管理」權限';
    await expect(
      exportDayBook(ctx, { store_id: f.stores.A.id, from: '2026-11-01', to: '2026-11-30' }),
    ).rejects.toMatchObject({ message: whole });
    await expect(
      exportDayBook(ctx, { store_id: f.stores.A.id, from: '2026-11-18', to: '2026-11-25' }),
    ).rejects.toMatchObject({ message: whole });
    // the list's export of the rest, then the day book of the days before: together, every payment
    await exportPayments(ctx, { filter: { paid_at_gte: '2026-11-20', paid_at_lte: '2026-11-30' }, format: 'csv' });
    await expect(
      exportDayBook(ctx, { store_id: f.stores.A.id, from: '2026-11-01', to: '2026-11-19' }),
    ).rejects.toMatchObject({
      message: '權限不足：這次匯出加上您 24 小時內的其他匯出，等於匯出全部，需要「匯款管理」權限',
    });
    // one export written (the list's), no refused one
    expect(Number(((await t.db('audit_log').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(before + 1);
    // a store with no payment yet: its day book (cash only, or nothing) gives nothing away whole
    const sys: ServiceContext = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const fresh = await createStore(sys, { code: 'NEW1', name: '新開店' });
    await createUser(sys, {
      username: 'newclerk',
      password: 'tea-leaf-99-new',
      role: 'user',
      store_id: fresh.id,
      permissions: ['view_payments', 'edit_payments', 'record_cash_out'],
    });
    const clerk = await as('newclerk');
    await recordCashOut(clerk, { kind: '店內支出', category: '雜支', amount: 80, at: '2026-11-20T10:00' });
    expect(
      (await exportDayBook(clerk, { store_id: fresh.id, from: '2026-11-20', to: '2026-11-20', format: 'csv' })).count,
    ).toBe(1);
    // manage_payments exports it whole
    expect(
      (
        await exportDayBook(await as('admin'), {
          store_id: f.stores.A.id,
          from: '2026-11-01',
          to: '2026-11-30',
          format: 'csv',
        })
      ).count,
    ).toBeGreaterThan(0);
  });
  it('a wrong cash-out is corrected or deleted by the clerk until the close, by a manager after, each audited', async () => {
    const B = f.stores.B.id;
    const clerk = await as('branchB');
    const typo = await recordCashOut(clerk, {
      store_id: B,
      kind: '店內支出',
      category: '文具',
      amount: 5000,
      at: '2026-11-24T10:00',
    });
    const fixed = await updateCashOut(clerk, typo.id, { amount: 500, note: '多打一個零' });
    expect(fixed).toMatchObject({ id: typo.id, kind: '店內支出', category: '文具', amount: 500, note: '多打一個零' });
    expect((await getDay(clerk, { store_id: B, date: '2026-11-24' })).figures.cash_out).toBe(500);
    const audit = await t
      .db('audit_log')
      .where({ entity: 'cash_out', action: 'update', entity_id: String(typo.id) })
      .first();
    expect(JSON.parse(audit.before)).toMatchObject({ amount: 5000 });
    expect(JSON.parse(audit.after)).toMatchObject({ amount: 500 });
    // 提領 has no category; a bad amount is refused with the form's words
    expect(await updateCashOut(clerk, typo.id, { kind: '提領' })).toMatchObject({ kind: '提領', category: '' });
    await expect(updateCashOut(clerk, typo.id, { amount: 0 })).rejects.toMatchObject({ code: 'validation_failed' });
    // another store's clerk and a viewer may not touch it
    await expect(updateCashOut(await as('branchA'), typo.id, { amount: 1 })).rejects.toMatchObject({
      code: 'store_out_of_scope',
    });
    await expect(deleteCashOut(await as('hq_view_payments'), typo.id)).rejects.toThrow(
      '權限不足：需要「刪除匯款」權限',
    );

    const gone = await recordCashOut(clerk, { store_id: B, kind: '提領', amount: 2000, at: '2026-11-24T11:00' });
    await deleteCashOut(clerk, gone.id);
    expect(await t.db('cash_out').where({ id: gone.id }).first()).toBeUndefined();

    // closed: the clerk is refused, a manager changes it and the close counts the change
    await closeDay(clerk, { store_id: B, date: '2026-11-24', opening: 3000, counted: 2500 });
    await expect(updateCashOut(clerk, typo.id, { amount: 600 })).rejects.toMatchObject({ code: 'day_closed_locked' });
    await expect(deleteCashOut(clerk, typo.id)).rejects.toMatchObject({ code: 'day_closed_locked' });
    // nor may an open day's entry be moved into the closed day
    const later = await recordCashOut(clerk, { store_id: B, kind: '提領', amount: 100, at: '2026-11-25T09:00' });
    await expect(updateCashOut(clerk, later.id, { at: '2026-11-24T18:00' })).rejects.toMatchObject({
      code: 'day_closed_locked',
    });
    const admin = await as('admin');
    expect(await updateCashOut(admin, typo.id, { amount: 600 })).toMatchObject({ amount: 600, after_close: true });
    await deleteCashOut(admin, typo.id);
    const close = await t.db('day_closes').where({ store_id: B, date: '2026-11-24' }).first();
    expect(Number(close.late_changes)).toBe(2);
  });
});
