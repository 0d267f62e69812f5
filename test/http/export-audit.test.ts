/**
 * every export is audited (who, the filter, the rows), and "export all", which
 * needs manage_payments, cannot be had in pieces: a user's exports of the last 24 hours count
 * together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { listParams, secondInstance, startTestServer, type TestServer } from '../helpers/server.js';

describe.each(DB_KINDS)('exports on %s', (kind) => {
  let s: TestServer;
  let other: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    s = await startTestServer(kind);
    other = await secondInstance(s);
    const rows = [
      { last_five: '11111', paid_at: '2026-11-16T09:00', amount: 100, store_id: s.stores.A.id, status: '未確認' },
      { last_five: '22222', paid_at: '2026-11-16T10:00', amount: 200, store_id: s.stores.B.id, status: '已入帳' },
      { last_five: '33333', paid_at: '2026-11-18T09:00', amount: 300, store_id: s.stores.A.id, status: '已入帳' },
      { last_five: '44444', paid_at: '2026-11-18T10:00', amount: 400, store_id: s.stores.B.id, status: '未確認' },
      { last_five: '55555', paid_at: '2026-11-18T11:00', amount: 500, store_id: s.stores.C.id, status: '未確認' },
    ];
    expect((await s.api('POST', '/payments/bulk-import', { as: 'admin', body: { payments: rows } })).status).toBe(200);
  });
  afterAll(async () => {
    await other?.close();
    await s?.close();
  });

  const exportAs = (base: string, who: string, filter: Record<string, unknown>, format = 'csv') =>
    fetch(`${base}/payments/export?format=${format}&filter=${encodeURIComponent(JSON.stringify(filter))}`, {
      headers: { authorization: `Bearer ${s.tokens[who]}` },
    });
  const exportsOf = async (who: string) =>
    (await s.t.db('audit_log').where({ action: 'export', actor_id: s.users[who].id }).orderBy('id')).map((r: any) => ({
      ...r,
      after: JSON.parse(r.after),
    }));

  it('writes who exported, the filter, the format and the row count to the audit log, readable as 匯出', async () => {
    const res = await exportAs(`${s.url}/api`, 'admin', { status: ['未確認'] }, 'json');
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toHaveLength(3);
    const [entry] = await exportsOf('admin');
    expect(entry).toMatchObject({ actor_username: 'admin', entity: 'payment', entity_id: null });
    expect(entry.after).toEqual({ filter: { status: ['未確認'] }, format: 'json', count: 3 });
    const listed = await s.api('GET', `/audit${listParams({ filter: { action: 'export' } })}`, { as: 'admin' });
    expect(listed.status).toBe(200);
    expect(listed.body[0]).toMatchObject({ action: 'export', actor_username: 'admin', after: { count: 3 } });
    // a store-scoped auditor reads the exports of their store, not those spanning others
    const one = await exportAs(`${s.url}/api`, 'branchA', { status: ['未確認'] });
    expect(one.status).toBe(200);
    expect((await exportsOf('branchA'))[0].after).toMatchObject({
      count: 1,
      store_id: s.stores.A.id,
      stores: [s.stores.A.id],
    });
  });

  it('refuses the second half of an export all made of two halves, and audits only what was exported', async () => {
    const who = 'hq_view_payments'; // stores A and B: four payments
    const first = await exportAs(`${s.url}/api`, who, { paid_at_lte: '2026-11-17' });
    expect(first.status).toBe(200);
    await first.text();
    // the ticket is judged the same way, before any download
    const ticket = await s.api('POST', '/payments/export-ticket', {
      as: who,
      body: { filter: { paid_at_gte: '2026-11-17' }, format: 'csv' },
    });
    expect(ticket.status, ticket.text).toBe(403);
    const second = await exportAs(other.url, who, { paid_at_gte: '2026-11-17' });
    expect(second.status).toBe(403);
    expect((await second.json()).message).toBe(
      '權限不足：這次匯出加上您 24 小時內的其他匯出，等於匯出全部，需要「匯款管理」權限',
    );
    // a piece that leaves something out is still a filtered export
    const narrow = await exportAs(other.url, who, { paid_at_gte: '2026-11-17', status: ['已入帳'] });
    expect(narrow.status).toBe(200);
    await narrow.text();
    const entries = await exportsOf(who);
    expect(entries.map((e) => e.after.count)).toEqual([2, 1]);
    expect(entries[0].after).toMatchObject({
      filter: { paid_at_lte: '2026-11-17' },
      stores: [s.stores.A.id, s.stores.B.id],
    });
    // pieces by status or by store add up the same way
    const byStatus = await exportAs(`${s.url}/api`, who, { status: ['未確認'] });
    expect(byStatus.status).toBe(403);
    // manage_payments exports all, as often as it likes
    for (const who of ['hq_manage_payments', 'hq_manage_payments', 'admin']) {
      const all = await exportAs(`${s.url}/api`, who, {});
      expect(all.status).toBe(200);
      await all.text();
    }
  });

  it('judges two halves sent at once, on two instances, one after the other: one is refused', async () => {
    const who = 'branchB'; // store B: two payments, one each day
    const [a, b] = await Promise.all([
      exportAs(`${s.url}/api`, who, { paid_at_lte: '2026-11-17' }),
      exportAs(other.url, who, { paid_at_gte: '2026-11-17' }),
    ]);
    await Promise.all([a.text(), b.text()]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    expect(await exportsOf(who)).toHaveLength(1);
    expect(s.errors).toEqual([]);
  });
});
