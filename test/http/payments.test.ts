/** Payments over HTTP: the spec's calls with their shapes, the list protocol and the audit trail. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(DB_KINDS)('payments API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());
  beforeEach(async () => {
    await s.t.db('payments').delete();
  });

  const submit = (as: string, body: Record<string, unknown>) => s.api('POST', '/payments', { as, body });
  const pay = (over: Record<string, unknown> = {}) => ({
    last_five: '01234',
    paid_at: '2026-11-18T09:15',
    amount: 1500,
    note: '',
    store_id: s.stores.A.id,
    ...over,
  });

  it('POST answers 201 with the whole record: uuid is the tracking number and the id', async () => {
    const r = await submit('branchA', pay({ note: '  早班  ' }));
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: r.body.uuid,
      uuid: expect.stringMatching(UUID),
      store_id: s.stores.A.id,
      last_five: '01234',
      paid_at: '2026-11-18T01:15:00.000Z', // 09:15 Taiwan time
      amount: 1500,
      status: '未確認',
      method: '匯款',
      note: '早班',
      created_by: s.users.branchA.id,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      // 來源: typed by staff
      source: 'staff',
    });
    const stored = await s.t.db('payments').where({ uuid: r.body.uuid }).first();
    expect(Number(stored.amount)).toBe(1500);
    expect(stored.last_five).toBe('01234');
  });

  it('falls back to the user store, then to store 1, when no store is sent', async () => {
    const branch = await submit('branchB', pay({ store_id: undefined }));
    expect(branch.status).toBe(201);
    expect(branch.body.store_id).toBe(s.stores.B.id);
    const hq = await submit('admin', pay({ store_id: null }));
    expect(hq.status).toBe(201);
    expect(hq.body.store_id).toBe(1);
  });

  it('refuses a branch user submitting for another store with the spec hint', async () => {
    const r = await submit('branchA', pay({ store_id: s.stores.B.id }));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('您是分店員工，只能提交本分店的匯款資料');
    expect(Number(((await s.t.db('payments').count({ n: '*' }).first()) as any).n)).toBe(0);
  });

  it('refuses a store that does not exist with a field error', async () => {
    const r = await submit('admin', pay({ store_id: 9999 }));
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'store_id', message: '找不到分店' }]);
  });

  it('answers validation problems as an errors array the form can join', async () => {
    const r = await submit('admin', { last_five: '123', paid_at: '', amount: 0 });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('驗證錯誤');
    expect(r.body.errors.map((e: any) => e.field).sort()).toEqual(['amount', 'last_five', 'paid_at']);
    for (const e of r.body.errors) expect(typeof e.message).toBe('string');
  });

  describe('list protocol', () => {
    async function seedList() {
      // A: 3 payments over two Taiwan days; B: 2; C: 1
      const rows = [
        { store_id: s.stores.A.id, paid_at: '2026-11-17T23:59:59+08:00', amount: 100, last_five: '11111' },
        {
          store_id: s.stores.A.id,
          paid_at: '2026-11-18T00:00:00+08:00',
          amount: 200,
          last_five: '22222',
          note: '月底結帳',
        },
        { store_id: s.stores.A.id, paid_at: '2026-11-18T23:59:00+08:00', amount: 300, last_five: '33333' },
        { store_id: s.stores.B.id, paid_at: '2026-11-19T00:00:00+08:00', amount: 400, last_five: '44444' },
        { store_id: s.stores.B.id, paid_at: '2026-11-18T12:00:00+08:00', amount: 500, last_five: '12345' },
        { store_id: s.stores.C.id, paid_at: '2026-11-18T12:30:00+08:00', amount: 600, last_five: '55555' },
      ];
      const out = [];
      for (const r of rows) out.push((await submit('admin', pay(r))).body);
      await s.api('PUT', `/payments/${out[1].uuid}`, { as: 'admin', body: { status: '已入帳' } });
      await s.api('PUT', `/payments/${out[4].uuid}`, { as: 'admin', body: { status: '未入帳' } });
      return out;
    }

    it('without parameters returns every visible payment, newest paid_at first', async () => {
      await seedList();
      const r = await s.api('GET', '/payments', { as: 'admin' });
      expect(r.status).toBe(200);
      expect(r.body.map((p: any) => p.amount)).toEqual([400, 300, 600, 500, 200, 100]);
      expect(r.headers.get('content-range')).toBe('payments 0-5/6');
    });

    it('pages with range and reports the total in Content-Range', async () => {
      await seedList();
      const r = await s.api('GET', `/payments${listParams({ sort: ['amount', 'ASC'], range: [2, 3] })}`, {
        as: 'admin',
      });
      expect(r.body.map((p: any) => p.amount)).toEqual([300, 400]);
      expect(r.headers.get('content-range')).toBe('payments 2-3/6');
      const past = await s.api('GET', `/payments${listParams({ range: [10, 19] })}`, { as: 'admin' });
      expect(past.body).toEqual([]);
      expect(past.headers.get('content-range')).toBe('payments 10-10/6');
    });

    it('filters by status (value or array), store (value or array) and q', async () => {
      await seedList();
      const get = async (filter: Record<string, unknown>) =>
        (await s.api('GET', `/payments${listParams({ filter, sort: ['amount', 'ASC'] })}`, { as: 'admin' })).body.map(
          (p: any) => p.amount,
        );
      expect(await get({ status: '已入帳' })).toEqual([200]);
      expect(await get({ status: ['已入帳', '未入帳'] })).toEqual([200, 500]);
      expect(await get({ status: '未確認' })).toEqual([100, 300, 400, 600]);
      expect(await get({ store_id: s.stores.B.id })).toEqual([400, 500]);
      expect(await get({ store_id: [s.stores.B.id, s.stores.C.id] })).toEqual([400, 500, 600]);
      expect(await get({ q: '123' })).toEqual([500]);
      expect(await get({ q: '結帳' })).toEqual([200]);
      expect(await get({ q: '%' })).toEqual([]);
    });

    it('reads date filters as inclusive Taiwan days', async () => {
      await seedList();
      const get = async (filter: Record<string, unknown>) =>
        (await s.api('GET', `/payments${listParams({ filter, sort: ['paid_at', 'ASC'] })}`, { as: 'admin' })).body.map(
          (p: any) => p.amount,
        );
      // 2026-11-18 Taiwan runs from 2026-11-17T16:00Z to 2026-11-18T16:00Z
      expect(await get({ paid_at_gte: '2026-11-18', paid_at_lte: '2026-11-18' })).toEqual([200, 500, 600, 300]);
      expect(await get({ paid_at_lte: '2026-11-17' })).toEqual([100]);
      expect(await get({ paid_at_gte: '2026-11-19' })).toEqual([400]);
      expect(await get({ paid_at_gte: '2026-11-18', store_id: s.stores.A.id, status: '未確認' })).toEqual([300]);
    });

    it('getMany by id array', async () => {
      const rows = await seedList();
      const r = await s.api('GET', `/payments${listParams({ filter: { id: [rows[0].uuid, rows[5].uuid] } })}`, {
        as: 'admin',
      });
      expect(r.body.map((p: any) => p.uuid).sort()).toEqual([rows[0].uuid, rows[5].uuid].sort());
    });

    it('shows each user only the stores in their scope, whatever the filter asks', async () => {
      await seedList();
      const a = await s.api('GET', '/payments', { as: 'branchA' });
      expect(a.body.map((p: any) => p.store_id)).toEqual([s.stores.A.id, s.stores.A.id, s.stores.A.id]);
      expect(a.headers.get('content-range')).toBe('payments 0-2/3');
      const sneaky = await s.api('GET', `/payments${listParams({ filter: { store_id: s.stores.C.id } })}`, {
        as: 'branchA',
      });
      expect(sneaky.body).toEqual([]);
      const hq = await s.api('GET', '/payments', { as: 'hq_view_payments' });
      expect(new Set(hq.body.map((p: any) => p.store_id))).toEqual(new Set([s.stores.A.id, s.stores.B.id]));
      const storeC = await s.api('GET', `/stores/${s.stores.C.id}/payments`, { as: 'hq_view_payments' });
      expect(storeC.status).toBe(403);
      const storeA = await s.api('GET', `/stores/${s.stores.A.id}/payments`, { as: 'hq_view_payments' });
      expect(storeA.body).toHaveLength(3);
      expect(storeA.headers.get('content-range')).toBe('payments 0-2/3');
    });
  });

  it('GET /payments/:id returns the record, 404 for an unknown id', async () => {
    const created = (await submit('admin', pay())).body;
    const r = await s.api('GET', `/payments/${created.uuid}`, { as: 'branchA' });
    expect(r.body).toEqual(created);
    const missing = await s.api('GET', '/payments/00000000-0000-4000-8000-000000000000', { as: 'admin' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('找不到匯款記錄');
  });

  it('PUT changes status and note, returns the whole record, and accepts the unchanged full record', async () => {
    const created = (await submit('admin', pay())).body;
    for (const status of ['已入帳', '未入帳', '未確認', '已入帳']) {
      const r = await s.api('PUT', `/payments/${created.uuid}`, { as: 'branchA', body: { status } });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(status);
    }
    const full = await s.api('PUT', `/payments/${created.uuid}`, {
      as: 'branchA',
      body: { ...created, status: '已入帳', note: '已核對' },
    });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      uuid: created.uuid,
      status: '已入帳',
      note: '已核對',
      amount: 1500,
      last_five: '01234',
    });
    const reread = await s.api('GET', `/payments/${created.uuid}`, { as: 'admin' });
    expect(reread.body.note).toBe('已核對');
    const changeAmount = await s.api('PUT', `/payments/${created.uuid}`, { as: 'admin', body: { amount: 1 } });
    expect(changeAmount.status).toBe(400);
    expect(changeAmount.body.errors).toEqual([{ field: 'amount', message: '匯款記錄只能修改狀態和備註' }]);
  });

  it('DELETE /payments/:id returns the deleted record; DELETE /payments deletes a batch', async () => {
    const one = (await submit('admin', pay())).body;
    const del = await s.api('DELETE', `/payments/${one.uuid}`, { as: 'branchA' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual(one);
    expect((await s.api('GET', `/payments/${one.uuid}`, { as: 'admin' })).status).toBe(404);

    const batch = [];
    for (let i = 0; i < 3; i++) batch.push((await submit('admin', pay({ amount: 10 + i }))).body.uuid);
    const r = await s.api('DELETE', '/payments', { as: 'admin', body: { uuids: [...batch, 'no-such-id'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: 3 });
    expect((await s.api('GET', '/payments', { as: 'admin' })).body).toEqual([]);
  });

  it('a batch delete holding one payment outside the caller scope deletes nothing', async () => {
    const a = (await submit('admin', pay())).body.uuid;
    const c = (await submit('admin', pay({ store_id: s.stores.C.id }))).body.uuid;
    const r = await s.api('DELETE', '/payments', { as: 'branchA', body: { uuids: [a, c] } });
    expect(r.status).toBe(403);
    expect((await s.api('GET', '/payments', { as: 'admin' })).body).toHaveLength(2);
  });

  it('bulk import writes every row in one transaction, or none', async () => {
    const rows = [
      {
        last_five: '00001',
        paid_at: '2026-11-18T10:00:00+08:00',
        amount: 10,
        note: '匯入',
        store_id: s.stores.A.id,
        status: '已入帳',
      },
      { last_five: '00002', paid_at: '2026-11-18T11:00:00+08:00', amount: 20, store_id: s.stores.B.id },
    ];
    const ok = await s.api('POST', '/payments/bulk-import', { as: 'hq_manage_payments', body: { payments: rows } });
    expect(ok.status).toBe(200);
    expect(ok.body.imported).toBe(2);
    const list = (await s.api('GET', `/payments${listParams({ sort: ['amount', 'ASC'] })}`, { as: 'admin' })).body;
    expect(list.map((p: any) => [p.last_five, p.status, p.store_id])).toEqual([
      ['00001', '已入帳', s.stores.A.id],
      ['00002', '未確認', s.stores.B.id],
    ]);

    const bad = await s.api('POST', '/payments/bulk-import', {
      as: 'admin',
      body: { payments: [...rows, { ...rows[0], amount: -1 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toMatch(/^第 3 筆：/);
    const outside = await s.api('POST', '/payments/bulk-import', {
      as: 'hq_manage_payments',
      body: { payments: [{ ...rows[0], store_id: s.stores.C.id }] },
    });
    expect(outside.status).toBe(403);
    expect((await s.api('GET', '/payments', { as: 'admin' })).body).toHaveLength(2);
  });

  it('writes every create, update, delete and import to the audit log with actor and address', async () => {
    await s.t.db('audit_log').delete();
    const created = (await submit('branchA', pay())).body;
    await s.api('PUT', `/payments/${created.uuid}`, { as: 'branchA', body: { status: '已入帳' } });
    await s.api('POST', '/payments/bulk-import', { as: 'admin', body: { payments: [pay({ amount: 5 })] } });
    await s.api('DELETE', `/payments/${created.uuid}`, { as: 'admin' });
    const log = await s.t.db('audit_log').orderBy('id');
    expect(log.map((l: any) => [l.action, l.entity, l.actor_username])).toEqual([
      ['create', 'payment', 'branchA'],
      ['update', 'payment', 'branchA'],
      ['import', 'payment', 'admin'],
      ['delete', 'payment', 'admin'],
    ]);
    expect(JSON.parse(log[1].before).status).toBe('未確認');
    expect(JSON.parse(log[1].after).status).toBe('已入帳');
    expect(log[0].ip).toMatch(/127\.0\.0\.1/);
    expect(Number(log[0].actor_id)).toBe(s.users.branchA.id);
  });

  it('has no unexpected server errors', () => {
    expect(s.errors).toEqual([]);
  });
});
