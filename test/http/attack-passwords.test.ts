/**
 * password checks limited and off the main thread, bcrypt's
 * 72-byte limit stated and enforced, hashes brought to the configured cost on sign-in.
 * common, repetitive and username-equal passwords refused, saying why.
 */
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, MSG, systemActor } from '../../core/index.js';
import { type SecuritySettings } from '../../core/context.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { listenApi, startTestServer, type TestServer } from '../helpers/server.js';

const listen = (s: TestServer, security: SecuritySettings) => listenApi({ db: s.t.db, security });

const post = (url: string, path: string, body: unknown, token?: string) =>
  fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe.each(DB_KINDS)('password checks on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => {
    await s?.close();
  });
  // every call here comes from 127.0.0.1: each test starts with no failures counted
  beforeEach(async () => {
    await s.t.db('login_attempts').delete();
  });

  it('wrong current passwords on the change-password form are limited like sign-ins: the 11th answers 429', async () => {
    // The guesses alternate between two API instances on the database: the count is shared.
    const other = await listen(s, TEST_SECURITY);
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 11; i++) {
        const body = { currentPassword: `guess-${i}`, newPassword: 'another1' };
        const res =
          i % 2
            ? await post(other.url, '/users/change-password', body, s.tokens.hq_none)
            : await s.api('POST', '/users/change-password', { as: 'hq_none', body });
        statuses.push(res.status);
      }
    } finally {
      await other.close();
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    // even the right current password waits now, from that address
    const right = await s.api('POST', '/users/change-password', {
      as: 'hq_none',
      body: { currentPassword: PASSWORD, newPassword: 'another1' },
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a full hashing queue answers 503 with Retry-After and a message, not a stall; the rest are answered', async () => {
    const busy = await listen(s, { ...TEST_SECURITY, hashing: { threads: 1, queue: 2 } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => post(busy.url, '/admin/login', { username: `burst_${i}`, password: 'x' })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toContain(503);
      expect(statuses.every((st) => st === 401 || st === 503)).toBe(true);
      const refused = answers.find((a) => a.status === 503)!;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).message).toBe('伺服器忙碌中，請稍候幾秒再試');
    } finally {
      await busy.close();
    }
  });

  it('a 72-byte password accepts no suffix, and the limit is told in bytes', async () => {
    const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const long = `${'ab3'.repeat(23)}xyz`; // 72 bytes, and not a weak password
    await createUser(ctx, { username: 'longpw', password: long, role: 'user', permissions: [] });
    expect((await post(s.url, '/admin/login', { username: 'longpw', password: long })).status).toBe(200);
    expect((await post(s.url, '/admin/login', { username: 'longpw', password: `${long}anything` })).status).toBe(401);
    const cjk = await s.api('POST', '/users', {
      as: 'admin',
      body: { username: 'cjkpw', password: '密'.repeat(25), role: 'user', permissions: [] },
    });
    expect(cjk.status).toBe(400);
    expect(cjk.body.errors[0].message).toBe(
      '密碼不能超過72個位元組（英數字每字1個、中文字每字3個位元組，約24個中文字）',
    );
    const cjk72 = '我家巷口那間紅茶攤的老闆每天早上五點就開門做生意'; // 24 characters, 72 bytes
    expect(
      (
        await s.api('POST', '/users', {
          as: 'admin',
          body: { username: 'cjkpw', password: cjk72, role: 'user', permissions: [] },
        })
      ).status,
    ).toBe(201);
    expect((await post(s.url, '/admin/login', { username: 'cjkpw', password: cjk72 })).status).toBe(200);
  });

  it('a sign-in rehashes a password made at an older cost, so known and unknown names cost the same', async () => {
    const row = await s.t.db('users').where({ username: 'branchB' }).first();
    expect(bcrypt.getRounds(row.password_hash)).toBe(10);
    const stronger = await listen(s, { ...TEST_SECURITY, bcryptCost: 11 });
    try {
      expect((await post(stronger.url, '/admin/login', { username: 'branchB', password: PASSWORD })).status).toBe(200);
    } finally {
      await stronger.close();
    }
    const after = await s.t.db('users').where({ username: 'branchB' }).first();
    expect(bcrypt.getRounds(after.password_hash)).toBe(11);
    // old tokens keep working: a rehash is no password change
    expect((await s.api('GET', '/admin/me', { as: 'branchB' })).status).toBe(200);
  });

  it('refuses common, repetitive and username-equal passwords, saying why, wherever a password is set', async () => {
    const users = async () => Number(((await s.t.db('users').count({ n: '*' }).first()) as { n: number | string }).n);
    const before = await users();
    const cases: Array<[string, string, string]> = [
      ['123456', 'weak_a', MSG.passwordWeak.repetitive],
      ['password', 'weak_b', MSG.passwordWeak.common],
      ['aaaaaa', 'weak_c', MSG.passwordWeak.repetitive],
      ['weak_d', 'weak_d', MSG.passwordWeak.username],
      ['Weak_E2026', 'weak_e', MSG.passwordWeak.username],
    ];
    for (const [password, username, message] of cases) {
      const res = await s.api('POST', '/users', {
        as: 'admin',
        body: { username, password, role: 'user', permissions: [] },
      });
      expect([password, res.status, res.body.errors]).toEqual([password, 400, [{ field: 'password', message }]]);
    }
    expect(await users()).toBe(before);
    // an operator's reset of another account
    const target = (await s.t.db('users').where({ username: 'hq_none' }).first()) as {
      id: number;
      password_hash: string;
    };
    const reset = await s.api('PUT', `/users/${target.id}`, { as: 'admin', body: { password: 'hq_none' } });
    expect([reset.status, reset.body.errors]).toEqual([
      400,
      [{ field: 'password', message: MSG.passwordWeak.username }],
    ]);
    // one's own change: refused before the current password is even checked (no failure counted)
    const own = await s.api('POST', '/users/change-password', {
      as: 'hq_none',
      body: { currentPassword: PASSWORD, newPassword: 'qwerty123' },
    });
    expect([own.status, own.body.errors]).toEqual([400, [{ field: 'newPassword', message: MSG.passwordWeak.common }]]);
    expect(((await s.t.db('users').where({ id: target.id }).first()) as { password_hash: string }).password_hash).toBe(
      target.password_hash,
    );
    expect((await post(s.url, '/admin/login', { username: 'hq_none', password: PASSWORD })).status).toBe(200);
  });
});
