/**
 * the back office's session in an HttpOnly cookie, refused when a
 * browser sends it from another site; 登出 revoking the session on every instance sharing the
 * database (cookie and Bearer alike); tokens without an expiry or a session id refused; and API
 * answers never cached, whatever the spelling of the path. Two API instances with their own
 * connection pools on one database (SQLite file, or PostgreSQL with REMIT_TEST_PG_URL).
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { listenApi, secondInstance, startTestServer, type TestServer } from '../helpers/server.js';

const COOKIE = 'remit_session';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(
  base: string,
  method: string,
  path: string,
  opts: { cookie?: string; token?: string; json?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.cookie !== undefined) headers.cookie = `${COOKIE}=${opts.cookie}`;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.raw;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The session cookie a response sets: its value and attributes, lower-cased names. */
function sessionCookieOf(res: Answer): { value: string; attrs: Record<string, string | true> } {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
  expect(line, 'a Set-Cookie for the session').toBeTruthy();
  const [first, ...rest] = line!.split(';').map((p) => p.trim());
  const attrs: Record<string, string | true> = {};
  for (const p of rest) {
    const i = p.indexOf('=');
    if (i < 0) attrs[p.toLowerCase()] = true;
    else attrs[p.slice(0, i).toLowerCase()] = p.slice(i + 1);
  }
  return { value: first.slice(COOKIE.length + 1), attrs };
}

/** What a page of this site sends with fetch (Chromium): same-origin. */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };

