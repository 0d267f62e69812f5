/**
 * GET /api/stats/summary: the dashboard (spec section 3) over real payments, checked number by
 * number against figures worked out by hand, with the store filter, Taiwan-date boundaries and
 * the caller's store scope.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Status = '未確認' | '已入帳' | '未入帳';

interface StoreFigures {
  total_payments: number;
  total_amount: number;
  confirmed_payments: number;
  pending_payments: number;
  failed_payments: number;
}

const ZERO: StoreFigures = {
  total_payments: 0,
  total_amount: 0,
  confirmed_payments: 0,
  pending_payments: 0,
  failed_payments: 0,
};

/** The summary without its total by method (each store row keeps its own, checked by `row`; the first test checks the total). */
const exceptByMethod = (body: Record<string, unknown>) => {
  const { byMethod: _byMethod, ...rest } = body;
  return rest;
};

describe.each(DB_KINDS)('GET /api/stats/summary on %s', (kind) => {
  let s: TestServer;
  /** store D: created for this file, never given a payment */
  let D: { id: number; name: string; code: string };

  /** The expected per-store row, with the store's own id, name and code. */
  const row = (store: { id: number; name: string; code: string }, f: StoreFigures) => ({
    store_id: store.id,
    store_name: store.name,
    store_code: store.code,
    ...f,
    // every payment of this file is a transfer
    by_method: {
      匯款: { count: f.total_payments, amount: f.total_amount },
      現金: { count: 0, amount: 0 },
      刷卡: { count: 0, amount: 0 },
      電子支付: { count: 0, amount: 0 },
    },
  });

  const summary = (query: string, as = 'admin') => s.api('GET', `/stats/summary${query}`, { as });

  beforeAll(async () => {
    s = await startTestServer(kind);
    const { A, B, C } = s.stores;
    const created = await s.api('POST', '/stores', { as: 'admin', body: { name: '新竹店', code: 'HSZ' } });
    expect(created.status).toBe(201);
    D = created.body;

    // Taiwan time unless a zone is given. Store C has a payment; store D has none.
    const payments: Array<{ store: number; paid_at: string; amount: number; status: Status }> = [
      { store: A.id, paid_at: '2026-11-18T15:59:00Z', amount: 1000, status: '已入帳' }, // Taiwan 11-18 23:59
      { store: A.id, paid_at: '2026-11-18T16:00:00Z', amount: 2500, status: '未確認' }, // Taiwan 11-19 00:00
      { store: A.id, paid_at: '2026-11-17T10:00', amount: 300, status: '未入帳' },
      { store: B.id, paid_at: '2026-11-18T09:00', amount: 700, status: '已入帳' },
      { store: B.id, paid_at: '2026-11-15T16:00:00Z', amount: 100_000_000, status: '未確認' }, // Taiwan 11-16 00:00
      { store: C.id, paid_at: '2026-11-18T12:00', amount: 9000, status: '未入帳' },
    ];
    for (const [i, p] of payments.entries()) {
      const res = await s.api('POST', '/payments', {
        as: 'admin',
        body: { store_id: p.store, last_five: String(10000 + i), paid_at: p.paid_at, amount: p.amount },
      });
      expect(res.status).toBe(201);
      if (p.status !== '未確認') {
        const put = await s.api('PUT', `/payments/${res.body.uuid}`, { as: 'admin', body: { status: p.status } });
        expect(put.status).toBe(200);
        expect(put.body.status).toBe(p.status);
      }
    }
  });
  afterAll(async () => s?.close());
  afterEach(() => {
    expect(s.errors).toEqual([]);
  });

  it('sums every store for an admin, by status, with stores without payments at zero', async () => {
    const { A, B, C } = s.stores;
    const res = await summary('');
    expect(res.status).toBe(200);
    // toStrictEqual: counts and amounts must be JSON numbers, not strings.
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 4,
      totalPayments: 6,
      totalAmount: 100_013_500,
      confirmedPayments: 2,
      storeStats: [
        row(A, {
          total_payments: 3,
          total_amount: 3800,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 1,
        }),
        row(B, {
          total_payments: 2,
          total_amount: 100_000_700,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 0,
        }),
        row(C, {
          total_payments: 1,
          total_amount: 9000,
          confirmed_payments: 0,
          pending_payments: 0,
          failed_payments: 1,
        }),
        row(D, ZERO),
      ],
    });
    expect(res.body.byMethod).toStrictEqual({
      匯款: { count: 6, amount: 100_013_500 },
      現金: { count: 0, amount: 0 },
      刷卡: { count: 0, amount: 0 },
      電子支付: { count: 0, amount: 0 },
    });
  });

  it('follows a status change at once', async () => {
    const { C } = s.stores;
    const list = await s.api('GET', `/payments?filter=${encodeURIComponent(JSON.stringify({ store_id: C.id }))}`, {
      as: 'admin',
    });
    expect(list.body).toHaveLength(1);
    const uuid = list.body[0].uuid;
    try {
      expect((await s.api('PUT', `/payments/${uuid}`, { as: 'admin', body: { status: '已入帳' } })).status).toBe(200);
      const res = await summary(`?store_id=${C.id}`);
      expect(res.body.confirmedPayments).toBe(1);
      expect(res.body.storeStats).toStrictEqual([
        row(C, {
          total_payments: 1,
          total_amount: 9000,
          confirmed_payments: 1,
          pending_payments: 0,
          failed_payments: 0,
        }),
      ]);
    } finally {
      expect((await s.api('PUT', `/payments/${uuid}`, { as: 'admin', body: { status: '未入帳' } })).status).toBe(200);
    }
  });

  it('narrows to one store with store_id', async () => {
    const { B } = s.stores;
    const res = await summary(`?store_id=${B.id}`);
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 1,
      totalPayments: 2,
      totalAmount: 100_000_700,
      confirmedPayments: 1,
      storeStats: [
        row(B, {
          total_payments: 2,
          total_amount: 100_000_700,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 0,
        }),
      ],
    });
  });

  it('narrows to several stores with store_id=id1,id2', async () => {
    const { A, C } = s.stores;
    const res = await summary(`?store_id=${A.id},${C.id}`);
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 2,
      totalPayments: 4,
      totalAmount: 12_800,
      confirmedPayments: 1,
      storeStats: [
        row(A, {
          total_payments: 3,
          total_amount: 3800,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 1,
        }),
        row(C, {
          total_payments: 1,
          total_amount: 9000,
          confirmed_payments: 0,
          pending_payments: 0,
          failed_payments: 1,
        }),
      ],
    });
  });

  it('a store without payments alone gives zeros everywhere', async () => {
    const res = await summary(`?store_id=${D.id}`);
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 1,
      totalPayments: 0,
      totalAmount: 0,
      confirmedPayments: 0,
      storeStats: [row(D, ZERO)],
    });
  });

  it('counts only payments inside from..to, inclusive Taiwan days', async () => {
    const { A, B, C } = s.stores;
    const res = await summary('?from=2026-11-17&to=2026-11-18');
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 4,
      totalPayments: 4,
      totalAmount: 11_000,
      confirmedPayments: 2,
      storeStats: [
        // 11-18 23:59 and 11-17 10:00 are in; 11-19 00:00 is not
        row(A, {
          total_payments: 2,
          total_amount: 1300,
          confirmed_payments: 1,
          pending_payments: 0,
          failed_payments: 1,
        }),
        // 11-16 00:00 is before the range
        row(B, {
          total_payments: 1,
          total_amount: 700,
          confirmed_payments: 1,
          pending_payments: 0,
          failed_payments: 0,
        }),
        row(C, {
          total_payments: 1,
          total_amount: 9000,
          confirmed_payments: 0,
          pending_payments: 0,
          failed_payments: 1,
        }),
        row(D, ZERO),
      ],
    });
  });

  it('to=2026-11-18 takes 23:59 Taiwan time that day and leaves 00:00 the next day out', async () => {
    const { A } = s.stores;
    const day18 = await summary(`?store_id=${A.id}&from=2026-11-18&to=2026-11-18`);
    expect(day18.status).toBe(200);
    expect(day18.body.storeStats).toStrictEqual([
      row(A, { total_payments: 1, total_amount: 1000, confirmed_payments: 1, pending_payments: 0, failed_payments: 0 }),
    ]);
    const day19 = await summary(`?store_id=${A.id}&from=2026-11-19&to=2026-11-19`);
    expect(day19.status).toBe(200);
    expect(day19.body.storeStats).toStrictEqual([
      row(A, { total_payments: 1, total_amount: 2500, confirmed_payments: 0, pending_payments: 1, failed_payments: 0 }),
    ]);
  });

  it('from alone starts at 00:00 Taiwan time of that day; to alone ends at its last minute', async () => {
    const { B } = s.stores;
    // B's 100 000 000 payment is at 2026-11-16 00:00 Taiwan (2026-11-15 16:00 UTC).
    const from16 = await summary(`?store_id=${B.id}&from=2026-11-16`);
    expect(from16.body.totalPayments).toBe(2);
    expect(from16.body.totalAmount).toBe(100_000_700);
    const from17 = await summary(`?store_id=${B.id}&from=2026-11-17`);
    expect(from17.body.totalPayments).toBe(1);
    expect(from17.body.totalAmount).toBe(700);
    const to15 = await summary(`?store_id=${B.id}&to=2026-11-15`);
    expect(to15.body.storeStats).toStrictEqual([row(B, ZERO)]);
    const to16 = await summary(`?store_id=${B.id}&to=2026-11-16`);
    expect(to16.body.totalPayments).toBe(1);
    expect(to16.body.totalAmount).toBe(100_000_000);
  });

  it('a range with no payments keeps every store, at zero', async () => {
    const { A, B, C } = s.stores;
    const res = await summary('?from=2027-01-01&to=2027-01-31');
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 4,
      totalPayments: 0,
      totalAmount: 0,
      confirmedPayments: 0,
      storeStats: [row(A, ZERO), row(B, ZERO), row(C, ZERO), row(D, ZERO)],
    });
  });

  it('refuses anonymous callers with 401', async () => {
    const res = await s.api('GET', '/stats/summary');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '請先登入', request_id: expect.any(String) });
  });

  it('refuses a user without view_reports with 403', async () => {
    for (const who of ['hq_view_payments', 'hq_none', 'hq_manage_payments']) {
      const res = await summary('', who);
      expect(res.status, who).toBe(403);
      expect(res.body.message, who).toContain('權限不足');
      expect(res.body.message, who).toContain('查看報告');
      expect(JSON.stringify(res.body), who).not.toContain('storeStats');
    }
  });

  it('a headquarters user with view_reports sees only their stores A and B', async () => {
    const { A, B } = s.stores;
    const res = await summary('', 'hq_view_reports');
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 2,
      totalPayments: 5,
      totalAmount: 100_004_500,
      confirmedPayments: 2,
      storeStats: [
        row(A, {
          total_payments: 3,
          total_amount: 3800,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 1,
        }),
        row(B, {
          total_payments: 2,
          total_amount: 100_000_700,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 0,
        }),
      ],
    });
  });

  it('a store outside the scope cannot be asked for with store_id', async () => {
    const { A, C } = s.stores;
    const onlyC = await summary(`?store_id=${C.id}`, 'hq_view_reports');
    expect(onlyC.status).toBe(200);
    expect(exceptByMethod(onlyC.body)).toStrictEqual({
      totalStores: 0,
      totalPayments: 0,
      totalAmount: 0,
      confirmedPayments: 0,
      storeStats: [],
    });
    const aAndC = await summary(`?store_id=${A.id},${C.id}`, 'hq_view_reports');
    expect(aAndC.status).toBe(200);
    expect(aAndC.body.storeStats.map((r: { store_id: number }) => r.store_id)).toEqual([A.id]);
    expect(aAndC.body.totalPayments).toBe(3);
    expect(aAndC.body.totalAmount).toBe(3800);
  });

  it('a branch user sees only their own store', async () => {
    const { A, B } = s.stores;
    const res = await summary('', 'branchA');
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      totalStores: 1,
      totalPayments: 3,
      totalAmount: 3800,
      confirmedPayments: 1,
      storeStats: [
        row(A, {
          total_payments: 3,
          total_amount: 3800,
          confirmed_payments: 1,
          pending_payments: 1,
          failed_payments: 1,
        }),
      ],
    });
    const other = await summary(`?store_id=${B.id}`, 'branchA');
    expect(other.status).toBe(200);
    expect(other.body.storeStats).toEqual([]);
    expect(other.body.totalPayments).toBe(0);

    const b = await summary('', 'branchB');
    expect(b.body.storeStats.map((r: { store_id: number }) => r.store_id)).toEqual([B.id]);
    expect(b.body.totalAmount).toBe(100_000_700);
  });

  it.each([
    ['?from=2026-13-01', 'from', '2026-13-01'],
    ['?from=2026-02-30', 'from', '2026-02-30'],
    ['?from=2026-11-01&to=yesterday', 'to', 'yesterday'],
    ['?to=99999-01-01', 'to', '99999-01-01'],
  ] as const)('answers 400 for the bad date %s, naming the bad parameter', async (query, field, value) => {
    const res = await summary(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('驗證錯誤');
    expect(res.body.errors).toEqual([{ field, message: `日期格式錯誤：${value}（請使用 YYYY-MM-DD）` }]);
  });

  it('answers 400 for a store_id that is not a store id', async () => {
    for (const query of ['?store_id=abc', `?store_id=${s.stores.A.id},abc`, '?store_id=-1']) {
      const res = await summary(query);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toBe('驗證錯誤');
      expect(res.body.errors, query).toHaveLength(1);
      expect(res.body.errors[0].message, query).toMatch(/store_id/);
      expect(res.body.errors[0].message, query).toMatch(/格式錯誤/);
    }
  });
  it('GET /stats/charts: NT$ per store by status and per store per Taiwan day, within the caller’s stores', async () => {
    const { A, B, C } = s.stores;
    const res = await s.api('GET', '/stats/charts?from=2026-11-16&to=2026-11-19', { as: 'admin' });
    expect(res.status).toBe(200);
    expect(exceptByMethod(res.body)).toStrictEqual({
      from: '2026-11-16',
      to: '2026-11-19',
      days: ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'],
      stores: [
        {
          store_id: A.id,
          store_name: A.name,
          store_code: A.code,
          pending_amount: 2500,
          confirmed_amount: 1000,
          failed_amount: 300,
        },
        {
          store_id: B.id,
          store_name: B.name,
          store_code: B.code,
          pending_amount: 100_000_000,
          confirmed_amount: 700,
          failed_amount: 0,
        },
        {
          store_id: C.id,
          store_name: C.name,
          store_code: C.code,
          pending_amount: 0,
          confirmed_amount: 0,
          failed_amount: 9000,
        },
        {
          store_id: D.id,
          store_name: D.name,
          store_code: D.code,
          pending_amount: 0,
          confirmed_amount: 0,
          failed_amount: 0,
        },
      ],
      daily: [
        // 23:59 on the 18th and 00:00 on the 19th (Taiwan) fall on their own days
        { store_id: A.id, amounts: [0, 300, 1000, 2500] },
        { store_id: B.id, amounts: [100_000_000, 0, 700, 0] },
        { store_id: C.id, amounts: [0, 0, 9000, 0] },
        { store_id: D.id, amounts: [0, 0, 0, 0] },
      ],
    });
    // a branch user's charts hold their store only, whatever they ask for
    const branch = await s.api('GET', `/stats/charts?from=2026-11-16&to=2026-11-19&store_id=${B.id}`, {
      as: 'branchA',
    });
    expect(branch.status).toBe(200);
    expect(branch.body.stores.map((x: { store_id: number }) => x.store_id)).toEqual([]);
    const own = await s.api('GET', '/stats/charts?from=2026-11-18&to=2026-11-18', { as: 'branchA' });
    expect(own.body.daily).toStrictEqual([{ store_id: A.id, amounts: [1000] }]);
    // the same permission and date rules as the summary
    expect((await s.api('GET', '/stats/charts', { as: 'hq_none' })).status).toBe(403);
    expect((await s.api('GET', '/stats/charts?from=2026-11-19&to=2026-11-16', { as: 'admin' })).status).toBe(400);
    expect(
      (await s.api('GET', '/stats/charts?from=2024-01-01&to=2026-11-16', { as: 'admin' })).body.errors[0].message,
    ).toBe('圖表最多顯示 366 天，請縮小日期範圍');
    // no range: the last 30 days up to today
    const recent = await s.api('GET', '/stats/charts', { as: 'admin' });
    expect(recent.body.days).toHaveLength(30);
  });
});
