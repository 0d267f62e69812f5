/**
 * What a signed-in user reads
 * and changes stays inside what they may see, whatever the request looks like.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import { type UserRow } from '../../core/users/rows.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

describe.each(DB_KINDS)('read scope on %s', (kind) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer(kind);
    const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const extra = {
      mgrA: { role: 'user', store_id: s.stores.A.id, permissions: ['manage_users'] },
      auditA: { role: 'user', store_id: s.stores.A.id, permissions: ['system_admin'] },
      storesA: { role: 'user', store_id: s.stores.A.id, permissions: ['manage_stores'] },
    };
    for (const [name, spec] of Object.entries(extra)) {
      const u = await createUser(ctx, { username: name, password: PASSWORD, ...spec });
      tokens[name] = signToken(TEST_SECURITY, (await s.t.db<UserRow>('users').where({ id: u.id }).first())!);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it("a branch user manager lists and reads only their store's accounts and themselves, never admins (item 14)", async () => {
    const list = await s.api('GET', `/users${listParams({ range: [0, 99] })}`, { token: tokens.mgrA });
    expect(list.status).toBe(200);
    const names = list.body.map((u: any) => u.username).sort();
    expect(names).toEqual(['auditA', 'branchA', 'inactive', 'mgrA', 'storesA']);
    expect(Number(list.headers.get('content-range')?.split('/')[1])).toBe(5);
    for (const other of ['admin', 'branchB', 'hq_none']) {
      const res = await s.api('GET', `/users/${s.users[other].id}`, { token: tokens.mgrA });
      expect(res.status, other).toBe(404);
      expect(
        (await s.api('PUT', `/users/${s.users[other].id}`, { token: tokens.mgrA, body: { is_active: false } })).status,
        other,
      ).toBe(404);
    }
    expect((await s.api('GET', `/users/${s.users.branchA.id}`, { token: tokens.mgrA })).status).toBe(200);
    // an admin still sees everyone
    expect(
      (await s.api('GET', `/users${listParams({ range: [0, 99] })}`, { as: 'admin' })).body.length,
    ).toBeGreaterThan(10);
  });

  it('a store-scoped system_admin sees payment entries of their own store only in the audit log (item 15)', async () => {
    const pay = (store_id: number, last_five: string) =>
      s.api('POST', '/payments', {
        as: 'admin',
        body: { last_five, paid_at: '2026-11-18T09:15', amount: 321, note: '', store_id },
      });
    const a = (await pay(s.stores.A.id, '11111')).body;
    const b = (await pay(s.stores.B.id, '22222')).body;
    expect((await s.api('DELETE', `/payments/${b.uuid}`, { as: 'admin' })).status).toBe(200);
    const audit = await s.api('GET', `/audit${listParams({ filter: { entity: 'payment' }, range: [0, 999] })}`, {
      token: tokens.auditA,
    });
    expect(audit.status).toBe(200);
    const seen = audit.body.map((e: any) => e.entity_id);
    expect(seen).toContain(a.uuid);
    expect(seen).not.toContain(b.uuid);
    const all = await s.api('GET', `/audit${listParams({ filter: { entity: 'payment' }, range: [0, 999] })}`, {
      as: 'admin',
    });
    expect(all.body.map((e: any) => e.entity_id)).toContain(b.uuid);
  });

  it('a store-scoped system_admin reads cash-out and daily-close entries of their own store only', async () => {
    const cashOut = (store_id: number, note: string, at: string) =>
      s.api('POST', '/cash-out', {
        as: 'admin',
        body: { store_id, kind: '店內支出', category: '雜支', amount: 777, note, at },
      });
    for (const [store, tag] of [
      [s.stores.A.id, 'A'],
      [s.stores.B.id, 'B'],
    ] as const) {
      expect((await cashOut(store, `支出 ${tag}`, '2026-11-10T15:00')).status).toBe(201);
      expect(
        (
          await s.api('POST', '/closes', {
            as: 'admin',
            body: { store_id: store, date: '2026-11-10', opening: 1000, counted: 12345, note: `日結 ${tag}` },
          })
        ).status,
      ).toBe(201);
      // cash out of a closed day: the entry marking the change after the close
      expect((await cashOut(store, `補登 ${tag}`, '2026-11-10T16:00')).status).toBe(201);
    }
    const read = async (as: { token: string } | { as: string }) => {
      const res = await s.api(
        'GET',
        `/audit${listParams({ filter: { entity: ['cash_out', 'day_close'] }, range: [0, 999] })}`,
        as,
      );
      expect(res.status).toBe(200);
      return res.body as Array<{ entity: string; action: string; after: any; before: any }>;
    };
    const mine = await read({ token: tokens.auditA });
    const storesSeen = new Set(mine.map((e) => Number((e.after ?? e.before).store_id)));
    expect([...storesSeen]).toEqual([s.stores.A.id]);
    expect(mine.map((e) => `${e.entity}:${e.action}`).sort()).toEqual([
      'cash_out:create',
      'cash_out:create',
      'day_close:after_close',
      'day_close:close',
    ]);
    expect(JSON.stringify(mine)).not.toMatch(/支出 B|日結 B|補登 B/);
    // the admin reads both stores'
    const all = await read({ as: 'admin' });
    expect(new Set(all.map((e) => Number((e.after ?? e.before).store_id)))).toEqual(
      new Set([s.stores.A.id, s.stores.B.id]),
    );
  });

  it('export all needs manage_payments whatever the filter looks like (item 21)', async () => {
    const pay = (status: string, last_five: string) =>
      s.api('POST', '/payments/bulk-import', {
        as: 'admin',
        body: { payments: [{ last_five, paid_at: '2026-11-16T09:15', amount: 99, store_id: s.stores.A.id, status }] },
      });
    await pay('未確認', '33333');
    await pay('已入帳', '44444');
    const exportAs = (filter: Record<string, unknown>) =>
      fetch(`${s.url}/api/payments/export?filter=${encodeURIComponent(JSON.stringify(filter))}`, {
        headers: { authorization: `Bearer ${s.tokens.hq_view_payments}` },
      });
    for (const filter of [
      {},
      { status: ['未確認', '已入帳', '未入帳'] },
      { store_id: [s.stores.A.id, s.stores.B.id] },
      { paid_at_gte: '2000-01-01', paid_at_lte: '2099-12-31' },
    ]) {
      const res = await exportAs(filter);
      expect(res.status, JSON.stringify(filter)).toBe(403);
      expect((await res.json()).message).toBeTruthy();
    }
    expect((await exportAs({ status: ['已入帳'] })).status).toBe(200);
  });

  it("a first export is judged by what it selects: a narrow-looking filter that selects every payment of one's stores is an export all", async () => {
    const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const fresh = async (name: string) => {
      const u = await createUser(ctx, {
        username: name,
        password: PASSWORD,
        role: 'user',
        store_id: s.stores.A.id,
        permissions: ['view_payments'],
      });
      return signToken(TEST_SECURITY, (await s.t.db<UserRow>('users').where({ id: u.id }).first())!);
    };
    const exportAs = (token: string, filter: Record<string, unknown>) =>
      fetch(`${s.url}/api/payments/export?format=csv&filter=${encodeURIComponent(JSON.stringify(filter))}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    for (const last_five of ['55501', '55502']) {
      expect(
        (
          await s.api('POST', '/payments', {
            as: 'admin',
            body: { last_five, paid_at: '2026-11-17T10:00', amount: 450, note: '', store_id: s.stores.A.id },
          })
        ).status,
      ).toBe(201);
    }
    const storeA = await s.api(
      'GET',
      `/payments${listParams({ filter: { store_id: s.stores.A.id }, range: [0, 999] })}`,
      { as: 'admin' },
    );
    const uuids: string[] = storeA.body.map((p: any) => p.uuid);
    expect(uuids.length).toBeGreaterThan(1);
    expect(storeA.body.some((p: any) => p.employee)).toBe(false);
    // nobody in store A buys as staff: 員工購物以外 is every payment; so is the list's every number
    for (const filter of [{ employee: false }, { id: uuids }]) {
      const res = await exportAs(await fresh(`first_${Object.keys(filter)[0]}`), filter);
      expect(res.status, JSON.stringify(filter)).toBe(403);
      expect((await res.json()).message).toBe(
        '權限不足：這次匯出含您分店的每一筆匯款，等於匯出全部，需要「匯款管理」權限',
      );
    }
    // one left out is a filtered export; the piece that completes it is refused as a union
    const token = await fresh('first_pieces');
    const first = await exportAs(token, { id: uuids.slice(1) });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-row-count')).toBe(String(uuids.length - 1));
    const second = await exportAs(token, { id: [uuids[0]] });
    expect(second.status).toBe(403);
    expect((await second.json()).message).toBe(
      '權限不足：這次匯出加上您 24 小時內的其他匯出，等於匯出全部，需要「匯款管理」權限',
    );
  });

  it('a store-scoped store manager cannot rename or delete a store outside their scope', async () => {
    const now = Date.now();
    const [row] = await s.t
      .db('stores')
      .insert({ name: '空店', code: 'EMPTY16', created_at: now, updated_at: now })
      .returning('id');
    const unused = Number(typeof row === 'object' ? row.id : row);
    const before = await s.t.db('stores').orderBy('id');
    const auditBefore = (await s.t.db('audit_log').count({ n: '*' }).first()) as { n: number | string };
    for (const id of [s.stores.B.id, unused]) {
      const put = await s.api('PUT', `/stores/${id}`, {
        token: tokens.storesA,
        body: { code: 'TXG_OLD', name: '改名' },
      });
      expect(put.status, put.text).toBe(403);
      expect(put.body.message).toMatch(/權限不足/);
      const del = await s.api('DELETE', `/stores/${id}`, { token: tokens.storesA });
      expect(del.status, del.text).toBe(403);
    }
    expect(await s.t.db('stores').orderBy('id')).toEqual(before);
    expect(((await s.t.db('audit_log').count({ n: '*' }).first()) as { n: number | string }).n).toBe(auditBefore.n);
    // their own store they may still rename
    const own = await s.api('PUT', `/stores/${s.stores.A.id}`, { token: tokens.storesA, body: { name: '台北總店' } });
    expect(own.status, own.text).toBe(200);
    expect((await s.api('PUT', `/stores/${s.stores.A.id}`, { as: 'admin', body: { name: '台北店' } })).status).toBe(
      200,
    );
  });

  it('a store-scoped user manager can never make an account, its own included, headquarters or wider than itself', async () => {
    const me = s.users; // fixture users
    const mgrId = (await s.t.db('users').where({ username: 'mgrA' }).first('id')).id;
    const snapshot = async () =>
      s.t
        .db('users')
        .orderBy('id')
        .select('id', 'role', 'permissions', 'store_id', 'accessible_stores', 'token_version');
    const before = await snapshot();
    const attempts: Array<[string, string, unknown]> = [
      ['PUT', `/users/${mgrId}`, { store_id: null, accessible_stores: [s.stores.A.id] }],
      ['PUT', `/users/${mgrId}`, { store_id: null }],
      ['PUT', `/users/${mgrId}`, { accessible_stores: [s.stores.A.id, s.stores.B.id] }],
      ['PUT', `/users/${me.branchA.id}`, { store_id: null, accessible_stores: [s.stores.A.id] }],
      ['PUT', `/users/${me.branchA.id}`, { store_id: s.stores.B.id }],
      [
        'POST',
        '/users',
        {
          username: 'hqByBranch',
          password: PASSWORD,
          role: 'user',
          permissions: ['manage_users'],
          store_id: null,
          accessible_stores: [s.stores.A.id],
        },
      ],
      ['POST', '/users', { username: 'hqByBranch2', password: PASSWORD, role: 'user', permissions: [] }],
    ];
    for (const [method, path, body] of attempts) {
      const r = await s.api(method, path, { token: tokens.mgrA, body });
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}: ${r.text}`).toBe(403);
      expect(r.body.message).toMatch(/權限不足/);
    }
    expect(await snapshot()).toEqual(before);
    // what stays within their store is still theirs to do
    const ok = await s.api('POST', '/users', {
      token: tokens.mgrA,
      body: { username: 'staffA6', password: PASSWORD, role: 'user', permissions: [], store_id: s.stores.A.id },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(
      (await s.api('PUT', `/users/${ok.body.id}`, { token: tokens.mgrA, body: { is_active: false } })).status,
    ).toBe(200);
    // a headquarters manager keeps making headquarters accounts within their stores
    const hq = await s.api('POST', '/users', {
      as: 'hq_manage_users',
      body: {
        username: 'hqStaff6',
        password: PASSWORD,
        role: 'user',
        permissions: [],
        accessible_stores: [s.stores.A.id],
      },
    });
    expect(hq.status, hq.text).toBe(201);
    // the account it could not make never signs in
    expect((await s.api('POST', '/admin/login', { body: { username: 'hqByBranch', password: PASSWORD } })).status).toBe(
      401,
    );
  });

  it('a store-scoped system_admin reads account and sign-in entries of their own stores only', async () => {
    const login = (username: string, password: string) =>
      s.api('POST', '/admin/login', { body: { username, password } });
    expect((await login('branchA', PASSWORD)).status).toBe(200);
    expect((await login('branchB', PASSWORD)).status).toBe(200);
    expect((await login('admin', 'wrong-guess-12')).status).toBe(401);
    expect((await login('typedByMistake12', 'whatever')).status).toBe(401);
    expect((await login('branchB', 'wrong-guess-12')).status).toBe(401);
    // an account moved from store B into store A: its entries from before the move were another store's
    const moved = await s.api('POST', '/users', {
      as: 'admin',
      body: { username: 'movedB12', password: PASSWORD, role: 'user', permissions: [], store_id: s.stores.B.id },
    });
    expect(
      (await s.api('PUT', `/users/${moved.body.id}`, { as: 'admin', body: { permissions: ['view_payments'] } })).status,
    ).toBe(200);
    expect(
      (await s.api('PUT', `/users/${moved.body.id}`, { as: 'admin', body: { store_id: s.stores.A.id } })).status,
    ).toBe(200);

    const audit = await s.api('GET', `/audit${listParams({ filter: { entity: 'user' }, range: [0, 999] })}`, {
      token: tokens.auditA,
    });
    expect(audit.status).toBe(200);
    const users = await s.t.db('users').select('id', 'username', 'role', 'store_id');
    const mine = new Set(
      users
        .filter((u: any) => (u.role !== 'admin' && Number(u.store_id) === s.stores.A.id) || u.username === 'auditA')
        .map((u: any) => String(u.id)),
    );
    const text = JSON.stringify(audit.body);
    for (const e of audit.body) {
      expect(mine.has(e.entity_id), JSON.stringify(e)).toBe(true);
      for (const v of [e.before, e.after])
        if (v && typeof v === 'object' && 'role' in v) {
          expect(v.role).not.toBe('admin');
          expect(v.store_id).toBe(s.stores.A.id);
        }
    }
    for (const hidden of ['typedByMistake12', '"admin"', 'branchB', 'hq_manage_users'])
      expect(text).not.toContain(hidden);
    const names = audit.body.map((e: any) => `${e.action}:${e.after?.username ?? e.before?.username}`);
    expect(names).toContain('login:branchA');
    expect(names).toContain('create:branchA');
    // the move into A is shown (after: store A); the entries from when it was store B's are not
    const ofMoved = audit.body.filter((e: any) => e.entity_id === String(moved.body.id));
    expect(ofMoved.map((e: any) => e.action)).toEqual([]);
    // an admin still reads everything
    const all = await s.api('GET', `/audit${listParams({ filter: { entity: 'user' }, range: [0, 999] })}`, {
      as: 'admin',
    });
    expect(JSON.stringify(all.body)).toContain('typedByMistake12');
  });
});
