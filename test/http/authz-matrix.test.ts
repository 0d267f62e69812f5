/**
 * The server enforces every permission and store boundary, whatever the UI hides: each call of
 * the API, by each kind of caller, answers exactly the expected status, and a refused write
 * changes nothing.
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_KEYS } from '../../core/permissions.js';
import { type UserRow } from '../../core/users/rows.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HQ = PERMISSION_KEYS.map((p) => `hq_${p}`);
const INVALID = ['anonymous', 'inactive', 'tampered', 'expired', 'revoked'] as const;
const CALLERS = ['admin', ...HQ, 'hq_none', 'branchA', 'branchB', ...INVALID];

interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** a file's bytes (statement upload) */
  raw?: Buffer;
  headers?: Record<string, string>;
}
/** Prepares what one call needs (a fresh record to act on) and says what to send. */
type Probe = (s: TestServer) => Promise<Request>;

interface Case {
  name: string;
  write: boolean;
  probe: Probe;
  /** callers answered with the success status; every other valid caller gets 403 */
  allowed: string[];
  ok: number;
  /** callers that hold the permission but not the store: not found, as if it never was (never 403, which would say it exists) */
  notFound?: string[];
}

let seq = 0;
/** a past Taiwan day no other call closes, so each caller's close is its own */
const dayOfItsOwn = () => new Date(Date.UTC(2025, 0, 1) + ++seq * 86_400_000).toISOString().slice(0, 10);
/** a payment in store A, made fresh so writes by one caller do not affect the next */
async function cashOutInA(s: TestServer): Promise<number> {
  seq++;
  const r = await s.api('POST', '/cash-out', {
    as: 'admin',
    body: { kind: '店內支出', category: '雜支', amount: 100 + seq, at: '2026-11-18T13:00', store_id: s.stores.A.id },
  });
  return r.body.id;
}

async function paymentInA(s: TestServer): Promise<string> {
  seq++;
  const r = await s.api('POST', '/payments', {
    as: 'admin',
    body: {
      last_five: String(10000 + seq).slice(-5),
      paid_at: '2026-11-18T10:00',
      amount: 100 + seq,
      store_id: s.stores.A.id,
    },
  });
  return r.body.uuid;
}