describe.each(DB_KINDS)('cookie sessions, sign-out and no-store on %s', (kind) => {
  let s: TestServer;
  let two: { url: string; close(): Promise<void> };
  const one = () => `${s.url}/api`;

  beforeAll(async () => {
    s = await startTestServer(kind);
    two = await secondInstance(s);
  }, 60_000);
  afterAll(async () => {
    await two?.close();
    await s?.close();
  });

  async function signIn(
    username: string,
    password = PASSWORD,
    base = one(),
  ): Promise<{ token: string; cookie: string; res: Answer }> {
    const res = await call(base, 'POST', '/admin/login', { json: { username, password }, headers: SAME_ORIGIN });
    expect(res.status).toBe(200);
    return { token: res.body.token, cookie: sessionCookieOf(res).value, res };
  }

  async function newUser(username: string, permissions = ['view_payments', 'edit_payments']): Promise<number> {
    const res = await s.api('POST', '/users', {
      as: 'admin',
      body: { username, password: PASSWORD, role: 'user', permissions, store_id: s.stores.A.id },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  describe('item 1: the session cookie', () => {
    it('sign-in answers {token} as the spec says and sets the session as an HttpOnly, SameSite=Strict cookie for the whole site, as long as the token', async () => {
      const { token, cookie, res } = await signIn('admin');
      expect(Object.keys(res.body)).toEqual(['token']);
      const { attrs } = sessionCookieOf(res);
      expect(attrs.httponly).toBe(true);
      expect(String(attrs.samesite).toLowerCase()).toBe('strict');
      expect(attrs.path).toBe('/');
      const lasts = Date.parse(String(attrs.expires)) - Date.now();
      expect(Math.abs(lasts - TEST_SECURITY.tokenTtlSeconds * 1000)).toBeLessThan(60_000);
      // plain HTTP (a shop's LAN): not Secure, or the browser would drop it
      expect(attrs.secure).toBeUndefined();
      expect(cookie).toBe(token);
    });

    it('is Secure when the request came over HTTPS (behind a trusted proxy saying so)', async () => {
      const proxied = await listenApi({ db: s.t.db, trustProxy: true, errors: s.errors });
      try {
        const res = await call(`${proxied.url}/api`, 'POST', '/admin/login', {
          json: { username: 'admin', password: PASSWORD },
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.77' },
        });
        expect(res.status).toBe(200);
        expect(sessionCookieOf(res).attrs.secure).toBe(true);
      } finally {
        await proxied.close();
      }
    });

    it('the cookie alone opens the API for reading and, from this site, for writing; Bearer tokens keep working without it', async () => {
      const { cookie, token } = await signIn('branchA');
      const me = await call(one(), 'GET', '/admin/me', { cookie });
      expect(me.status).toBe(200);
      expect(me.body.username).toBe('branchA');
      expect((await call(two.url, 'GET', '/payments', { cookie })).status).toBe(200);
      const created = await call(one(), 'POST', '/payments', {
        cookie,
        headers: SAME_ORIGIN,
        json: { last_five: '24680', paid_at: '2026-11-18T09:15', amount: 321, note: '', store_id: s.stores.A.id },
      });
      expect(created.status).toBe(201);
      // a script: Bearer, no cookie, no browser headers
      expect((await call(one(), 'GET', '/admin/me', { token })).body.username).toBe('branchA');
      expect(
        (await call(one(), 'PUT', `/payments/${created.body.uuid}`, { token: s.tokens.admin, json: { note: '腳本' } }))
          .status,
      ).toBe(200);
      // Bearer wins over a cookie of someone else
      expect((await call(one(), 'GET', '/admin/me', { cookie, token: s.tokens.admin })).body.username).toBe('admin');
    });

    it('without a session, or with a broken cookie, the API answers 401 with a Chinese message', async () => {
      const none = await call(one(), 'GET', '/admin/me');
      expect(none.status).toBe(401);
      expect(none.body.message).toBe('請先登入');
      const broken = await call(one(), 'GET', '/admin/me', { cookie: 'not-a-token' });
      expect(broken.status).toBe(401);
      expect(broken.body.message).toBe('登入已失效，請重新登入');
      // the dead cookie is cleared
      expect(sessionCookieOf(broken).value).toBe('');
    });

    it('a forged cross-site form (urlencoded, text/plain) gets 403 before anything is read, and changes nothing', async () => {
      const { cookie } = await signIn('hq_manage_payments');
      const before = Number((await s.t.db('payments').count({ n: '*' }).first())?.n);
      const forms: Array<Record<string, string>> = [
        {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'cross-site',
          'sec-fetch-mode': 'navigate',
          origin: 'https://evil.example',
        },
        {
          'content-type': 'text/plain',
          'sec-fetch-site': 'cross-site',
          'sec-fetch-mode': 'navigate',
          origin: 'https://evil.example',
        },
        // an older browser: Origin only
        { 'content-type': 'text/plain', origin: 'https://evil.example' },
        // a sandboxed frame or a data: page
        { 'content-type': 'text/plain', origin: 'null' },
        // a sibling host of the same site is another origin
        { 'content-type': 'text/plain', 'sec-fetch-site': 'same-site', origin: 'http://other.127.0.0.1.nip.io' },
      ];
      for (const headers of forms) {
        const res = await call(one(), 'POST', '/payments', {
          cookie,
          headers,
          raw: '{"last_five":"13579","paid_at":"2026-11-18T09:15","amount":1,"note":"","store_id":1, "x":"=' + '"}',
        });
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.body.message).toBe('這個要求來自其他網站，已拒絕；請從本系統的頁面操作');
      }
      // sign-out, a password change and a sign-in (into the attacker's account) forged the same way are refused too
      expect(
        (
          await call(one(), 'POST', '/admin/login', {
            headers: forms[1],
            raw: JSON.stringify({ username: 'admin', password: PASSWORD }),
          })
        ).status,
      ).toBe(403);
      expect((await call(one(), 'POST', '/admin/logout', { cookie, headers: forms[0] })).status).toBe(403);
      expect(
        (
          await call(one(), 'POST', '/users/change-password', {
            cookie,
            headers: forms[1],
            raw: '{"currentPassword":"x","newPassword":"y"}',
          })
        ).status,
      ).toBe(403);
      expect(Number((await s.t.db('payments').count({ n: '*' }).first())?.n)).toBe(before);
      expect((await call(one(), 'GET', '/admin/me', { cookie })).status).toBe(200);
    });

    it('a forged cross-site fetch (JSON, DELETE, PUT with the cookie) gets 403 and changes nothing', async () => {
      const { cookie } = await signIn('admin');
      const p = (
        await s.api('POST', '/payments', {
          as: 'admin',
          body: { last_five: '97531', paid_at: '2026-11-18T09:15', amount: 777, note: '原本', store_id: s.stores.A.id },
        })
      ).body;
      const evil = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', origin: 'https://evil.example' };
      expect(
        (await call(one(), 'PUT', `/payments/${p.uuid}`, { cookie, headers: evil, json: { note: '被改' } })).status,
      ).toBe(403);
      expect((await call(two.url, 'DELETE', `/payments/${p.uuid}`, { cookie, headers: evil })).status).toBe(403);
      expect(
        (
          await call(one(), 'POST', '/users', {
            cookie,
            headers: { origin: 'http://evil.example:1234' },
            json: { username: 'csrf_made', password: PASSWORD, role: 'admin' },
          })
        ).status,
      ).toBe(403);
      expect((await s.t.db('payments').where({ uuid: p.uuid }).first()).note).toBe('原本');
      expect(await s.t.db('users').where({ username: 'csrf_made' }).first()).toBeUndefined();
      // the same calls from this site go through
      expect(
        (
          await call(one(), 'PUT', `/payments/${p.uuid}`, {
            cookie,
            headers: { ...SAME_ORIGIN, origin: new URL(s.url).origin },
            json: { note: '本站' },
          })
        ).status,
      ).toBe(200);
    });

    it('a password change through the cookie sets the new session cookie; the old cookie and the other sessions end', async () => {
      await newUser('cookie_pw');
      const a = await signIn('cookie_pw');
      const b = await signIn('cookie_pw', PASSWORD, two.url);
      const changed = await call(one(), 'POST', '/users/change-password', {
        cookie: a.cookie,
        headers: SAME_ORIGIN,
        json: { currentPassword: PASSWORD, newPassword: 'brand-new-pw-77', confirmNewPassword: 'brand-new-pw-77' },
      });
      expect(changed.status).toBe(200);
      const fresh = sessionCookieOf(changed);
      expect(fresh.attrs.httponly).toBe(true);
      expect((await call(two.url, 'GET', '/admin/me', { cookie: fresh.value })).status).toBe(200);
      expect((await call(two.url, 'GET', '/admin/me', { cookie: a.cookie })).status).toBe(401);
      expect((await call(one(), 'GET', '/admin/me', { cookie: b.cookie })).status).toBe(401);
      expect((await call(one(), 'GET', '/admin/me', { token: b.token })).status).toBe(401);
    });

    it('a reset, a deactivation and a deletion end cookie sessions on both instances; a removed permission takes effect at once', async () => {
      const id = await newUser('cookie_life');
      const first = await signIn('cookie_life');
      // permission removed: the next call through the cookie is refused
      expect((await call(two.url, 'GET', '/payments', { cookie: first.cookie })).status).toBe(200);
      expect((await s.api('PUT', `/users/${id}`, { as: 'admin', body: { permissions: [] } })).status).toBe(200);
      expect((await call(two.url, 'GET', '/payments', { cookie: first.cookie })).status).toBe(403);
      // reset by a manager
      expect(
        (
          await s.api('PUT', `/users/${id}`, {
            as: 'admin',
            body: { password: 'reset-pass-123', confirmPassword: 'reset-pass-123' },
          })
        ).status,
      ).toBe(200);
      expect((await call(two.url, 'GET', '/admin/me', { cookie: first.cookie })).status).toBe(401);
      const second = await signIn('cookie_life', 'reset-pass-123');
      expect((await s.api('PUT', `/users/${id}`, { as: 'admin', body: { is_active: false } })).status).toBe(200);
      expect((await call(two.url, 'GET', '/admin/me', { cookie: second.cookie })).status).toBe(401);
      expect((await s.api('PUT', `/users/${id}`, { as: 'admin', body: { is_active: true } })).status).toBe(200);
      const third = await signIn('cookie_life', 'reset-pass-123');
      expect((await s.api('DELETE', `/users/${id}`, { as: 'admin' })).status).toBe(200);
      expect((await call(two.url, 'GET', '/admin/me', { cookie: third.cookie })).status).toBe(401);
    });
  });

  describe('item 2: sign-out', () => {
    it('revokes a cookie session on every instance and clears the cookie; other sessions of the user stay', async () => {
      const a = await signIn('hq_view_payments');
      const other = await signIn('hq_view_payments', PASSWORD, two.url);
      const out = await call(one(), 'POST', '/admin/logout', { cookie: a.cookie, headers: SAME_ORIGIN });
      expect(out.status).toBe(204);
      const cleared = sessionCookieOf(out);
      expect(cleared.value).toBe('');
      expect(Date.parse(String(cleared.attrs.expires))).toBeLessThan(Date.now());
      for (const base of [one(), two.url]) {
        for (const path of ['/admin/me', '/payments']) {
          const res = await call(base, 'GET', path, { cookie: a.cookie });
          expect(res.status, `${base}${path}`).toBe(401);
          expect(res.body.message).toBe('登入已失效，請重新登入');
          // the same token as Bearer is revoked too: it is the same session
          expect((await call(base, 'GET', path, { token: a.token })).status).toBe(401);
        }
      }
      expect((await call(one(), 'GET', '/admin/me', { cookie: other.cookie })).status).toBe(200);
      // audited once, as the user
      const rows = await s.t
        .db('audit_log')
        .where({ action: 'logout', entity_id: String(s.users.hq_view_payments.id) });
      expect(rows.length).toBe(1);
      expect(rows[0].actor_username).toBe('hq_view_payments');
    });

    it('revokes a Bearer session (a script) on every instance', async () => {
      const { token } = await signIn('hq_view_reports');
      expect((await call(two.url, 'GET', '/admin/me', { token })).status).toBe(200);
      expect((await call(two.url, 'POST', '/admin/logout', { token })).status).toBe(204);
      expect((await call(one(), 'GET', '/admin/me', { token })).status).toBe(401);
      expect((await call(two.url, 'GET', '/stats/summary', { token })).status).toBe(401);
      // signing out twice, or without a session, is harmless
      expect((await call(one(), 'POST', '/admin/logout', { token })).status).toBe(204);
      expect((await call(one(), 'POST', '/admin/logout')).status).toBe(204);
    });

    it('ends the download tickets made in that session', async () => {
      const { cookie } = await signIn('admin');
      await s.api('POST', '/payments', {
        as: 'admin',
        body: { last_five: '11223', paid_at: '2026-11-18T09:15', amount: 50, note: '', store_id: s.stores.A.id },
      });
      const t = await call(one(), 'POST', '/payments/export-ticket', {
        cookie,
        headers: SAME_ORIGIN,
        json: { filter: {}, format: 'csv' },
      });
      expect(t.status).toBe(200);
      expect((await call(one(), 'POST', '/admin/logout', { cookie, headers: SAME_ORIGIN })).status).toBe(204);
      const file = await fetch(`${two.url}${t.body.url}`);
      expect(file.status).toBe(401);
    });

    it('refuses a token without an expiry, or without a session id, even signed with the real secret', async () => {
      const row = await s.t.db('users').where({ username: 'admin' }).first();
      const payload = { sub: String(row.id), username: 'admin', tv: Number(row.token_version) };
      const noExp = jwt.sign({ ...payload, jti: 'no-exp-session' }, TEST_SECURITY.jwtSecret, { algorithm: 'HS256' });
      expect((jwt.decode(noExp) as jwt.JwtPayload).exp).toBeUndefined();
      for (const cookie of [noExp]) expect((await call(one(), 'GET', '/admin/me', { cookie })).status).toBe(401);
      expect((await call(one(), 'GET', '/admin/me', { token: noExp })).status).toBe(401);
      const noId = jwt.sign(payload, TEST_SECURITY.jwtSecret, { algorithm: 'HS256', expiresIn: 600 });
      expect((await call(one(), 'GET', '/admin/me', { token: noId })).status).toBe(401);
      const good = jwt.sign(payload, TEST_SECURITY.jwtSecret, {
        algorithm: 'HS256',
        expiresIn: 600,
        jwtid: 'a-real-session',
      });
      expect((await call(one(), 'GET', '/admin/me', { token: good })).status).toBe(200);
    });
  });

  describe('item 10: no-store whatever the spelling', () => {
    it('every answer under /api, however spelled, carries Cache-Control: no-store; other spellings than /api/… are 404', async () => {
      const { cookie } = await signIn('admin');
      const t = await call(one(), 'POST', '/payments/export-ticket', {
        cookie,
        headers: SAME_ORIGIN,
        json: { filter: {}, format: 'json' },
      });
      expect(t.status).toBe(200);
      const ticket = t.body.url.split('ticket=')[1];
      for (const path of [
        '/API/admin/me',
        '/Api/payments',
        '/api/ADMIN/me',
        '/api/Payments',
        `/API/payments/export?ticket=${ticket}`,
        '/aPI/health',
      ]) {
        const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.tokens.admin}` } });
        expect(res.headers.get('cache-control'), path).toBe('no-store');
        expect(res.status, path).toBe(404);
        expect((await res.json()).message).toBe('找不到此 API');
      }
      for (const path of [
        '/api/admin/me',
        '/api/payments',
        `/api/payments/export?ticket=${ticket}`,
        '/api/health',
        '/api/no-such-thing',
      ]) {
        const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.tokens.admin}` } });
        await res.arrayBuffer();
        expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
    });
  });
});
