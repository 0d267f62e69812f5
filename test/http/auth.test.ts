/**
 * Sign-in, the current user, session tokens (tampered, expired, revoked) and the password
 * change, against a real listening server (spec sections 3, 5, 8).
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/server.js';

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

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The same token with one character of its signature changed (not the last one, whose low bits are padding). */
function tamperSignature(token: string): string {
  const [h, p, sig] = token.split('.');
  const i = 10;
  const c = sig[i] === 'A' ? 'B' : 'A';
  return `${h}.${p}.${sig.slice(0, i)}${c}${sig.slice(i + 1)}`;
}

function expectUnauthenticated(res: ApiResponse) {
  expect(res.status).toBe(401);
  expect(typeof res.body?.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.token).toBeUndefined();
}

describe.each(DB_KINDS)('auth API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());

  const login = (username: string, password: string) => s.api('POST', '/admin/login', { body: { username, password } });
  const userRow = (username: string) => s.t.db('users').where({ username }).first();

  /** A fresh account for tests that change passwords or deactivate, so fixture tokens stay valid. */
  async function freshUser(username: string, password = PASSWORD) {
    const res = await s.api('POST', '/users', {
      as: 'admin',
      body: { username, password, role: 'user', permissions: ['view_payments'], store_id: s.stores.A.id },
    });
    expect(res.status).toBe(201);
    const signedIn = await login(username, password);
    expect(signedIn.status).toBe(200);
    return { id: res.body.id as number, token: signedIn.body.token as string };
  }

  describe('POST /api/admin/login', () => {
    it('signs in whatever the case of the username (usernames are unique regardless of case)', async () => {
      const r = await s.api('POST', '/admin/login', { body: { username: 'BRANCHA', password: PASSWORD } });
      expect(r.status).toBe(200);
      expect((await s.api('GET', '/admin/me', { token: r.body.token })).body.username).toBe('branchA');
    });

    it('answers {token}, a JWT whose payload carries the username, that opens the API', async () => {
      const res = await login('admin', PASSWORD);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['token']);
      const payload = jwt.decode(res.body.token) as jwt.JwtPayload;
      expect(payload).not.toBeNull();
      expect(payload.username).toBe('admin');
      // Tokens expire (the configured lifetime).
      expect(payload.exp! - payload.iat!).toBe(TEST_SECURITY.tokenTtlSeconds);
      const me = await s.api('GET', '/admin/me', { token: res.body.token });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('admin');
    });

    it('signs in a branch user, whose token says who they are', async () => {
      const res = await login('branchA', PASSWORD);
      expect(res.status).toBe(200);
      expect((jwt.decode(res.body.token) as jwt.JwtPayload).username).toBe('branchA');
    });

    it('refuses a wrong password with 401 and a message, and no token', async () => {
      const res = await login('admin', 'wrong-password');
      expectUnauthenticated(res);
      expect(res.body.message).toBe('用戶名或密碼錯誤');
    });

    it('refuses an unknown user with the same 401 answer as a wrong password', async () => {
      const res = await login('nobody_here', PASSWORD);
      expectUnauthenticated(res);
      expect(res.body.message).toBe('用戶名或密碼錯誤');
    });

    it('answers 400 with an errors array when username and password are missing', async () => {
      const res = await s.api('POST', '/admin/login', { body: {} });
      expect(res.status).toBe(400);
      expect(Array.isArray(res.body.errors)).toBe(true);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'username', message: '請輸入用戶名' },
          { field: 'password', message: '請輸入密碼' },
        ]),
      );
      expect(res.body.token).toBeUndefined();
    });

    it('answers 400 naming only the missing password', async () => {
      const res = await s.api('POST', '/admin/login', { body: { username: 'admin', password: '' } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'password', message: '請輸入密碼' }]);
    });

    it('answers 400 for a body that is not JSON, without a stack trace', async () => {
      const res = await s.api('POST', '/admin/login', {
        raw: '{"username": "admin",',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('請求內容不是有效的 JSON');
      expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
    });

    it('does not let an inactive user sign in, even with the right password', async () => {
      const res = await login('inactive', PASSWORD);
      expectUnauthenticated(res);
      expect(res.body.message).toBe('此帳戶已停用，請聯絡管理員');
    });
  });

  describe('GET /api/admin/me', () => {
    it('answers the admin with exactly id, username, role, permissions, store_id, accessible_stores: all 8 permissions', async () => {
      const res = await s.api('GET', '/admin/me', { as: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: s.users.admin.id,
        username: 'admin',
        role: 'admin',
        permissions: ALL_PERMISSIONS,
        store_id: null,
        accessible_stores: [],
      });
    });

    it('gives an admin every permission even when the stored list is empty (effective, not stored)', async () => {
      const created = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'admin_eff', password: PASSWORD, role: 'admin' },
      });
      expect(created.status).toBe(201);
      await s.t.db('users').where({ id: created.body.id }).update({ permissions: '[]' });
      const signedIn = await login('admin_eff', PASSWORD);
      const res = await s.api('GET', '/admin/me', { token: signedIn.body.token });
      expect(res.status).toBe(200);
      expect(res.body.role).toBe('admin');
      expect(res.body.permissions).toEqual(ALL_PERMISSIONS);
    });

    it('answers a branch user with their own permissions and store', async () => {
      const res = await s.api('GET', '/admin/me', { as: 'branchA' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: s.users.branchA.id,
        username: 'branchA',
        role: 'user',
        permissions: [
          'view_payments',
          'edit_payments',
          'delete_payments',
          'view_reports',
          'record_takings',
          'record_cash_out',
          'close_day',
          'confirm_payments',
        ],
        store_id: s.stores.A.id,
        accessible_stores: [],
      });
    });

    it('answers a headquarters user with no store and their accessible stores', async () => {
      const res = await s.api('GET', '/admin/me', { as: 'hq_view_payments' });
      expect(res.status).toBe(200);
      expect(res.body.permissions).toEqual(['view_payments']);
      expect(res.body.store_id).toBeNull();
      expect(res.body.accessible_stores).toEqual([s.stores.A.id, s.stores.B.id]);
      expect(res.body).not.toHaveProperty('password_hash');
    });

    it('answers 401 without a token, asking for a Bearer token', async () => {
      const res = await s.api('GET', '/admin/me');
      expectUnauthenticated(res);
      expect(res.body.message).toBe('請先登入');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it.each([
      ['a non-Bearer scheme', (t: string) => `Basic ${t}`],
      ['Bearer with no token', () => 'Bearer'],
      ['Bearer with two words', (t: string) => `Bearer ${t} extra`],
      ['a bare token', (t: string) => t],
      ['Bearer with garbage', () => 'Bearer not.a.jwt'],
    ])('answers 401 for a malformed Authorization header: %s', async (_name, header) => {
      const res = await s.api('GET', '/admin/me', { headers: { authorization: header(s.tokens.admin) } });
      expectUnauthenticated(res);
    });

    it('answers 401 for a token whose signature was changed', async () => {
      const good = await s.api('GET', '/admin/me', { as: 'admin' });
      expect(good.status).toBe(200);
      const res = await s.api('GET', '/admin/me', { token: tamperSignature(s.tokens.admin) });
      expectUnauthenticated(res);
    });

    it('answers 401 for a token whose payload was changed to another user', async () => {
      const [h, , sig] = s.tokens.branchA.split('.');
      const row = await userRow('admin');
      const forged = `${h}.${b64url({ sub: String(row.id), username: 'admin', tv: Number(row.token_version) })}.${sig}`;
      expectUnauthenticated(await s.api('GET', '/admin/me', { token: forged }));
    });

    it('answers 401 for a token signed with another secret, and 200 for the same payload signed with the real one', async () => {
      const row = await userRow('admin');
      const payload = { sub: String(row.id), username: 'admin', tv: Number(row.token_version) };
      const right = jwt.sign(payload, TEST_SECURITY.jwtSecret, {
        algorithm: 'HS256',
        expiresIn: 600,
        jwtid: 'a-test-session',
      });
      expect((await s.api('GET', '/admin/me', { token: right })).status).toBe(200);
      const wrong = jwt.sign(payload, 'some-other-secret-0123456789abcdef', { algorithm: 'HS256', expiresIn: 600 });
      expectUnauthenticated(await s.api('GET', '/admin/me', { token: wrong }));
    });

    it('answers 401 for an unsigned alg:none token', async () => {
      const row = await userRow('admin');
      const now = Math.floor(Date.now() / 1000);
      const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: String(row.id), username: 'admin', tv: Number(row.token_version), iat: now, exp: now + 600 })}.`;
      expectUnauthenticated(await s.api('GET', '/admin/me', { token }));
    });

    it('answers 401 for an expired token signed with the real secret', async () => {
      const row = await userRow('admin');
      const payload = { sub: String(row.id), username: 'admin', tv: Number(row.token_version) };
      const expired = jwt.sign({ ...payload, iat: Math.floor(Date.now() / 1000) - 7200 }, TEST_SECURITY.jwtSecret, {
        algorithm: 'HS256',
        expiresIn: 3600,
      });
      const res = await s.api('GET', '/admin/me', { token: expired });
      expectUnauthenticated(res);
      // The same call on another endpoint: expiry is checked everywhere, not only on /admin/me.
      expectUnauthenticated(await s.api('GET', '/stores', { token: expired }));
    });

    it('answers 401 for the token of an inactive user', async () => {
      expectUnauthenticated(await s.api('GET', '/admin/me', { as: 'inactive' }));
      expectUnauthenticated(await s.api('GET', '/stores', { as: 'inactive' }));
    });

    it('answers 401 for a token of a deleted user', async () => {
      const u = await freshUser('gone_user');
      const del = await s.api('DELETE', `/users/${u.id}`, { as: 'admin' });
      expect(del.status).toBe(200);
      expectUnauthenticated(await s.api('GET', '/admin/me', { token: u.token }));
    });
  });

  describe('POST /api/users/change-password', () => {
    it('answers 401 without a token', async () => {
      const res = await s.api('POST', '/users/change-password', {
        body: { currentPassword: PASSWORD, newPassword: 'another1' },
      });
      expectUnauthenticated(res);
    });

    it('requires the current and the new password, with the spec messages', async () => {
      const res = await s.api('POST', '/users/change-password', { as: 'hq_none', body: {} });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'currentPassword', message: '請輸入目前密碼' },
          { field: 'newPassword', message: '請輸入新密碼' },
        ]),
      );
    });

    it('requires a new password of at least 6 characters', async () => {
      const res = await s.api('POST', '/users/change-password', {
        as: 'hq_none',
        body: { currentPassword: PASSWORD, newPassword: '12345' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'newPassword', message: '新密碼至少需要6個字符' }]);
    });

    it('refuses a confirmation that differs from the new password', async () => {
      const res = await s.api('POST', '/users/change-password', {
        as: 'hq_none',
        body: { currentPassword: PASSWORD, newPassword: 'newpass1', confirmNewPassword: 'newpass2' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'confirmNewPassword', message: '新密碼確認不匹配' }]);
    });

    it('refuses a wrong current password with 400, and changes nothing', async () => {
      const before = await userRow('hq_none');
      const res = await s.api('POST', '/users/change-password', {
        as: 'hq_none',
        body: { currentPassword: 'not-my-password', newPassword: 'newpass1' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'currentPassword', message: '目前密碼不正確' }]);
      expect(res.body.token).toBeUndefined();
      const after = await userRow('hq_none');
      expect(after.password_hash).toBe(before.password_hash);
      expect(Number(after.token_version)).toBe(Number(before.token_version));
      expect((await s.api('GET', '/admin/me', { as: 'hq_none' })).status).toBe(200);
      expect((await login('hq_none', PASSWORD)).status).toBe(200);
    });

    it('changes the password: a fresh token works, the old one is revoked, only the new password signs in', async () => {
      const u = await freshUser('pw_changer');
      const auditBefore = await s.t
        .db('audit_log')
        .where({ entity: 'user', entity_id: String(u.id), action: 'password' });
      expect(auditBefore).toHaveLength(0);

      const res = await s.api('POST', '/users/change-password', {
        token: u.token,
        body: { currentPassword: PASSWORD, newPassword: 'brandnew9', confirmNewPassword: 'brandnew9' },
      });
      expect(res.status).toBe(200);
      expect(typeof res.body.token).toBe('string');
      expect(res.body.token).not.toBe(u.token);
      expect((jwt.decode(res.body.token) as jwt.JwtPayload).username).toBe('pw_changer');

      const withNew = await s.api('GET', '/admin/me', { token: res.body.token });
      expect(withNew.status).toBe(200);
      expect(withNew.body.username).toBe('pw_changer');
      expectUnauthenticated(await s.api('GET', '/admin/me', { token: u.token }));

      expectUnauthenticated(await login('pw_changer', PASSWORD));
      const again = await login('pw_changer', 'brandnew9');
      expect(again.status).toBe(200);
      expect((await s.api('GET', '/admin/me', { token: again.body.token })).status).toBe(200);

      const audit = await s.t.db('audit_log').where({ entity: 'user', entity_id: String(u.id), action: 'password' });
      expect(audit).toHaveLength(1);
      expect(Number(audit[0].actor_id)).toBe(u.id);
      expect(audit[0].after ?? '').not.toContain('brandnew9');
    });

    it('changes the password without a confirmation field (the API may omit it)', async () => {
      const u = await freshUser('pw_noconfirm');
      const res = await s.api('POST', '/users/change-password', {
        token: u.token,
        body: { currentPassword: PASSWORD, newPassword: 'otherpass7' },
      });
      expect(res.status).toBe(200);
      expect((await login('pw_noconfirm', 'otherpass7')).status).toBe(200);
    });
  });

  describe('deactivation', () => {
    it('stops an existing token at once when an admin deactivates the user, and stops sign-in', async () => {
      const u = await freshUser('to_deactivate');
      expect((await s.api('GET', '/admin/me', { token: u.token })).status).toBe(200);

      const res = await s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { is_active: false } });
      expect(res.status).toBe(200);
      expect(res.body.is_active).toBe(false);

      expectUnauthenticated(await s.api('GET', '/admin/me', { token: u.token }));
      expectUnauthenticated(await s.api('GET', '/stores', { token: u.token }));
      const signIn = await login('to_deactivate', PASSWORD);
      expectUnauthenticated(signIn);
      expect(signIn.body.message).toBe('此帳戶已停用，請聯絡管理員');
    });

    it('lets a reactivated user sign in again, while the token from before stays revoked', async () => {
      const u = await freshUser('reactivated');
      expect((await s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { is_active: false } })).status).toBe(200);
      expect((await s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { is_active: true } })).status).toBe(200);
      expectUnauthenticated(await s.api('GET', '/admin/me', { token: u.token }));
      const signIn = await login('reactivated', PASSWORD);
      expect(signIn.status).toBe(200);
      expect((await s.api('GET', '/admin/me', { token: signIn.body.token })).status).toBe(200);
    });

    it('revokes existing tokens when an admin resets the password', async () => {
      const u = await freshUser('admin_reset');
      const res = await s.api('PUT', `/users/${u.id}`, { as: 'admin', body: { password: 'resetpass1' } });
      expect(res.status).toBe(200);
      expectUnauthenticated(await s.api('GET', '/admin/me', { token: u.token }));
      expect((await login('admin_reset', 'resetpass1')).status).toBe(200);
    });
  });
});