/** a plain user row, inserted directly (no bcrypt) as a target for user writes */
async function plainUser(s: TestServer): Promise<number> {
  seq++;
  const now = Date.now();
  const [row] = await s.t
    .db('users')
    .insert({
      username: `target${seq}`,
      password_hash: '$2b$10$abcdefghijklmnopqrstuu0123456789012345678901234567890',
      role: 'user',
      permissions: '[]',
      store_id: s.stores.A.id,
      accessible_stores: '[]',
      is_active: true,
      token_version: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}

async function unusedStore(s: TestServer): Promise<number> {
  seq++;
  const now = Date.now();
  const [row] = await s.t
    .db('stores')
    .insert({ name: `空店${seq}`, code: `E${seq}`, created_at: now, updated_at: now })
    .returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}

/** an unused store added to a fixture user's accessible stores */
async function unusedStoreOf(s: TestServer, who: string): Promise<number> {
  const id = await unusedStore(s);
  const row = await s.t.db('users').where({ id: s.users[who].id }).first('accessible_stores');
  await s.t
    .db('users')
    .where({ id: s.users[who].id })
    .update({ accessible_stores: JSON.stringify([...JSON.parse(row.accessible_stores), id]) });
  return id;
}

const call = (
  method: string,
  path: (s: TestServer) => Promise<string> | string,
  body?: (s: TestServer) => Promise<unknown> | unknown,
): Probe => {
  return async (s) => ({ method, path: await path(s), body: body ? await body(s) : undefined });
};

/** a payment in store A with a statement credit of its amount imported for store A; `linked` confirms the pair */
async function pairInA(s: TestServer, linked = false): Promise<{ payment: string; line: number }> {
  const payment = await paymentInA(s);
  const amount = Number((await s.t.db('payments').where({ uuid: payment }).first()).amount);
  const [st] = await s.t
    .db('bank_statements')
    .insert({
      file: `a${seq}.csv`,
      store_id: s.stores.A.id,
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
      at: Date.UTC(2026, 10, 18, 2, 5),
      has_time: true,
      amount,
      balance: null,
      summary: '',
      note: '',
      counterparty: '',
      digits: '',
      fingerprint: `authz-${seq}-${Math.random()}`,
    })
    .returning('id');
  const line = Number(typeof ln === 'object' ? ln.id : ln);
  if (linked) {
    await s.t.db('bank_links').insert({
      payment_uuid: payment,
      line_id: line,
      status_before: '未確認',
      decided_by: 'person',
      actor_id: null,
      score: null,
      reasons: '[]',
      at: Date.now(),
    });
    await s.t.db('payments').where({ uuid: payment }).update({ status: '已入帳' });
  }
  return { payment, line };
}

/** a payer remembered for store A, learned from a fresh confirmed pair */
async function payerInA(s: TestServer): Promise<number> {
  const { payment, line } = await pairInA(s, true);
  const [row] = await s.t
    .db('reconcile_payers')
    .insert({
      store_id: s.stores.A.id,
      payer: `***${seq}`,
      last_five: '12345',
      payment_uuid: payment,
      line_id: line,
      learned_by: 'person',
      actor_id: null,
      actor_username: 'admin',
      learned_at: Date.now(),
    })
    .returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}

const VIEWERS = ['admin', 'hq_view_payments', 'branchA', 'branchB'];
const viewA = ['admin', 'hq_view_payments', 'branchA'];

const CASES: Case[] = [
  {
    name: 'GET /admin/me',
    write: false,
    ok: 200,
    allowed: ['admin', ...HQ, 'hq_none', 'branchA', 'branchB'],
    probe: call('GET', () => '/admin/me'),
  },
  {
    name: 'POST /payments (store A)',
    write: true,
    ok: 201,
    // any active user whose scope holds store A; branch B staff may submit only for store B.
    // Every caller sends the same report, so each confirms the second copy on purpose (可能重複).
    allowed: ['admin', ...HQ, 'hq_none', 'branchA'],
    probe: call(
      'POST',
      () => '/payments',
      (s) => ({
        last_five: '54321',
        paid_at: '2026-11-18T11:00',
        amount: 999,
        store_id: s.stores.A.id,
        confirm_duplicate: true,
      }),
    ),
  },
  // Takings in hand, cash out and closing the day each need their own grant: a read-only account records none of them.
  {
    name: 'POST /payments 現金 (store A)',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_record_takings', 'branchA'],
    probe: call(
      'POST',
      () => '/payments',
      (s) => ({
        method: '現金',
        paid_at: '2026-11-18T11:00',
        amount: 500 + ++seq,
        store_id: s.stores.A.id,
        confirm_duplicate: true,
      }),
    ),
  },
  {
    name: 'POST /cash-out 提領 (store A)',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_record_cash_out', 'branchA'],
    probe: call(
      'POST',
      () => '/cash-out',
      (s) => ({ kind: '提領', amount: 20_000, at: '2026-11-18T12:00', store_id: s.stores.A.id }),
    ),
  },
  {
    name: 'PUT /cash-out/:id (store A): the till keeps it, or an editor of payments',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_record_cash_out', 'hq_edit_payments', 'branchA'],
    probe: call(
      'PUT',
      async (s) => `/cash-out/${await cashOutInA(s)}`,
      () => ({ amount: 90, note: '找錯錢' }),
    ),
  },
  {
    name: 'DELETE /cash-out/:id (store A): the till keeps it, or a deleter of payments',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_record_cash_out', 'hq_delete_payments', 'branchA'],
    probe: call('DELETE', async (s) => `/cash-out/${await cashOutInA(s)}`),
  },
  {
    name: 'POST /closes (store A, a day of its own)',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_close_day', 'branchA'],
    probe: call(
      'POST',
      () => '/closes',
      (s) => ({ store_id: s.stores.A.id, date: dayOfItsOwn(), opening: 0, counted: 0 }),
    ),
  },
  {
    name: 'POST /payments (store C, outside every scope but admin)',
    write: true,
    ok: 201,
    allowed: ['admin'],
    probe: call(
      'POST',
      () => '/payments',
      (s) => ({
        last_five: '54321',
        paid_at: '2026-11-18T11:00',
        amount: 999,
        store_id: s.stores.C.id,
        confirm_duplicate: true,
      }),
    ),
  },
  { name: 'GET /payments', write: false, ok: 200, allowed: VIEWERS, probe: call('GET', () => '/payments') },
  {
    name: 'GET /payments/:id (store A)',
    write: false,
    ok: 200,
    allowed: viewA,
    probe: call('GET', async (s) => `/payments/${await paymentInA(s)}`),
  },
  {
    name: 'PUT /payments/:id (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_edit_payments', 'branchA'],
    probe: call(
      'PUT',
      async (s) => `/payments/${await paymentInA(s)}`,
      () => ({ status: '已入帳', note: '已核對' }),
    ),
  },
  {
    name: 'DELETE /payments/:id (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_delete_payments', 'branchA'],
    probe: call('DELETE', async (s) => `/payments/${await paymentInA(s)}`),
  },
  {
    name: 'DELETE /payments (batch, store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_delete_payments', 'branchA'],
    probe: call(
      'DELETE',
      () => '/payments',
      async (s) => ({ uuids: [await paymentInA(s)] }),
    ),
  },
  {
    name: 'POST /payments/bulk-import (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_manage_payments'],
    probe: call(
      'POST',
      () => '/payments/bulk-import',
      (s) => ({ payments: [{ last_five: '11111', paid_at: '2026-11-18T12:00', amount: 10, store_id: s.stores.A.id }] }),
    ),
  },
  {
    name: 'GET /stores/:id/payments (store A)',
    write: false,
    ok: 200,
    allowed: viewA,
    probe: call('GET', (s) => `/stores/${s.stores.A.id}/payments`),
  },
  {
    name: 'POST /payments/bulk-import/check (store A)',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_manage_payments'],
    probe: call(
      'POST',
      () => '/payments/bulk-import/check',
      (s) => ({ payments: [{ last_five: '11112', paid_at: '2026-11-18T12:00', amount: 10, store_id: s.stores.A.id }] }),
    ),
  },
  {
    name: 'GET /stats/summary',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_view_reports', 'branchA', 'branchB'],
    probe: call('GET', () => '/stats/summary'),
  },
  {
    name: 'GET /stats/charts',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_view_reports', 'branchA', 'branchB'],
    probe: call('GET', () => '/stats/charts'),
  },
  {
    name: 'GET /audit',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_system_admin'],
    probe: call('GET', () => '/audit'),
  },
  {
    name: 'GET /users',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_manage_users'],
    probe: call('GET', () => '/users'),
  },
  {
    name: 'GET /users/:id (another user)',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_manage_users'],
    probe: call('GET', async (s) => `/users/${await plainUser(s)}`),
  },
  {
    name: 'POST /users',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_manage_users'],
    probe: call(
      'POST',
      () => '/users',
      () => ({ username: `new${++seq}`, password: 'abcdef1', role: 'user', permissions: [] }),
    ),
  },
  {
    name: 'PUT /users/:id',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_manage_users'],
    probe: call(
      'PUT',
      async (s) => `/users/${await plainUser(s)}`,
      () => ({ permissions: [], is_active: false }),
    ),
  },
  {
    name: 'DELETE /users/:id',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_manage_users'],
    probe: call('DELETE', async (s) => `/users/${await plainUser(s)}`),
  },
  {
    name: 'POST /users/change-password (wrong current password)',
    write: true,
    ok: 400,
    allowed: ['admin', ...HQ, 'hq_none', 'branchA', 'branchB'],
    probe: call(
      'POST',
      () => '/users/change-password',
      () => ({ currentPassword: 'not-it', newPassword: 'abcdef12' }),
    ),
  },
  {
    name: 'GET /stores',
    write: false,
    ok: 200,
    allowed: ['admin', ...HQ, 'hq_none', 'branchA', 'branchB'],
    probe: call('GET', () => '/stores'),
  },
  {
    name: 'GET /stores/:id',
    write: false,
    ok: 200,
    allowed: ['admin', ...HQ, 'hq_none', 'branchA', 'branchB'],
    probe: call('GET', (s) => `/stores/${s.stores.C.id}`),
  },
  {
    name: 'POST /stores',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_manage_stores'],
    probe: call(
      'POST',
      () => '/stores',
      () => ({ name: '新店', code: `N${++seq}` }),
    ),
  },
  // Stores outside the caller's scope are the admin's alone; hq_manage_stores reaches A and B.
  {
    name: 'PUT /stores/:id (outside every scope but admin)',
    write: true,
    ok: 200,
    allowed: ['admin'],
    probe: call(
      'PUT',
      async (s) => `/stores/${await unusedStore(s)}`,
      () => ({ name: '改名店' }),
    ),
  },
  {
    name: 'PUT /stores/:id (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_manage_stores'],
    probe: call(
      'PUT',
      (s) => `/stores/${s.stores.A.id}`,
      (s) => ({ name: s.stores.A.name }),
    ),
  },
  {
    name: 'DELETE /stores/:id (outside every scope but admin)',
    write: true,
    ok: 200,
    allowed: ['admin'],
    probe: call('DELETE', async (s) => `/stores/${await unusedStore(s)}`),
  },
  {
    name: 'DELETE /stores/:id (an unused store hq_manage_stores may reach)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_manage_stores'],
    probe: call('DELETE', async (s) => `/stores/${await unusedStoreOf(s, 'hq_manage_stores')}`),
  },
  {
    name: 'POST /reconcile/statements (store A)',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_manage_payments'],
    probe: async (s) => ({
      method: 'POST',
      path: `/reconcile/statements?filename=a.csv&store_id=${s.stores.A.id}`,
      raw: Buffer.from(`交易日期,存入\n2026/11/18,${100_000 + ++seq}\n`),
      headers: { 'content-type': 'application/octet-stream' },
    }),
  },
  {
    name: 'GET /links/floods',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_view_payments', 'hq_manage_stores', 'branchA', 'branchB'],
    probe: call('GET', () => '/links/floods'),
  },
  {
    name: 'POST /stores/:id/link/reports/remove (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_delete_payments', 'branchA'],
    probe: call(
      'POST',
      (s) => `/stores/${s.stores.A.id}/link/reports/remove`,
      () => ({ from: '2026-11-18' }),
    ),
  },
  {
    name: 'GET /reconcile/lines',
    write: false,
    ok: 200,
    allowed: VIEWERS,
    probe: call('GET', () => '/reconcile/lines'),
  },
  {
    name: 'GET /reconcile/proposals',
    write: false,
    ok: 200,
    allowed: VIEWERS,
    probe: call('GET', () => '/reconcile/proposals?from=2026-11-18&to=2026-11-18'),
  },
  {
    name: 'POST /reconcile/confirm (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_confirm_payments', 'branchA'],
    probe: call(
      'POST',
      () => '/reconcile/confirm',
      async (s) => ({ pairs: [await pairInA(s)] }),
    ),
  },
  {
    name: 'POST /reconcile/unpaid (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_confirm_payments', 'branchA'],
    probe: call(
      'POST',
      () => '/reconcile/unpaid',
      async (s) => ({ payments: [await paymentInA(s)] }),
    ),
  },
  {
    name: 'POST /reconcile/unlink (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_confirm_payments', 'branchA'],
    probe: call(
      'POST',
      () => '/reconcile/unlink',
      async (s) => ({ payment: (await pairInA(s, true)).payment }),
    ),
  },
  {
    name: 'POST /reconcile/from-line (a credit of store A)',
    write: true,
    ok: 201,
    allowed: ['admin', 'hq_confirm_payments', 'branchA'],
    notFound: ['branchB'],
    probe: call(
      'POST',
      () => '/reconcile/from-line',
      async (s) => ({ line: (await pairInA(s)).line, last_five: '12345' }),
    ),
  },
  {
    name: 'GET /reconcile/lines/:id/reports (a credit of store A)',
    write: false,
    ok: 200,
    allowed: ['admin', 'hq_confirm_payments', 'branchA'],
    notFound: ['branchB'],
    probe: call('GET', async (s) => `/reconcile/lines/${(await pairInA(s)).line}/reports`),
  },
  {
    name: 'GET /reconcile/payers',
    write: false,
    ok: 200,
    allowed: VIEWERS,
    probe: call('GET', () => '/reconcile/payers'),
  },
  {
    name: 'DELETE /reconcile/payers/:id (store A)',
    write: true,
    ok: 200,
    allowed: ['admin', 'hq_confirm_payments', 'branchA'],
    notFound: ['branchB'],
    probe: call('DELETE', async (s) => `/reconcile/payers/${await payerInA(s)}`),
  },
];

