/**
 * Every answer carries X-Request-Id: the caller's own when it is short and safe (a proxy's, so one request is
 * followed through both logs), else a new one; and every error answer names it in its body, `request_id`, beside
 * the fields it always had, so a clerk can quote it and the operator find the request in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES_HEADER } from '../../core/errors.js';
import { createApp } from '../../http/app.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { listen, startTestServer, type Listening, type TestServer } from '../helpers/server.js';

const GENERATED = /^[0-9a-f]{12}$/;

describe.each(DB_KINDS)('request ids on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it("sends back a caller's safe id, on a success and in an error's body", async () => {
    const ok = await s.api('GET', '/admin/me', { as: 'admin', headers: { 'X-Request-Id': 'lb-7f3a.2_x' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('lb-7f3a.2_x');
    const refused = await s.api('GET', '/payments', { headers: { 'X-Request-Id': 'a'.repeat(64) } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('a'.repeat(64));
    expect(refused.body).toEqual({ message: '請先登入', request_id: 'a'.repeat(64) });
  });

  it('makes a new id for a missing, long or unsafe one, different each time', async () => {
    const ids: string[] = [];
    for (const sent of [undefined, 'a'.repeat(65), 'id with spaces', '<script>', 'x"}{"level":"error', '']) {
      const res = await s.api('GET', '/health', { headers: sent === undefined ? {} : { 'X-Request-Id': sent } });
      const id = res.headers.get('x-request-id') ?? '';
      expect(id, String(sent)).toMatch(GENERATED);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the id once in every error answer, after the fields that were already there', async () => {
    const codes = { [ERROR_CODES_HEADER]: '1' };
    const invalid = await s.api('POST', '/payments', {
      as: 'admin',
      headers: codes,
      body: { last_five: '12', paid_at: new Date().toISOString(), amount: 100, store_id: s.stores.A.id },
    });
    expect(invalid.status).toBe(400);
    const id = invalid.headers.get('x-request-id');
    expect(Object.keys(invalid.body)).toEqual(['message', 'code', 'details', 'request_id', 'errors']);
    expect(invalid.body.request_id).toBe(id);
    // the field errors stay as they were: the id is the answer's, said once
    expect(invalid.body.errors[0]).toEqual({
      field: 'last_five',
      message: '帳號後五碼必須是5位數字',
      code: 'last_five_format',
      details: { length: 5 },
    });
    const missing = await s.api('GET', '/no-such-thing', { as: 'admin' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '找不到此 API', request_id: missing.headers.get('x-request-id') });
    const malformed = await s.api('POST', '/payments', {
      as: 'admin',
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.request_id).toBe(malformed.headers.get('x-request-id'));
  });
});

describe.each(DB_KINDS)('an unexpected error on %s', (kind) => {
  let t: TestDb;
  let server: Listening;
  const logged: Array<{ message: string; requestId?: string }> = [];
  beforeAll(async () => {
    // no tables: the sign-in's first query fails as no user could make it fail
    t = await createTestDb(kind, { migrate: false });
    const log = (message: string, _err: unknown, requestId?: string) => logged.push({ message, requestId });
    server = await listen(createApp({ db: t.db, security: TEST_SECURITY, log }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  it('answers 500 with the id the failure was logged under, for the clerk to quote', async () => {
    const res = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Request-Id': 'clerk-call-1' },
      body: JSON.stringify({ username: 'admin', password: 'never-logged-1' }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: '伺服器發生錯誤，請稍後再試', request_id: 'clerk-call-1' });
    expect(logged).toEqual([{ message: 'POST /api/admin/login failed', requestId: 'clerk-call-1' }]);
  });
});
