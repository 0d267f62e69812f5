/**
 * Error answers name a stable code and its details when the client asks (Remit-Error-Codes: 1,
 * as the back office always does), so a client branches on the code, never on the sentence; the
 * sentence itself is the one every other test checks. Without the header the answer keeps its
 * original shape, `{message, errors?}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES_HEADER } from '../../core/errors.js';
import { DB_KINDS } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CODES = { [ERROR_CODES_HEADER]: '1' };

describe.each(DB_KINDS)('error codes over HTTP on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const good = () => ({
    last_five: '12345',
    paid_at: new Date(Date.now() - 3_600_000).toISOString(),
    amount: 1500,
    store_id: s.stores.A.id,
  });

  it('gives each field error its code and details, the limit included, beside the unchanged sentence', async () => {
    const res = await s.api('POST', '/payments', {
      as: 'admin',
      headers: CODES,
      body: { ...good(), note: 'n'.repeat(1001), amount: 0 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: '驗證錯誤', code: 'validation_failed', details: {} });
    expect(res.body.errors).toEqual([
      { field: 'amount', message: '匯款金額至少為 1', code: 'amount_min', details: { limit: 1 } },
      { field: 'note', message: '備註不能超過1000個字元', code: 'note_too_long', details: { limit: 1000 } },
    ]);
  });

  it('keeps the original shape for a client that does not ask', async () => {
    const res = await s.api('POST', '/payments', { as: 'admin', body: { ...good(), note: 'n'.repeat(1001) } });
    expect(res.body).toEqual({
      message: '驗證錯誤',
      request_id: expect.any(String),
      errors: [{ field: 'note', message: '備註不能超過1000個字元' }],
    });
  });

  it('names the code of a refusal that is not about a field, and of the edge’s own answers', async () => {
    expect((await s.api('GET', '/stats/summary', { headers: CODES })).body).toEqual({
      message: '請先登入',
      code: 'unauthenticated',
      details: {},
      request_id: expect.any(String),
    });
    const forbidden = await s.api('GET', '/users', { as: 'hq_none', headers: CODES });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'permission_required', details: { permission: 'manage_users' } });
    expect((await s.api('GET', '/no-such-route', { headers: CODES })).body).toMatchObject({ code: 'not_found_route' });
    const malformed = await s.api('POST', '/payments', {
      as: 'admin',
      headers: { ...CODES, 'content-type': 'application/json' },
      raw: '{"last_five":',
    });
    expect(malformed.body).toEqual({
      message: '請求內容不是有效的 JSON',
      code: 'malformed_json',
      details: {},
      request_id: expect.any(String),
    });
  });

  it('names a probable duplicate by code, with the earlier payment in its details', async () => {
    const body = good();
    const first = await s.api('POST', '/payments', { as: 'admin', body });
    const again = await s.api('POST', '/payments', { as: 'admin', headers: CODES, body });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'possible_duplicate',
      details: { duplicate_of: first.body.uuid },
      duplicate_of: first.body.uuid,
    });
  });

  it('says which row of a bulk import each error belongs to', async () => {
    const rows = [
      { ...good(), row: 2 },
      { ...good(), row: 3, last_five: '12a45' },
    ];
    const res = await s.api('POST', '/payments/bulk-import', { as: 'admin', headers: CODES, body: { payments: rows } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        field: 'payments.1.last_five',
        message: '第 3 行：帳號後五碼必須是5位數字',
        code: 'last_five_format',
        details: { length: 5, row: 3 },
      },
    ]);
  });
});
