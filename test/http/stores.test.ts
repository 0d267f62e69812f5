/**
 * Stores over HTTP: the list any signed-in user reads, writes behind manage_stores, unique
 * codes, deletion rules, and a store's payments behind view_payments and store scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { listParams, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function expectStoreShape(st: any) {
  expect(typeof st.id).toBe('number');
  expect(typeof st.name).toBe('string');
  expect(typeof st.code).toBe('string');
  expect(st.created_at).toMatch(ISO);
}

describe.each(DB_KINDS)('stores API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());

  const storesTable = () => s.t.db('stores').orderBy('id');
  const auditCount = async () =>
    Number(((await s.t.db('audit_log').count({ n: '*' }).first()) as { n: number | string }).n);

  /** Runs a refused call and checks nothing moved: stores, users' store lists, audit log. */
  async function expectNothingChanged(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const stores = await storesTable();
    const users = await s.t.db('users').orderBy('id').select('id', 'store_id', 'accessible_stores');
    const audits = await auditCount();
    const res = await call();
    expect(await storesTable()).toEqual(stores);
    expect(await s.t.db('users').orderBy('id').select('id', 'store_id', 'accessible_stores')).toEqual(users);
    expect(await auditCount()).toBe(audits);
    return res;
  }

  async function pay(storeId: number, lastFive: string) {
    const res = await s.api('POST', '/payments', {
      as: 'admin',
      body: { last_five: lastFive, paid_at: '2026-11-20T10:00', amount: 1000, store_id: storeId },
    });
    expect(res.status).toBe(201);
    return res.body as { uuid: string; store_id: number };
  }

  describe('reading', () => {
    it.each(['admin', 'hq_none', 'branchA', 'branchB', 'hq_view_payments', 'hq_manage_users'])(
      'lists every store for %s, with Content-Range stores 0-2/3',
      async (who) => {
        const res = await s.api('GET', '/stores', { as: who });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-range')).toBe('stores 0-2/3');
        expect(res.body.map((st: any) => [st.name, st.code])).toEqual([
          ['台北店', 'TPE'],
          ['台中店', 'TXG'],
          ['高雄店', 'KHH'],
        ]);
        for (const st of res.body) expectStoreShape(st);
      },
    );

    it('answers 401 to an anonymous caller and to an inactive user', async () => {
      expect((await s.api('GET', '/stores')).status).toBe(401);
      expect((await s.api('GET', '/stores', { as: 'inactive' })).status).toBe(401);
    });

    it('sorts, pages and filters by the list protocol', async () => {
      const byCode = await s.api('GET', `/stores${listParams({ sort: ['code', 'ASC'] })}`, { as: 'branchA' });
      expect(byCode.body.map((st: any) => st.code)).toEqual(['KHH', 'TPE', 'TXG']);
      const desc = await s.api('GET', `/stores${listParams({ sort: ['id', 'DESC'], range: [0, 1] })}`, {
        as: 'branchA',
      });
      expect(desc.body.map((st: any) => st.code)).toEqual(['KHH', 'TXG']);
      expect(desc.headers.get('content-range')).toBe('stores 0-1/3');
      const page2 = await s.api('GET', `/stores${listParams({ sort: ['id', 'ASC'], range: [2, 3] })}`, {
        as: 'branchA',
      });
      expect(page2.body.map((st: any) => st.code)).toEqual(['KHH']);
      expect(page2.headers.get('content-range')).toBe('stores 2-2/3');
      const many = await s.api('GET', `/stores${listParams({ filter: { id: [s.stores.A.id, s.stores.C.id] } })}`, {
        as: 'branchA',
      });
      expect(many.body.map((st: any) => st.code)).toEqual(['TPE', 'KHH']);
      expect(many.headers.get('content-range')).toBe('stores 0-1/2');
      const q = await s.api('GET', `/stores${listParams({ filter: { q: 'txg' } })}`, { as: 'branchA' });
      expect(q.body.map((st: any) => st.code)).toEqual(['TXG']);
      const byName = await s.api('GET', `/stores${listParams({ filter: { q: '高雄' } })}`, { as: 'branchA' });
      expect(byName.body.map((st: any) => st.code)).toEqual(['KHH']);
    });

    it('answers one store by id', async () => {
      const res = await s.api('GET', `/stores/${s.stores.B.id}`, { as: 'branchA' });
      expect(res.status).toBe(200);
      expectStoreShape(res.body);
      expect(res.body).toMatchObject({ id: s.stores.B.id, name: '台中店', code: 'TXG' });
    });

    it('answers 404 for an unknown or malformed store id', async () => {
      const res = await s.api('GET', '/stores/999999', { as: 'admin' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('找不到分店');
      expect((await s.api('GET', '/stores/abc', { as: 'admin' })).status).toBe(404);
      expect((await s.api('GET', '/stores/999999')).status).toBe(401);
    });
  });

  describe('GET /api/stores/:id/payments', () => {
    let inA: string;
    let inB: string;
    let inC: string;
    beforeAll(async () => {
      inA = (await pay(s.stores.A.id, '11111')).uuid;
      inB = (await pay(s.stores.B.id, '22222')).uuid;
      inC = (await pay(s.stores.C.id, '33333')).uuid;
    });

    it('answers a branch user their own store payments only', async () => {
      const res = await s.api('GET', `/stores/${s.stores.A.id}/payments`, { as: 'branchA' });
      expect(res.status).toBe(200);
      expect(res.body.map((p: any) => p.uuid)).toEqual([inA]);
      expect(res.body[0].store_id).toBe(s.stores.A.id);
      expect(res.headers.get('content-range')).toBe('payments 0-0/1');
    });

    it('refuses a branch user another store (403), and sends none of its payments', async () => {
      const res = await s.api('GET', `/stores/${s.stores.B.id}/payments`, { as: 'branchA' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/^權限不足/);
      expect(res.text).not.toContain(inB);
    });

    it('answers a headquarters viewer the stores in their scope and refuses the others', async () => {
      const a = await s.api('GET', `/stores/${s.stores.A.id}/payments`, { as: 'hq_view_payments' });
      const b = await s.api('GET', `/stores/${s.stores.B.id}/payments`, { as: 'hq_view_payments' });
      const c = await s.api('GET', `/stores/${s.stores.C.id}/payments`, { as: 'hq_view_payments' });
      expect(a.status).toBe(200);
      expect(a.body.map((p: any) => p.uuid)).toEqual([inA]);
      expect(b.status).toBe(200);
      expect(b.body.map((p: any) => p.uuid)).toEqual([inB]);
      expect(c.status).toBe(403);
      expect(c.text).not.toContain(inC);
    });

    it('answers the admin every store', async () => {
      for (const [id, uuid] of [
        [s.stores.A.id, inA],
        [s.stores.B.id, inB],
        [s.stores.C.id, inC],
      ] as const) {
        const res = await s.api('GET', `/stores/${id}/payments`, { as: 'admin' });
        expect(res.status).toBe(200);
        expect(res.body.map((p: any) => p.uuid)).toEqual([uuid]);
      }
    });

    it.each(['hq_none', 'hq_manage_stores', 'hq_manage_users', 'hq_view_reports'])(
      'needs view_payments: 403 for %s, even in scope',
      async (who) => {
        const res = await s.api('GET', `/stores/${s.stores.A.id}/payments`, { as: who });
        expect(res.status).toBe(403);
        expect(res.text).not.toContain(inA);
      },
    );

    it('answers 401 anonymously and 404 for an unknown store', async () => {
      expect((await s.api('GET', `/stores/${s.stores.A.id}/payments`)).status).toBe(401);
      const res = await s.api('GET', '/stores/999999/payments', { as: 'admin' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('找不到分店');
    });
  });

  describe('POST /api/stores', () => {
    it('creates a store for an admin (201), with an audit row', async () => {
      const audits = await auditCount();
      const res = await s.api('POST', '/stores', { as: 'admin', body: { name: '新竹店', code: 'HSZ' } });
      expect(res.status).toBe(201);
      expectStoreShape(res.body);
      expect(res.body).toMatchObject({ name: '新竹店', code: 'HSZ' });
      const list = await s.api('GET', '/stores', { as: 'branchA' });
      expect(list.body.map((st: any) => st.code)).toContain('HSZ');
      expect(await auditCount()).toBe(audits + 1);
      const audit = await s.t.db('audit_log').where({ entity: 'store', entity_id: String(res.body.id) });
      expect(audit).toHaveLength(1);
      expect(audit[0].action).toBe('create');
      expect(Number(audit[0].actor_id)).toBe(s.users.admin.id);
    });

    it('creates a store for a non-admin holding manage_stores, trimming name and code', async () => {
      const res = await s.api('POST', '/stores', {
        as: 'hq_manage_stores',
        body: { name: '  台南店 ', code: ' TNN ' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: '台南店', code: 'TNN' });
    });

    it.each(['hq_none', 'branchA', 'hq_manage_users', 'hq_system_admin', 'hq_manage_payments'])(
      'answers 403 to %s, creating nothing',
      async (who) => {
        const res = await expectNothingChanged(() =>
          s.api('POST', '/stores', { as: who, body: { name: '偷開店', code: 'SNEAK' } }),
        );
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('權限不足：需要「分店管理」權限');
      },
    );

    it('answers 401 anonymously, creating nothing', async () => {
      const res = await expectNothingChanged(() =>
        s.api('POST', '/stores', { body: { name: '偷開店', code: 'SNEAK' } }),
      );
      expect(res.status).toBe(401);
    });

    it.each([
      [
        'no name and no code',
        {},
        [
          { field: 'name', message: '請輸入分店名稱' },
          { field: 'code', message: '請輸入分店代碼' },
        ],
      ],
      ['a blank name', { name: '   ', code: 'OK1' }, [{ field: 'name', message: '請輸入分店名稱' }]],
      ['a name that is not text', { name: 42, code: 'OK1' }, [{ field: 'name', message: '請輸入分店名稱' }]],
      [
        'a 51-character name',
        { name: '店'.repeat(51), code: 'OK1' },
        [{ field: 'name', message: '分店名稱不能超過50個字元' }],
      ],
      ['a blank code', { name: '好店', code: '' }, [{ field: 'code', message: '請輸入分店代碼' }]],
      [
        'a code with a space',
        { name: '好店', code: 'A B' },
        [{ field: 'code', message: '分店代碼只能包含英文字母、數字、底線和連字號，最多20個字元' }],
      ],
      [
        'a code in Chinese',
        { name: '好店', code: '台北' },
        [{ field: 'code', message: '分店代碼只能包含英文字母、數字、底線和連字號，最多20個字元' }],
      ],
      [
        'a 21-character code',
        { name: '好店', code: 'C'.repeat(21) },
        [{ field: 'code', message: '分店代碼只能包含英文字母、數字、底線和連字號，最多20個字元' }],
      ],
    ])('refuses %s with 400 and field messages', async (_name, body, errors) => {
      const res = await expectNothingChanged(() => s.api('POST', '/stores', { as: 'admin', body }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(errors);
    });

    it('accepts a 50-character name and a 20-character code with - and _', async () => {
      const res = await s.api('POST', '/stores', {
        as: 'admin',
        body: { name: '店'.repeat(50), code: 'A-b_' + '9'.repeat(16) },
      });
      expect(res.status).toBe(201);
    });

    it('refuses a duplicate code with 409, whatever its case', async () => {
      for (const code of ['TPE', 'tpe', 'Tpe']) {
        const res = await expectNothingChanged(() =>
          s.api('POST', '/stores', { as: 'admin', body: { name: '另一家台北店', code } }),
        );
        expect(res.status).toBe(409);
        expect(res.body.message).toBe('分店代碼已存在');
      }
    });
  });

  describe('PUT /api/stores/:id', () => {
    it('merges a partial body and answers the whole record, with an audit row', async () => {
      const created = await s.api('POST', '/stores', { as: 'admin', body: { name: '桃園店', code: 'TYN' } });
      const audits = await auditCount();
      // a store outside hq_manage_stores's scope (A and B) is the admin's to change
      const res = await s.api('PUT', `/stores/${created.body.id}`, { as: 'admin', body: { name: '桃園中壢店' } });
      expect(res.status).toBe(200);
      expectStoreShape(res.body);
      expect(res.body).toMatchObject({
        id: created.body.id,
        name: '桃園中壢店',
        code: 'TYN',
        created_at: created.body.created_at,
      });
      expect((await s.api('GET', `/stores/${created.body.id}`, { as: 'branchA' })).body.name).toBe('桃園中壢店');
      expect(await auditCount()).toBe(audits + 1);
      const audit = await s.t
        .db('audit_log')
        .where({ entity: 'store', entity_id: String(created.body.id), action: 'update' });
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0].before).name).toBe('桃園店');
      expect(JSON.parse(audit[0].after).name).toBe('桃園中壢店');
    });

    it('lets a store change the case of its own code', async () => {
      const created = await s.api('POST', '/stores', { as: 'admin', body: { name: '宜蘭店', code: 'ila' } });
      const res = await s.api('PUT', `/stores/${created.body.id}`, { as: 'admin', body: { code: 'ILA' } });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe('ILA');
    });

    it("refuses another store's code with 409, whatever its case", async () => {
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/stores/${s.stores.B.id}`, { as: 'admin', body: { code: 'tpe' } }),
      );
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('分店代碼已存在');
    });

    it('validates the merged record', async () => {
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/stores/${s.stores.B.id}`, { as: 'admin', body: { name: '' } }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'name', message: '請輸入分店名稱' }]);
    });

    it('needs manage_stores (403) and answers 404 for an unknown store', async () => {
      const res = await expectNothingChanged(() =>
        s.api('PUT', `/stores/${s.stores.A.id}`, { as: 'branchA', body: { name: '我的店' } }),
      );
      expect(res.status).toBe(403);
      expect(
        (await expectNothingChanged(() => s.api('PUT', `/stores/${s.stores.A.id}`, { body: { name: '我的店' } })))
          .status,
      ).toBe(401);
      const missing = await s.api('PUT', '/stores/999999', { as: 'admin', body: { name: '無' } });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('找不到分店');
    });
  });

  describe('DELETE /api/stores/:id', () => {
    it('keeps a store that has payments (409)', async () => {
      // Store C has no home users; give it a payment.
      expect(await s.t.db('users').where({ store_id: s.stores.C.id }).first()).toBeUndefined();
      if (!(await s.t.db('payments').where({ store_id: s.stores.C.id }).first())) await pay(s.stores.C.id, '44444');
      const res = await expectNothingChanged(() => s.api('DELETE', `/stores/${s.stores.C.id}`, { as: 'admin' }));
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('此分店仍有匯款記錄或用戶，無法刪除');
      expect((await s.api('GET', `/stores/${s.stores.C.id}`, { as: 'admin' })).status).toBe(200);
    });

    it('keeps a store that is the home of a user (409)', async () => {
      const st = await s.api('POST', '/stores', { as: 'admin', body: { name: '基隆店', code: 'KEL' } });
      const user = await s.api('POST', '/users', {
        as: 'admin',
        body: { username: 'kel_staff', password: PASSWORD, role: 'user', store_id: st.body.id },
      });
      expect(user.status).toBe(201);
      const res = await expectNothingChanged(() => s.api('DELETE', `/stores/${st.body.id}`, { as: 'admin' }));
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('此分店仍有匯款記錄或用戶，無法刪除');
      expect((await s.api('GET', `/stores/${st.body.id}`, { as: 'admin' })).status).toBe(200);
    });

    it("deletes an unused store, answering it, and removes it from users' accessible stores", async () => {
      const st = await s.api('POST', '/stores', { as: 'admin', body: { name: '花蓮店', code: 'HUN' } });
      const id: number = st.body.id;
      const holder = await s.api('POST', '/users', {
        as: 'admin',
        body: {
          username: 'hun_viewer',
          password: PASSWORD,
          role: 'user',
          permissions: ['view_payments'],
          accessible_stores: [s.stores.A.id, id],
        },
      });
      expect(holder.body.accessible_stores).toEqual([s.stores.A.id, id]);
      const audits = await auditCount();

      const res = await s.api('DELETE', `/stores/${id}`, { as: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, name: '花蓮店', code: 'HUN' });
      expect((await s.api('GET', `/stores/${id}`, { as: 'admin' })).status).toBe(404);
      expect((await s.api('GET', '/stores', { as: 'admin' })).body.map((x: any) => x.id)).not.toContain(id);

      const after = await s.api('GET', `/users/${holder.body.id}`, { as: 'admin' });
      expect(after.body.accessible_stores).toEqual([s.stores.A.id]);
      const signIn = await s.api('POST', '/admin/login', { body: { username: 'hun_viewer', password: PASSWORD } });
      const me = await s.api('GET', '/admin/me', { token: signIn.body.token });
      expect(me.body.accessible_stores).toEqual([s.stores.A.id]);
      // The other users' lists are untouched.
      expect((await s.api('GET', '/admin/me', { as: 'hq_view_payments' })).body.accessible_stores).toEqual([
        s.stores.A.id,
        s.stores.B.id,
      ]);

      const audit = await s.t.db('audit_log').where({ entity: 'store', entity_id: String(id), action: 'delete' });
      expect(audit).toHaveLength(1);
      expect(await auditCount()).toBeGreaterThanOrEqual(audits + 1);
    });

    it('needs manage_stores (403), keeping the store', async () => {
      const st = await s.api('POST', '/stores', { as: 'admin', body: { name: '澎湖店', code: 'PEH' } });
      for (const who of ['branchA', 'hq_manage_users', 'hq_system_admin']) {
        const res = await expectNothingChanged(() => s.api('DELETE', `/stores/${st.body.id}`, { as: who }));
        expect(res.status).toBe(403);
      }
      expect((await expectNothingChanged(() => s.api('DELETE', `/stores/${st.body.id}`))).status).toBe(401);
      expect((await s.api('GET', `/stores/${st.body.id}`, { as: 'admin' })).status).toBe(200);
    });

    it('answers 404 for an unknown store', async () => {
      const res = await s.api('DELETE', '/stores/999999', { as: 'admin' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('找不到分店');
    });
  });

  it('answered no request with a 500', () => {
    expect(s.errors).toEqual([]);
  });
});
