/**
 * Who may move money: recording takings other than a transfer report, recording cash out,
 * closing a day and confirming against the bank are grants of their own. A clerk reports, takes
 * cash and closes their store's day without confirming anything; an accountant confirms; a viewer
 * records nothing but the transfer report the spec allows every user. Each is tried on one
 * instance and, on PostgreSQL, across two instances sharing the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownMigrationNames, migrateDownOne, migrateNext } from '../../core/db/migrate.js';
import { createTestDb, DB_KINDS, type TestDb } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { secondInstance, startTestServer, type TestServer } from '../helpers/server.js';

const MONEY_GRANTS = '20261129120000_money_grants';

/** The three kinds of account the README tells an admin how to make, with the keys it gives. */
const ACCOUNTS = {
  clerk: ['record_takings', 'record_cash_out', 'close_day'],
  accountant: ['view_payments', 'manage_payments', 'confirm_payments', 'view_reports'],
  viewer: ['view_payments', 'view_reports'],
} as const;
type Kind = keyof typeof ACCOUNTS;

describe.each(DB_KINDS)('who may move money, on %s', (kind) => {
  let s: TestServer;
  let second: { url: string; close(): Promise<void> } | null = null;
  const token: Partial<Record<Kind, string>> = {};
  const ids: Partial<Record<Kind, number>> = {};
  /** the instance a call goes to: the second one on PostgreSQL for every other call */
  let turn = 0;

  async function call(as: Kind | 'admin', method: string, path: string, body?: unknown) {
    const base = second && turn++ % 2 === 1 ? second.url : `${s.url}/api`;
    const headers: Record<string, string> = { authorization: `Bearer ${as === 'admin' ? s.tokens.admin : token[as]}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    s = await startTestServer(kind);
    if (kind === 'postgres') second = await secondInstance(s);
    for (const k of Object.keys(ACCOUNTS) as Kind[]) {
      const made = await s.api('POST', '/users', {
        as: 'admin',
        body: {
          username: `${k}A`,
          password: PASSWORD,
          role: 'user',
          store_id: s.stores.A.id,
          permissions: ACCOUNTS[k],
        },
      });
      expect(made.status).toBe(201);
      ids[k] = made.body.id;
      token[k] = (await s.api('POST', '/admin/login', { body: { username: `${k}A`, password: PASSWORD } })).body.token;
    }
  });
  afterAll(async () => {
    await second?.close();
    await s?.close();
  });

  const A = () => s.stores.A.id;
  const cashSale = (amount: number) => ({ method: '現金', paid_at: '2026-11-18T10:00', amount, store_id: A() });
  const withdrawal = () => ({ kind: '提領', amount: 20_000, at: '2026-11-18T12:00', store_id: A() });
  const transfer = (lastFive: string) => ({
    last_five: lastFive,
    paid_at: '2026-11-18T11:00',
    amount: 1200,
    store_id: A(),
  });

  it('a viewer reports a transfer and records nothing else: no cash sale, no 提領, no close, no confirmation', async () => {
    const before = await s.t.db('payments').count({ n: '*' }).first();
    expect((await call('viewer', 'POST', '/payments', transfer('24680'))).status).toBe(201);
    const sale = await call('viewer', 'POST', '/payments', cashSale(300));
    expect(sale).toMatchObject({ status: 403, body: { message: '權限不足：需要「記錄收款」權限' } });
    for (const method of ['刷卡', '電子支付'])
      expect((await call('viewer', 'POST', '/payments', { ...cashSale(300), method })).status).toBe(403);
    expect(await call('viewer', 'POST', '/cash-out', withdrawal())).toMatchObject({
      status: 403,
      body: { message: '權限不足：需要「記錄現金支出」權限' },
    });
    expect(
      await call('viewer', 'POST', '/closes', { store_id: A(), date: '2026-11-17', opening: 0, counted: 0 }),
    ).toMatchObject({ status: 403, body: { message: '權限不足：需要「日結」權限' } });
    // only the transfer report was stored, and no cash left the drawer
    expect(Number((await s.t.db('payments').count({ n: '*' }).first())!.n)).toBe(Number(before!.n) + 1);
    expect(Number((await s.t.db('cash_out').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('a clerk takes cash, records a 提領 and closes the day, and cannot confirm a transfer, by hand or against the bank', async () => {
    expect((await call('clerk', 'POST', '/payments', cashSale(450))).status).toBe(201);
    expect((await call('clerk', 'POST', '/cash-out', withdrawal())).status).toBe(201);
    const report = await call('clerk', 'POST', '/payments', transfer('13579'));
    expect(report.status).toBe(201);
    // the day page the close is made from
    expect((await call('clerk', 'GET', `/closes/day?store_id=${A()}&date=2026-11-16`)).status).toBe(200);
    expect(
      (await call('clerk', 'POST', '/closes', { store_id: A(), date: '2026-11-16', opening: 0, counted: 0 })).status,
    ).toBe(201);

    expect(await call('clerk', 'PUT', `/payments/${report.body.uuid}`, { status: '已入帳' })).toMatchObject({
      status: 403,
      body: { message: '權限不足：需要「編輯匯款」權限' },
    });
    const pair = await linePair(report.body.uuid, 1200);
    expect(await call('clerk', 'POST', '/reconcile/confirm', { pairs: [pair] })).toMatchObject({
      status: 403,
      body: { message: '權限不足：需要「銀行對帳」權限' },
    });
    expect((await s.t.db('payments').where({ uuid: report.body.uuid }).first()).status).toBe('未確認');
  });

  it('an accountant confirms against the bank, and neither takes cash nor closes a day', async () => {
    const report = await call('admin', 'POST', '/payments', transfer('97531'));
    const pair = await linePair(report.body.uuid, 1200);
    expect(await call('accountant', 'POST', '/reconcile/confirm', { pairs: [pair] })).toMatchObject({
      status: 200,
      body: { confirmed: 1 },
    });
    expect((await s.t.db('payments').where({ uuid: report.body.uuid }).first()).status).toBe('已入帳');
    expect((await call('accountant', 'POST', '/payments', cashSale(600))).status).toBe(403);
    expect((await call('accountant', 'POST', '/cash-out', withdrawal())).status).toBe(403);
    expect(
      (await call('accountant', 'POST', '/closes', { store_id: A(), date: '2026-11-15', opening: 0, counted: 0 }))
        .status,
    ).toBe(403);
  });

  it('an import brings in takings only for those who may record them', async () => {
    const rows = (method: string) => ({
      payments: [
        {
          method,
          last_five: method === '匯款' ? '86420' : '',
          paid_at: '2026-11-18T09:00',
          amount: 410,
          store_id: A(),
        },
      ],
    });
    const cash = await s.api('POST', '/payments/bulk-import', { as: 'hq_manage_payments', body: rows('現金') });
    expect(cash).toMatchObject({ status: 403, body: { message: '權限不足：需要「記錄收款」權限' } });
    expect(await s.t.db('payments').where({ amount: 410 }).first()).toBeUndefined();
    expect(
      (await s.api('POST', '/payments/bulk-import', { as: 'hq_manage_payments', body: rows('匯款') })).status,
    ).toBe(200);
    const accountant = await call('accountant', 'POST', '/payments/bulk-import', rows('刷卡'));
    expect(accountant.status).toBe(403);
  });

  it('an admin narrows an account and the next call is refused, on every instance', async () => {
    const narrowed = ACCOUNTS.clerk.filter((k) => k !== 'close_day');
    expect((await s.api('PUT', `/users/${ids.clerk}`, { as: 'admin', body: { permissions: narrowed } })).status).toBe(
      200,
    );
    for (let i = 0; i < 2; i++) {
      expect(
        (await call('clerk', 'POST', '/closes', { store_id: A(), date: `2026-11-1${i}`, opening: 0, counted: 0 }))
          .status,
      ).toBe(403);
    }
    expect((await call('clerk', 'POST', '/payments', cashSale(700))).status).toBe(201);
  });

  it('the server never answered with an error of its own', () => {
    expect(s.errors).toEqual([]);
  });

  /** a bank line in store A's reconciliation that `payment` (of `amount`) may be confirmed against */
  async function linePair(payment: string, amount: number): Promise<{ payment: string; line: number }> {
    const [st] = await s.t
      .db('bank_statements')
      .insert({
        file: `${payment}.csv`,
        store_id: A(),
        encoding: 'utf-8',
        columns: '{}',
        lines: 1,
        new_lines: 1,
        balance_breaks: 0,
        created_at: Date.now(),
      })
      .returning('id');
    const [ln] = await s.t
      .db('bank_lines')
      .insert({
        statement_id: Number(typeof st === 'object' ? st.id : st),
        row: 2,
        at: Date.UTC(2026, 10, 18, 3, 5),
        has_time: true,
        amount,
        balance: null,
        summary: '',
        note: '',
        counterparty: '',
        digits: '',
        fingerprint: `grant-${payment}`,
      })
      .returning('id');
    return { payment, line: Number(typeof ln === 'object' ? ln.id : ln) };
  }
});

describe.each(DB_KINDS)('the money grants arrive on an existing database, on %s', (kind) => {
  let t: TestDb | undefined;
  afterAll(async () => {
    await t?.cleanup();
  });

  it('an account holding 編輯匯款 keeps closing and confirming, 匯款管理 alone keeps recording, and nobody else gains anything', async () => {
    t = await createTestDb(kind, { migrate: false });
    const db = t.db;
    for (const name of knownMigrationNames().filter((n) => n < MONEY_GRANTS))
      expect(await migrateNext(db)).toEqual([name]);
    const now = Date.now();
    const held: Record<string, { role: string; permissions: string[] }> = {
      clerk_of_old: { role: 'user', permissions: ['view_payments', 'edit_payments'] },
      manager: { role: 'user', permissions: ['manage_payments', 'edit_payments', 'view_payments'] },
      importer: { role: 'user', permissions: ['manage_payments'] },
      viewer: { role: 'user', permissions: ['view_payments', 'view_reports'] },
      nobody: { role: 'user', permissions: [] },
      boss: {
        role: 'admin',
        permissions: [
          'manage_users',
          'manage_stores',
          'manage_payments',
          'view_payments',
          'edit_payments',
          'delete_payments',
          'view_reports',
          'system_admin',
        ],
      },
    };
    for (const [username, u] of Object.entries(held)) {
      await db('users').insert({
        username,
        password_hash: 'x',
        role: u.role,
        permissions: JSON.stringify(u.permissions),
        created_at: now,
        updated_at: now,
      });
    }
    const stored = async () =>
      Object.fromEntries(
        ((await db('users').select('username', 'permissions')) as Array<{ username: string; permissions: string }>).map(
          (r) => [r.username, JSON.parse(r.permissions)],
        ),
      );

    expect(await migrateNext(db)).toEqual([MONEY_GRANTS]);
    const four = ['record_takings', 'record_cash_out', 'close_day', 'confirm_payments'];
    expect(await stored()).toEqual({
      clerk_of_old: ['view_payments', 'edit_payments', ...four],
      manager: ['manage_payments', 'edit_payments', 'view_payments', ...four],
      importer: ['manage_payments', 'record_takings', 'record_cash_out'],
      viewer: ['view_payments', 'view_reports'],
      nobody: [],
      boss: [...held.boss.permissions, ...four],
    });

    expect(await migrateDownOne(db)).toEqual([MONEY_GRANTS]);
    expect(await stored()).toEqual(Object.fromEntries(Object.entries(held).map(([k, u]) => [k, u.permissions])));
  });
});
