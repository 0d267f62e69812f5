/**
 * User management over HTTP: the list protocol, honest shapes, the user form's validation
 * (spec section 5, literal texts), account protection (spec section 6)
 * and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { listParams, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const ALL_PERMISSIONS = [
  'manage_users',
  'manage_stores',
  'manage_payments',
  'view_payments',
  'edit_payments',
  'delete_payments',
  'view_reports',
  'system_admin',
  'record_takings',
  'record_cash_out',
  'close_day',
  'confirm_payments',
];
const USER_KEYS = [
  'accessible_stores',
  'created_at',
  'id',
  'is_active',
  'permissions',
  'role',
  'store_id',
  'updated_at',
  'username',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const FIXTURE_USERS = 17; // admin, hq_none, branchA, branchB, inactive and one hq_<permission> per key

function expectUserShape(u: any) {
  expect(Object.keys(u).sort()).toEqual(USER_KEYS);
  expect(u).not.toHaveProperty('password_hash');
  expect(u).not.toHaveProperty('password');
  expect(typeof u.id).toBe('number');
  expect(typeof u.username).toBe('string');
  expect(typeof u.is_active).toBe('boolean');
  expect(u.store_id === null || typeof u.store_id === 'number').toBe(true);
  expect(Array.isArray(u.permissions)).toBe(true);
  for (const id of u.accessible_stores) expect(typeof id).toBe('number');
  expect(u.created_at).toMatch(ISO);
  expect(new Date(u.created_at).toISOString()).toBe(u.created_at);
  expect(u.updated_at).toMatch(ISO);
}

function expectForbidden(res: ApiResponse, message?: string) {
  expect(res.status).toBe(403);
  if (message !== undefined) expect(res.body.message).toBe(message);
  else expect(res.body.message).toMatch(/^權限不足/);
}

function expectFieldError(res: ApiResponse, field: string, message: string) {
  expect(res.status).toBe(400);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(res.body.errors).toContainEqual({ field, message });
}

describe.each(DB_KINDS)('users API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());

  const usersTable = () => s.t.db('users').orderBy('id');
  const auditCount = async () =>
    Number(((await s.t.db('audit_log').count({ n: '*' }).first()) as { n: number | string }).n);
  const row = (id: number) => s.t.db('users').where({ id }).first();

  /** Runs a refused call and checks the database did not move: no user row changed, no audit entry. */
  async function expectNothingChanged(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const users = await usersTable();
    const audits = await auditCount();
    const res = await call();
    expect(await usersTable()).toEqual(users);
    expect(await auditCount()).toBe(audits);
    return res;
  }

  let seq = 0;
  /** A plain user created by the admin, for tests that change or delete it. */
  async function makeUser(extra: Record<string, unknown> = {}) {
    const username = `u${kind.slice(0, 2)}_${++seq}`;
    const res = await s.api('POST', '/users', {
      as: 'admin',
      body: {
        username,
        password: PASSWORD,
        role: 'user',
        permissions: ['view_payments'],
        store_id: s.stores.A.id,
        ...extra,
      },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; username: string; [k: string]: unknown };
  }

  describe('GET /api/users (list protocol)', () => {
    it('lists every user for an admin, with Content-Range users 0-N/total, oldest first by default', async () => {
      const res = await s.api('GET', '/users', { as: 'admin' });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(FIXTURE_USERS);
      expect(res.headers.get('content-range')).toBe(`users 0-${FIXTURE_USERS - 1}/${FIXTURE_USERS}`);
      const ids = res.body.map((u: any) => u.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      expect(res.body.map((u: any) => u.username)).toEqual(
        expect.arrayContaining(['admin', 'hq_none', 'branchA', 'branchB', 'inactive', 'hq_manage_users']),
      );
    });

    it('never carries a password hash and uses honest JSON types', async () => {
      const res = await s.api('GET', '/users', { as: 'admin' });
      expect(res.text).not.toContain('password_hash');
      expect(res.text).not.toContain('$2');
      for (const u of res.body) expectUserShape(u);
      const inactive = res.body.find((u: any) => u.username === 'inactive');
      expect(inactive.is_active).toBe(false);
      const branchA = res.body.find((u: any) => u.username === 'branchA');
      expect(branchA.is_active).toBe(true);
      expect(branchA.store_id).toBe(s.stores.A.id);
      const hq = res.body.find((u: any) => u.username === 'hq_view_payments');
      expect(hq.accessible_stores).toEqual([s.stores.A.id, s.stores.B.id]);
    });

    it('pages with range, and pages do not overlap', async () => {
      const p1 = await s.api('GET', `/users${listParams({ range: [0, 4] })}`, { as: 'admin' });
      const p2 = await s.api('GET', `/users${listParams({ range: [5, 9] })}`, { as: 'admin' });
      const p3 = await s.api('GET', `/users${listParams({ range: [10, 19] })}`, { as: 'admin' });
      expect(p1.status).toBe(200);
      expect(p1.body).toHaveLength(5);
      expect(p1.headers.get('content-range')).toBe(`users 0-4/${FIXTURE_USERS}`);
      expect(p2.headers.get('content-range')).toBe(`users 5-9/${FIXTURE_USERS}`);
      expect(p3.body).toHaveLength(FIXTURE_USERS - 10);
      expect(p3.headers.get('content-range')).toBe(`users 10-${FIXTURE_USERS - 1}/${FIXTURE_USERS}`);
      const all = [...p1.body, ...p2.body, ...p3.body].map((u: any) => u.id);
      expect(new Set(all).size).toBe(FIXTURE_USERS);
    });

    it('sorts by id descending and by username', async () => {
      const desc = await s.api('GET', `/users${listParams({ sort: ['id', 'DESC'] })}`, { as: 'admin' });
      expect(desc.status).toBe(200);
      const ids = desc.body.map((u: any) => u.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

      const some = [s.users.inactive.id, s.users.branchB.id, s.users.admin.id, s.users.branchA.id];
      const byName = await s.api('GET', `/users${listParams({ sort: ['username', 'ASC'], filter: { id: some } })}`, {
        as: 'admin',
      });
      expect(byName.body.map((u: any) => u.username)).toEqual(['admin', 'branchA', 'branchB', 'inactive']);
      const byNameDesc = await s.api(
        'GET',
        `/users${listParams({ sort: ['username', 'DESC'], filter: { id: some } })}`,
        { as: 'admin' },
      );
      expect(byNameDesc.body.map((u: any) => u.username)).toEqual(['inactive', 'branchB', 'branchA', 'admin']);
    });

    it('filters by q (part of the username, any case), with the filtered total in Content-Range', async () => {
      const res = await s.api('GET', `/users${listParams({ filter: { q: 'BRANCH' }, sort: ['id', 'ASC'] })}`, {
        as: 'admin',
      });
      expect(res.status).toBe(200);
      expect(res.body.map((u: any) => u.username)).toEqual(['branchA', 'branchB']);
      expect(res.headers.get('content-range')).toBe('users 0-1/2');
    });

    it('filters by role', async () => {
      const res = await s.api('GET', `/users${listParams({ filter: { role: 'admin' } })}`, { as: 'admin' });
      expect(res.body.map((u: any) => u.username)).toEqual(['admin']);
      expect(res.headers.get('content-range')).toBe('users 0-0/1');
      const users = await s.api('GET', `/users${listParams({ filter: { role: 'user' } })}`, { as: 'admin' });
      expect(users.body).toHaveLength(FIXTURE_USERS - 1);
      expect(users.body.every((u: any) => u.role === 'user')).toBe(true);
    });

    it('filters by store_id, one value or several', async () => {
      const one = await s.api(
        'GET',
        `/users${listParams({ filter: { store_id: s.stores.A.id }, sort: ['username', 'ASC'] })}`,
        { as: 'admin' },
      );
      expect(one.body.map((u: any) => u.username)).toEqual(['branchA', 'inactive']);
      const two = await s.api(
        'GET',
        `/users${listParams({ filter: { store_id: [s.stores.A.id, s.stores.B.id] }, sort: ['username', 'ASC'] })}`,
        { as: 'admin' },
      );
      expect(two.body.map((u: any) => u.username)).toEqual(['branchA', 'branchB', 'inactive']);
      expect(two.headers.get('content-range')).toBe('users 0-2/3');
    });

    it('filters by id (getMany)', async () => {
      const ids = [s.users.hq_none.id, s.users.branchB.id];
      const res = await s.api('GET', `/users${listParams({ filter: { id: ids } })}`, { as: 'admin' });
      expect(res.body.map((u: any) => u.id).sort()).toEqual([...ids].sort());
      expect(res.headers.get('content-range')).toBe('users 0-1/2');
    });

    it('answers 400 for an unknown sort field or filter, instead of ignoring it', async () => {
      const sort = await s.api('GET', `/users${listParams({ sort: ['password_hash', 'ASC'] })}`, { as: 'admin' });
      expect(sort.status).toBe(400);
      expect(sort.body.errors[0].message).toBe('不支援的排序欄位：password_hash');
      const filter = await s.api('GET', `/users${listParams({ filter: { password_hash: 'x' } })}`, { as: 'admin' });
      expect(filter.status).toBe(400);
      const range = await s.api('GET', '/users?range=[5,1]', { as: 'admin' });
      expect(range.status).toBe(400);
    });

    it('is open to a non-admin holding manage_users', async () => {
      const res = await s.api('GET', '/users', { as: 'hq_manage_users' });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(FIXTURE_USERS);
    });

    it.each([
      'hq_none',
      'branchA',
      'branchB',
      'hq_manage_stores',
      'hq_view_payments',
      'hq_system_admin',
      'hq_view_reports',
    ])('answers 403 to %s, who lacks manage_users', async (who) => {
      const res = await s.api('GET', '/users', { as: who });
      expectForbidden(res, '權限不足：需要「會員管理」權限');
      expect(res.headers.get('content-range')).toBeNull();
    });

    it('answers 401 to an anonymous caller and to an inactive user', async () => {
      expect((await s.api('GET', '/users')).status).toBe(401);
      expect((await s.api('GET', '/users', { as: 'inactive' })).status).toBe(401);
    });
  });

  describe('GET /api/users/:id', () => {
    it('answers the admin any user, without a password hash', async () => {
      const res = await s.api('GET', `/users/${s.users.branchB.id}`, { as: 'admin' });
      expect(res.status).toBe(200);
      expectUserShape(res.body);
      expect(res.body.username).toBe('branchB');
      expect(res.body.store_id).toBe(s.stores.B.id);
    });

    it('lets a user read their own record but not another one without manage_users', async () => {
      expect((await s.api('GET', `/users/${s.users.branchA.id}`, { as: 'branchA' })).status).toBe(200);
      expectForbidden(await s.api('GET', `/users/${s.users.branchB.id}`, { as: 'branchA' }));
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const res = await s.api('GET', '/users/999999', { as: 'admin' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('找不到用戶');
      expect((await s.api('GET', '/users/abc', { as: 'admin' })).status).toBe(404);
    });
  });

  describe('the last active admin', () => {
    it('cannot be demoted: 403, and nothing changes', async () => {
      const admins = await s.t.db('users').where({ role: 'admin', is_active: true });
      expect(admins.map((a: any) => a.username)).toEqual(['admin']);
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${s.users.admin.id}`, { as: 'admin', body: { role: 'user' } }),
      );
      expectForbidden(res, '至少需要保留一位啟用中的管理員');
      const me = await s.api('GET', '/admin/me', { as: 'admin' });
      expect(me.body.role).toBe('admin');
    });
  });

  describe('POST /api/users', () => {
    it('creates a user (201): is_active defaults to true, no hash, the password signs in, one audit row', async () => {
      const before = await auditCount();
      const res = await s.api('POST', '/users', {
        as: 'admin',
        body: {
          username: 'newbie',
          password: 'tea-leaf-6',
          confirmPassword: 'tea-leaf-6',
          role: 'user',
          permissions: ['view_payments', 'edit_payments'],
          store_id: s.stores.A.id,
          accessible_stores: [s.stores.B.id],
        },
      });
      expect(res.status).toBe(201);
      expectUserShape(res.body);
      expect(res.body).toMatchObject({
        username: 'newbie',
        role: 'user',
        permissions: ['view_payments', 'edit_payments'],
        store_id: s.stores.A.id,
        accessible_stores: [s.stores.B.id],
        is_active: true,
      });
      expect(await auditCount()).toBe(before + 1);
      const audit = await s.t.db('audit_log').where({ entity: 'user', entity_id: String(res.body.id) });
      expect(audit).toHaveLength(1);
      expect(audit[0].action).toBe('create');
      expect(Number(audit[0].actor_id)).toBe(s.users.admin.id);
      expect(audit[0].actor_username).toBe('admin');
      expect(JSON.parse(audit[0].after).username).toBe('newbie');
      expect(audit[0].after).not.toContain('tea-leaf-6');
      expect(audit[0].after).not.toContain('password_hash');

      // (after the audit checks: a sign-in is audited too, as 'login')
      const signIn = await s.api('POST', '/admin/login', { body: { username: 'newbie', password: 'tea-leaf-6' } });
      expect(signIn.status).toBe(200);
    });

    it('creates a headquarters user with no store when store_id is null', async () => {
      const res = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'hq_new', password: PASSWORD, role: 'user', store_id: null },
      });
      expect(res.status).toBe(201);
      expect(res.body.store_id).toBeNull();
      expect(res.body.permissions).toEqual([]);
      expect(res.body.accessible_stores).toEqual([]);
    });

    it('can create an inactive user when asked', async () => {
      const res = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'born_off', password: PASSWORD, role: 'user', is_active: false },
      });
      expect(res.status).toBe(201);
      expect(res.body.is_active).toBe(false);
      expect((await s.api('POST', '/admin/login', { body: { username: 'born_off', password: PASSWORD } })).status).toBe(
        401,
      );
    });

    it('stores every permission key for the admin role, whatever was sent', async () => {
      const res = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'second_admin', password: PASSWORD, role: 'admin', permissions: ['view_payments'] },
      });
      expect(res.status).toBe(201);
      expect(res.body.role).toBe('admin');
      expect(res.body.permissions).toEqual(ALL_PERMISSIONS);
      const stored = await row(res.body.id);
      expect(JSON.parse(stored.permissions)).toEqual(ALL_PERMISSIONS);
    });

    it.each([
      ['a 2-character username', { username: 'ab' }, 'username', '用戶名至少需要3個字符'],
      ['a username of 2 characters once trimmed', { username: '  ab  ' }, 'username', '用戶名至少需要3個字符'],
      ['a missing username', { username: undefined }, 'username', '用戶名至少需要3個字符'],
      ['a 21-character username', { username: 'a'.repeat(21) }, 'username', '用戶名不能超過20個字符'],
      ['a username with a hyphen', { username: 'bad-name' }, 'username', '用戶名只能包含字母、數字和下劃線'],
      ['a username with a space inside', { username: 'bad name' }, 'username', '用戶名只能包含字母、數字和下劃線'],
      ['a username in Chinese', { username: '台北店員' }, 'username', '用戶名只能包含字母、數字和下劃線'],
      ['a missing password', { password: undefined }, 'password', '密碼是必填的'],
      ['a blank password', { password: '' }, 'password', '密碼是必填的'],
      ['a 5-character password', { password: '12345' }, 'password', '密碼至少需要6個字符'],
      [
        'a confirmation that differs',
        { password: 'tea-leaf-6', confirmPassword: 'tea-leaf-7' },
        'confirmPassword',
        '密碼確認不匹配',
      ],
      ['a missing role', { role: undefined }, 'role', '請選擇角色'],
      ['an unknown role', { role: 'superuser' }, 'role', '請選擇角色'],
    ])('refuses %s with 400 and the spec text, creating nothing', async (_name, change, field, message) => {
      const body: Record<string, unknown> = { username: 'valid_name', password: PASSWORD, role: 'user', ...change };
      const res = await expectNothingChanged(() => s.api('POST', '/users', { as: 'admin', body }));
      expectFieldError(res, field, message);
    });

    it('accepts a username of exactly 3 and of exactly 20 characters', async () => {
      expect(
        (await s.api('POST', '/users', { as: 'admin', body: { username: 'abc', password: PASSWORD, role: 'user' } }))
          .status,
      ).toBe(201);
      expect(
        (
          await s.api('POST', '/users', {
            as: 'admin',
            body: { username: 'A_'.repeat(10), password: PASSWORD, role: 'user' },
          })
        ).status,
      ).toBe(201);
    });

    it('refuses an unknown store with 400', async () => {
      const res = await expectNothingChanged(() =>
        s.api('POST', '/users', {
          as: 'admin',
          body: { username: 'lost_user', password: PASSWORD, role: 'user', store_id: 999999 },
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('store_id');
    });

    it('refuses a duplicate username with 409, keeping the existing account', async () => {
      const res = await expectNothingChanged(() =>
        s.api('POST', '/users', { as: 'admin', body: { username: 'branchA', password: 'otherpass', role: 'user' } }),
      );
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('用戶名已存在');
      expect((await s.api('POST', '/admin/login', { body: { username: 'branchA', password: PASSWORD } })).status).toBe(
        200,
      );
    });

    it('needs manage_users (403) and a signed-in caller (401)', async () => {
      const body = { username: 'sneaky', password: PASSWORD, role: 'user' };
      expectForbidden(await expectNothingChanged(() => s.api('POST', '/users', { as: 'hq_system_admin', body })));
      expectForbidden(await expectNothingChanged(() => s.api('POST', '/users', { as: 'branchA', body })));
      expect((await expectNothingChanged(() => s.api('POST', '/users', { body }))).status).toBe(401);
    });

    it('lets only admins create an admin', async () => {
      const res = await expectNothingChanged(() =>
        s.api('POST', '/users', {
          as: 'hq_manage_users',
          body: { username: 'new_admin', password: PASSWORD, role: 'admin' },
        }),
      );
      expectForbidden(res, '權限不足：只有管理員可以建立或指派管理員');
    });

    it('does not let a non-admin grant a permission they do not hold', async () => {
      const res = await expectNothingChanged(() =>
        s.api('POST', '/users', {
          as: 'hq_manage_users',
          body: {
            username: 'granted',
            password: PASSWORD,
            role: 'user',
            permissions: ['view_payments', 'system_admin'],
            accessible_stores: [s.stores.A.id],
          },
        }),
      );
      expectForbidden(res, '權限不足：無法授予您沒有的權限（查看匯款、系統管理）');
    });

    it('lets a non-admin grant what they hold, within their stores', async () => {
      const res = await s.api('POST', '/users', {
        as: 'hq_manage_users',
        body: {
          username: 'deputy',
          password: PASSWORD,
          role: 'user',
          permissions: ['manage_users'],
          store_id: s.stores.A.id,
          accessible_stores: [s.stores.B.id],
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.permissions).toEqual(['manage_users']);
      const audit = await s.t
        .db('audit_log')
        .where({ entity: 'user', entity_id: String(res.body.id), action: 'create' });
      expect(Number(audit[0].actor_id)).toBe(s.users.hq_manage_users.id);
    });

    it('does not let a non-admin assign a store outside their scope, as home or accessible store', async () => {
      const home = await expectNothingChanged(() =>
        s.api('POST', '/users', {
          as: 'hq_manage_users',
          body: { username: 'khh_staff', password: PASSWORD, role: 'user', store_id: s.stores.C.id },
        }),
      );
      expectForbidden(home, '權限不足：無法指派您沒有權限的分店');
      const accessible = await expectNothingChanged(() =>
        s.api('POST', '/users', {
          as: 'hq_manage_users',
          body: {
            username: 'khh_staff',
            password: PASSWORD,
            role: 'user',
            accessible_stores: [s.stores.A.id, s.stores.C.id],
          },
        }),
      );
      expectForbidden(accessible, '權限不足：無法指派您沒有權限的分店');
    });
  });

  describe('PUT /api/users/:id', () => {
    it('demoting an admin without a permission list leaves them with none', async () => {
      const created = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: `demo_${kind.slice(0, 2)}`, password: PASSWORD, role: 'admin' },
      });
      expect(created.body.permissions).toEqual(ALL_PERMISSIONS);
      const demoted = await s.api('PUT', `/users/${created.body.id}`, { as: 'admin', body: { role: 'user' } });
      expect(demoted.status).toBe(200);
      expect(demoted.body).toMatchObject({ role: 'user', permissions: [] });
      const chosen = await s.api('PUT', `/users/${created.body.id}`, { as: 'admin', body: { role: 'admin' } });
      const again = await s.api('PUT', `/users/${chosen.body.id}`, {
        as: 'admin',
        body: { role: 'user', permissions: ['view_reports'] },
      });
      expect(again.body.permissions).toEqual(['view_reports']);
    });

    it('merges a partial body and answers the whole record, writing an audit row with before and after', async () => {
      const u = await makeUser({ accessible_stores: [s.stores.B.id] });
      const audits = await auditCount();
      const res = await s.api('PUT', `/users/${u.id}`, {
        as: 'admin',
        body: { permissions: ['view_payments', 'view_reports'] },
      });
      expect(res.status).toBe(200);
      expectUserShape(res.body);
      expect(res.body).toMatchObject({
        id: u.id,
        username: u.username,
        role: 'user',
        permissions: ['view_payments', 'view_reports'],
        store_id: s.stores.A.id,
        accessible_stores: [s.stores.B.id],
        is_active: true,
        created_at: u.created_at,
      });
      const got = await s.api('GET', `/users/${u.id}`, { as: 'admin' });
      expect(got.body).toEqual(res.body);

      expect(await auditCount()).toBe(audits + 1);
      const audit = await s.t.db('audit_log').where({ entity: 'user', entity_id: String(u.id), action: 'update' });
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0].before).permissions).toEqual(['view_payments']);
      expect(JSON.parse(audit[0].after).permissions).toEqual(['view_payments', 'view_reports']);
    });

    it('accepts the whole record back, as the edit form sends it', async () => {
      const u = await makeUser();
      const got = await s.api('GET', `/users/${u.id}`, { as: 'admin' });
      const res = await s.api('PUT', `/users/${u.id}`, {
        as: 'admin',
        body: { ...got.body, store_id: s.stores.B.id, password: '' },
      });
      expect(res.status).toBe(200);
      expect(res.body.store_id).toBe(s.stores.B.id);
      expect(res.body.username).toBe(u.username);
    });

    it('leaves the password unchanged when it is blank', async () => {
      const u = await makeUser();
      const hash = (await row(u.id)).password_hash;
      const res = await s.api('PUT', `/users/${u.id}`, {
        as: 'admin',
        body: { password: '', confirmPassword: '', role: 'user' },
      });
      expect(res.status).toBe(200);
      expect((await row(u.id)).password_hash).toBe(hash);
      expect((await s.api('POST', '/admin/login', { body: { username: u.username, password: PASSWORD } })).status).toBe(
        200,
      );
    });

    it('changes the password when one is given, validating it like the create form', async () => {
      const u = await makeUser();
      const short = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { password: '123' } }),
      );
      expectFieldError(short, 'password', '密碼至少需要6個字符');
      const mismatch = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { password: 'goodpass', confirmPassword: 'badpass1' } }),
      );
      expectFieldError(mismatch, 'confirmPassword', '密碼確認不匹配');
      const res = await s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { password: 'goodpass' } });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('password_hash');
      expect(
        (await s.api('POST', '/admin/login', { body: { username: u.username, password: 'goodpass' } })).status,
      ).toBe(200);
      expect((await s.api('POST', '/admin/login', { body: { username: u.username, password: PASSWORD } })).status).toBe(
        401,
      );
    });

    it('does not change the username (400), but accepts it sent unchanged', async () => {
      const u = await makeUser();
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { username: 'renamed_user' } }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'username', message: '用戶名不能修改' }]);
      const same = await s.api('PUT', `/users/${u.id}`, {
        as: 'admin',
        body: { username: u.username, is_active: true },
      });
      expect(same.status).toBe(200);
      expect(same.body.username).toBe(u.username);
    });

    it('refuses a wrongly typed is_active (not 0/1 or a string)', async () => {
      const u = await makeUser();
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { is_active: 'no' } }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('is_active');
    });

    it('answers 404 for an unknown user', async () => {
      const res = await s.api('PUT', '/users/999999', { as: 'admin', body: { role: 'user' } });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('找不到用戶');
    });

    it('needs manage_users', async () => {
      const u = await makeUser();
      expectForbidden(
        await expectNothingChanged(() =>
          s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_stores', body: { permissions: [] } }),
        ),
      );
      expect(
        (await expectNothingChanged(() => s.api('PUT', `/users/${u.id}`, { body: { permissions: [] } }))).status,
      ).toBe(401);
    });

    it('lets an admin promote a user to admin, who then holds every permission', async () => {
      const u = await makeUser();
      const res = await s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { role: 'admin' } });
      expect(res.status).toBe(200);
      expect(res.body.role).toBe('admin');
      expect(res.body.permissions).toEqual(ALL_PERMISSIONS);
    });

    it('lets only admins promote to admin', async () => {
      const u = await makeUser({ store_id: s.stores.A.id, permissions: [] });
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_users', body: { role: 'admin' } }),
      );
      expectForbidden(res, '權限不足：只有管理員可以建立或指派管理員');
    });

    it('does not let a non-admin edit an admin account', async () => {
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${s.users.admin.id}`, { as: 'hq_manage_users', body: { password: 'takeover1' } }),
      );
      expectForbidden(res, '權限不足：無法修改管理員帳戶');
      const demote = await expectNothingChanged(() =>
        s.api('PUT', `/users/${s.users.admin.id}`, { as: 'hq_manage_users', body: { role: 'user' } }),
      );
      expectForbidden(demote);
    });

    it('does not let a non-admin grant a permission they do not hold, but lets them take one away', async () => {
      const u = await makeUser({ store_id: s.stores.A.id, permissions: ['manage_users'] });
      const grant = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, {
          as: 'hq_manage_users',
          body: { permissions: ['manage_users', 'manage_stores'] },
        }),
      );
      expectForbidden(grant, '權限不足：無法授予您沒有的權限（分店管理）');
      const selfGrant = await expectNothingChanged(() =>
        s.api('PUT', `/users/${s.users.hq_manage_users.id}`, {
          as: 'hq_manage_users',
          body: { permissions: ['manage_users', 'system_admin'] },
        }),
      );
      expectForbidden(selfGrant, '權限不足：無法授予您沒有的權限（系統管理）');
      const revoke = await s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_users', body: { permissions: [] } });
      expect(revoke.status).toBe(200);
      expect(revoke.body.permissions).toEqual([]);
    });

    it('does not let a non-admin assign a store outside their scope', async () => {
      const u = await makeUser({ store_id: s.stores.A.id, permissions: [] });
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_users', body: { accessible_stores: [s.stores.C.id] } }),
      );
      expectForbidden(res, '權限不足：無法指派您沒有權限的分店');
      const home = await expectNothingChanged(() =>
        s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_users', body: { store_id: s.stores.C.id } }),
      );
      expectForbidden(home, '權限不足：無法指派您沒有權限的分店');
      const ok = await s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_users', body: { store_id: s.stores.B.id } });
      expect(ok.status).toBe(200);
      expect(ok.body.store_id).toBe(s.stores.B.id);
    });
  });

  describe('accounts holding more than the manager', () => {
    it('a non-admin manager cannot take over, deactivate or delete an account with a permission or store they lack', async () => {
      const msg = '權限不足：此帳戶擁有您沒有的權限或分店';
      const viewer = await makeUser({ store_id: s.stores.A.id, permissions: ['view_payments'] });
      const outside = await makeUser({ store_id: s.stores.C.id, permissions: [] });
      for (const target of [viewer, outside]) {
        expectForbidden(
          await expectNothingChanged(() =>
            s.api('PUT', `/users/${target.id}`, { as: 'hq_manage_users', body: { password: 'takeover1' } }),
          ),
          msg,
        );
        expectForbidden(
          await expectNothingChanged(() =>
            s.api('PUT', `/users/${target.id}`, { as: 'hq_manage_users', body: { is_active: false } }),
          ),
          msg,
        );
        expectForbidden(
          await expectNothingChanged(() => s.api('DELETE', `/users/${target.id}`, { as: 'hq_manage_users' })),
          msg,
        );
      }
      const login = await s.api('POST', '/admin/login', { body: { username: viewer.username, password: PASSWORD } });
      expect(login.status).toBe(200);
    });
  });

  describe('deactivating', () => {
    it('nobody deactivates themselves: 403, admin or not', async () => {
      const admin = await expectNothingChanged(() =>
        s.api('PUT', `/users/${s.users.admin.id}`, { as: 'admin', body: { is_active: false } }),
      );
      expectForbidden(admin, '無法停用自己的帳戶');
      const manager = await expectNothingChanged(() =>
        s.api('PUT', `/users/${s.users.hq_manage_users.id}`, { as: 'hq_manage_users', body: { is_active: false } }),
      );
      expectForbidden(manager, '無法停用自己的帳戶');
      expect((await s.api('GET', '/admin/me', { as: 'admin' })).status).toBe(200);
    });

    it('only admins deactivate an admin', async () => {
      const other = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'admin_three', password: PASSWORD, role: 'admin' },
      });
      expect(other.status).toBe(201);
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/users/${other.body.id}`, { as: 'hq_manage_users', body: { is_active: false } }),
      );
      expect(res.status).toBe(403);
      expect(['權限不足：無法停用管理員帳戶', '權限不足：無法修改管理員帳戶']).toContain(res.body.message);

      const byAdmin = await s.api('PUT', `/users/${other.body.id}`, { as: 'admin', body: { is_active: false } });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.is_active).toBe(false);
      expect((await row(other.body.id)).is_active ? true : false).toBe(false);
    });

    it('lets a non-admin with manage_users deactivate a plain user', async () => {
      const u = await makeUser({ store_id: s.stores.A.id, permissions: [] });
      const res = await s.api('PUT', `/users/${u.id}`, { as: 'hq_manage_users', body: { is_active: false } });
      expect(res.status).toBe(200);
      expect(res.body.is_active).toBe(false);
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('deletes a user, answering the deleted record, with an audit row', async () => {
      const u = await makeUser();
      const audits = await auditCount();
      const res = await s.api('DELETE', `/users/${u.id}`, { as: 'admin' });
      expect(res.status).toBe(200);
      expectUserShape(res.body);
      expect(res.body.id).toBe(u.id);
      expect(res.body.username).toBe(u.username);
      expect(await row(u.id)).toBeUndefined();
      expect((await s.api('GET', `/users/${u.id}`, { as: 'admin' })).status).toBe(404);
      expect(await auditCount()).toBe(audits + 1);
      const audit = await s.t.db('audit_log').where({ entity: 'user', entity_id: String(u.id), action: 'delete' });
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0].before).username).toBe(u.username);
    });

    it('answers 404 for an unknown user', async () => {
      expect((await s.api('DELETE', '/users/999999', { as: 'admin' })).status).toBe(404);
    });

    it('nobody deletes themselves: 403 無法刪除自己的帳戶', async () => {
      const admin = await expectNothingChanged(() => s.api('DELETE', `/users/${s.users.admin.id}`, { as: 'admin' }));
      expectForbidden(admin, '無法刪除自己的帳戶');
      const manager = await expectNothingChanged(() =>
        s.api('DELETE', `/users/${s.users.hq_manage_users.id}`, { as: 'hq_manage_users' }),
      );
      expectForbidden(manager, '無法刪除自己的帳戶');
    });

    it('only admins delete an admin: 403 權限不足：無法刪除管理員帳戶', async () => {
      const res = await expectNothingChanged(() =>
        s.api('DELETE', `/users/${s.users.admin.id}`, { as: 'hq_manage_users' }),
      );
      expectForbidden(res, '權限不足：無法刪除管理員帳戶');
      const other = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'admin_four', password: PASSWORD, role: 'admin' },
      });
      const byAdmin = await s.api('DELETE', `/users/${other.body.id}`, { as: 'admin' });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.role).toBe('admin');
    });

    it('lets a non-admin with manage_users delete a plain user', async () => {
      const u = await makeUser({ store_id: s.stores.A.id, permissions: [] });
      const res = await s.api('DELETE', `/users/${u.id}`, { as: 'hq_manage_users' });
      expect(res.status).toBe(200);
      expect(await row(u.id)).toBeUndefined();
    });

    it('needs manage_users (403) and a signed-in caller (401)', async () => {
      const u = await makeUser();
      expectForbidden(await expectNothingChanged(() => s.api('DELETE', `/users/${u.id}`, { as: 'branchA' })));
      expectForbidden(await expectNothingChanged(() => s.api('DELETE', `/users/${u.id}`, { as: 'hq_system_admin' })));
      expect((await expectNothingChanged(() => s.api('DELETE', `/users/${u.id}`))).status).toBe(401);
    });
  });

  describe('the last active admin, under concurrent requests', () => {
    it('survives two admins demoting themselves at the same moment (one of the two is refused)', async () => {
      const names = [`race_a_${kind}`, `race_b_${kind}`];
      const admins: Array<{ id: number; token: string }> = [];
      for (const username of names) {
        const created = await s.api('POST', '/users', {
          as: 'admin',
          body: { username, password: PASSWORD, role: 'admin' },
        });
        expect(created.status).toBe(201);
        const signedIn = await s.api('POST', '/admin/login', { body: { username, password: PASSWORD } });
        admins.push({ id: created.body.id, token: signedIn.body.token });
      }
      // Only the two new admins stay active; restored below so nothing after this depends on it.
      const others = await s.t
        .db('users')
        .where({ role: 'admin', is_active: true })
        .whereNotIn('username', names)
        .select('id');
      await s.t
        .db('users')
        .whereIn(
          'id',
          others.map((o: any) => o.id),
        )
        .update({ is_active: false });
      try {
        const answers = await Promise.all(
          admins.map((a) => s.api('PUT', `/users/${a.id}`, { token: a.token, body: { role: 'user' } })),
        );
        const stillAdmins = await s.t.db('users').where({ role: 'admin', is_active: true });
        expect(stillAdmins).toHaveLength(1);
        expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
        expect(answers.find((r) => r.status === 403)!.body.message).toBe('至少需要保留一位啟用中的管理員');
      } finally {
        await s.t
          .db('users')
          .whereIn(
            'id',
            others.map((o: any) => o.id),
          )
          .update({ is_active: true });
      }
    });
  });

  it('answered no request with a 500', () => {
    expect(s.errors).toEqual([]);
  });
});
