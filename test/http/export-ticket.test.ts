/**
 * The back office's export download: `POST /api/payments/export-ticket` judges
 * the export (permission, 沒有資料可匯出) and answers a short-lived link; the browser follows the
 * link without its Authorization header and the file streams from the server. The ticket is good
 * for that download only, for a minute, for the user as they are now.
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePaymentsWorkbook } from '../../core/index.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(DB_KINDS)('export download links on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());
  beforeEach(async () => {
    await s.t.db('payments').delete();
    const rows = [
      {
        last_five: '00001',
        paid_at: '2026-11-18T09:15',
        amount: 1500,
        note: '早班',
        store_id: s.stores.A.id,
        status: '已入帳',
      },
      {
        last_five: '00002',
        paid_at: '2026-11-19T10:30',
        amount: 23800,
        note: '',
        store_id: s.stores.A.id,
        status: '未確認',
      },
      {
        last_five: '00003',
        paid_at: '2026-11-20T00:05',
        amount: 650,
        note: '',
        store_id: s.stores.C.id,
        status: '未入帳',
      },
    ];
    expect((await s.api('POST', '/payments/bulk-import', { as: 'admin', body: { payments: rows } })).status).toBe(200);
  });

  const ticket = (as: string, body: Record<string, unknown>) => s.api('POST', '/payments/export-ticket', { as, body });
  /** Follows a link as a browser does: no Authorization header. */
  const follow = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.url}/api${url}`, { headers });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const fileNameOf = (headers: Headers) =>
    decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(headers.get('content-disposition') ?? '')![1]);
  const stores = () => Object.values(s.stores).map((x) => ({ id: x.id, name: x.name, code: x.code }));

  it('answers a link whose download is the export, under the name the link promised', async () => {
    const t = await ticket('admin', { filter: {}, format: 'xlsx' });
    expect(t.status).toBe(200);
    expect(t.body.count).toBe(3);
    expect(t.body.file_name).toMatch(/^匯款記錄_全部_\d{12}\.xlsx$/);
    expect(t.body.url).toMatch(/^\/payments\/export\?ticket=/);
    const file = await follow(t.body.url);
    expect(file.status).toBe(200);
    expect(fileNameOf(file.headers)).toBe(t.body.file_name);
    const back = parsePaymentsWorkbook(file.bytes, { stores: stores() });
    expect(back.errors).toEqual([]);
    expect(back.rows.map((r) => r.last_five)).toEqual(['00003', '00002', '00001']);
  });

  it('carries the filter and the format', async () => {
    const t = await ticket('branchA', { filter: { status: '未確認' }, format: 'csv' });
    expect(t.status).toBe(200);
    const file = await follow(t.body.url);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = new TextDecoder().decode(file.bytes);
    expect(text).toContain('00002');
    expect(text).not.toContain('00001');
  });

  it('judges the export when the link is asked for: 403 without the permission, 404 with nothing to export', async () => {
    // export all needs manage_payments, judged in core as for every export
    const all = await ticket('hq_view_payments', { filter: {} });
    expect(all.status).toBe(403);
    const none = await ticket('branchA', { filter: { store_id: s.stores.C.id } });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: '沒有資料可匯出', request_id: expect.any(String) });
    expect((await ticket('admin', { filter: {}, format: 'pdf' })).status).toBe(400);
    expect((await ticket('admin', { filter: { colour: 'red' } })).status).toBe(400);
    expect((await s.api('POST', '/payments/export-ticket', { body: { filter: {} } })).status).toBe(401);
  });

  it('a branch user’s link never reaches another store', async () => {
    // branchA's exports of the tests above were made yesterday: with them, this one would be the
    // last piece of an export all (test/http/export-audit.test.ts)
    await s.t
      .db('audit_log')
      .where({ action: 'export', actor_id: s.users.branchA.id })
      .update({ at: Date.now() - 25 * 3600 * 1000 });
    // one of store A's payments the search leaves out (else the search is an export all for branchA)
    const other = await s.api('POST', '/payments', {
      as: 'admin',
      body: { last_five: '98765', paid_at: '2026-11-18T12:00', amount: 77, note: '', store_id: s.stores.A.id },
    });
    expect(other.status).toBe(201);
    // a search every other payment matches (a last-five prefix): store C's payment is not in the file
    const t = await ticket('branchA', { filter: { q: '0000' } });
    expect(t.status).toBe(200);
    const back = parsePaymentsWorkbook((await follow(t.body.url)).bytes, { stores: stores() });
    expect(back.rows.map((r) => r.store_id)).toEqual([s.stores.A.id, s.stores.A.id]);
  });

  it('a ticket is not a session token, a session token is not a ticket, and a forged or expired ticket is refused', async () => {
    const t = await ticket('admin', { filter: {} });
    const raw = decodeURIComponent(t.body.url.split('ticket=')[1]);
    expect((await s.api('GET', '/payments', { token: raw })).status).toBe(401);
    expect((await follow(`/payments/export?ticket=${encodeURIComponent(s.tokens.admin)}`)).status).toBe(401);
    expect((await follow('/payments/export?ticket=nonsense')).status).toBe(401);
    const claims = jwt.decode(raw) as Record<string, unknown>;
    const key = `${TEST_SECURITY.jwtSecret}\u0000ticket`;
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, key, { algorithm: 'HS256' });
    expect((await follow(`/payments/export?ticket=${encodeURIComponent(expired)}`)).status).toBe(401);
    // the same claims, signed as a ticket should be, pass: the refusal above was the expiry
    const fresh = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) + 30 }, key, { algorithm: 'HS256' });
    expect((await follow(`/payments/export?ticket=${encodeURIComponent(fresh)}`)).status).toBe(200);
    const otherFilter = jwt.sign(
      {
        ...claims,
        claims: { filter: {}, format: 'xlsx' },
        what: 'something-else',
        exp: Math.floor(Date.now() / 1000) + 30,
      },
      key,
      { algorithm: 'HS256' },
    );
    expect((await follow(`/payments/export?ticket=${encodeURIComponent(otherFilter)}`)).status).toBe(401);
  });

  it('stops working when the user is deactivated, and the permission is judged again on download', async () => {
    const t = await ticket('hq_manage_payments', { filter: {} });
    expect(t.status).toBe(200);
    const id = s.users.hq_manage_payments.id;
    await s.t
      .db('users')
      .where({ id })
      .update({ permissions: JSON.stringify(['view_payments']) });
    // now only view_payments: "export all" is refused when the link is followed
    expect((await follow(t.body.url)).status).toBe(403);
    await s.t
      .db('users')
      .where({ id })
      .update({ is_active: false, permissions: JSON.stringify(['manage_payments']) });
    expect((await follow(t.body.url)).status).toBe(401);
    await s.t.db('users').where({ id }).update({ is_active: true });
  });
});