async function counts(s: TestServer) {
  const out: Record<string, number> = {};
  for (const t of [
    'payments',
    'users',
    'stores',
    'audit_log',
    'bank_statements',
    'bank_links',
    'reconcile_payers',
    'cash_out',
    'day_closes',
  ]) {
    const r = (await s.t.db(t).count({ n: '*' }).first()) as { n: number | string };
    out[t] = Number(r.n);
  }
  return out;
}

describe.each(DB_KINDS)('authorization matrix on %s', (kind) => {
  let s: TestServer;
  const tokens: Record<string, string | undefined> = {};

  beforeAll(async () => {
    s = await startTestServer(kind);
    Object.assign(tokens, s.tokens);
    tokens.anonymous = undefined;
    // tampered: admin's token with the payload changed to another user, signature kept
    const [h, , sig] = s.tokens.hq_none.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        sub: String(s.users.admin.id),
        username: 'admin',
        tv: 0,
        exp: Math.floor(Date.now() / 1000) + 3600,
      }),
    ).toString('base64url');
    tokens.tampered = `${h}.${forged}.${sig}`;
    // expired: correctly signed, but past its time
    const adminRow = (await s.t.db<UserRow>('users').where({ id: s.users.admin.id }).first())!;
    tokens.expired = jwt.sign(
      {
        sub: String(adminRow.id),
        username: 'admin',
        tv: adminRow.token_version,
        exp: Math.floor(Date.now() / 1000) - 60,
      },
      TEST_SECURITY.jwtSecret,
      { algorithm: 'HS256' },
    );
    // revoked: an admin's token from before their password change
    const created = await s.api('POST', '/users', {
      as: 'admin',
      body: { username: 'revokee', password: PASSWORD, role: 'admin' },
    });
    const login = await s.api('POST', '/admin/login', { body: { username: 'revokee', password: PASSWORD } });
    tokens.revoked = login.body.token;
    const changed = await s.api('POST', '/users/change-password', {
      token: login.body.token,
      body: { currentPassword: PASSWORD, newPassword: 'another-secret' },
    });
    expect(created.status).toBe(201);
    expect(changed.status).toBe(200);
  });
  afterAll(async () => s?.close());

  for (const c of CASES) {
    describe(c.name, () => {
      it.each(CALLERS)('%s', async (who) => {
        const expected = (INVALID as readonly string[]).includes(who)
          ? 401
          : c.allowed.includes(who)
            ? c.ok
            : c.notFound?.includes(who)
              ? 404
              : 403;
        const req = await c.probe(s);
        const before = await counts(s);
        const r = await s.api(req.method, req.path, {
          token: tokens[who],
          body: req.body,
          raw: req.raw,
          headers: req.headers,
        });
        expect(r.status, `${c.name} as ${who}: ${r.text}`).toBe(expected);
        if (r.status === 401 || r.status === 403 || (r.status === 404 && c.notFound)) {
          expect(r.body.message).toMatch(/請先登入|登入已失效|權限不足|分店|找不到/);
          if (c.write) expect(await counts(s), 'a refused write changes nothing').toEqual(before);
        }
      });
    });
  }

  it('has no unexpected server errors', () => {
    expect(s.errors).toEqual([]);
  });
});
