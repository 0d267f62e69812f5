/**
 * One date-range rule at every edge of the API: a start after the end is
 * refused with 400 and the same Traditional Chinese sentence (the field error of the usual
 * `{ message: '驗證錯誤', errors }` answer) by the payments list, the export,
 * the dashboard figures, the audit log and the reconciliation proposals, never an empty answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

const MESSAGE = '開始日期（2026-11-12）不能晚於結束日期（2026-11-10）';

describe.each(DB_KINDS)('a reversed date range through the API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
    const paid = await s.api('POST', '/payments', {
      as: 'admin',
      body: { store_id: s.stores.A.id, last_five: '12345', paid_at: '2026-11-10T10:00', amount: 1500 },
    });
    expect(paid.status).toBe(201);
  });
  afterAll(() => s?.close());

  const paymentsFilter = { filter: { paid_at_gte: '2026-11-12', paid_at_lte: '2026-11-10' } };
  const edges: Array<[string, string]> = [
    ['the payments list', `/payments${listParams(paymentsFilter)}`],
    ['the export', `/payments/export${listParams(paymentsFilter)}&format=csv`],
    ['the dashboard figures', '/stats/summary?from=2026-11-12&to=2026-11-10'],
    ['the audit log', `/audit${listParams({ filter: { at_gte: '2026-11-12', at_lte: '2026-11-10' } })}`],
    ['the reconciliation proposals', '/reconcile/proposals?from=2026-11-12&to=2026-11-10'],
  ];

  it.each(edges)('%s answers 400 with the one message', async (_what, path) => {
    const r = await s.api('GET', path, { as: 'admin' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('驗證錯誤');
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual([MESSAGE]);
  });

  it('the same day at both ends is one day, not a refusal', async () => {
    for (const [, path] of edges) {
      const same = path.replaceAll('2026-11-12', '2026-11-10');
      expect((await s.api('GET', same, { as: 'admin' })).status, same).toBe(200);
    }
  });
});

/**
 * `/api/stats/charts?from=9999-12-01&to=9999-12-31` answered 500 (RangeError:
 * not a date: 10000-01-01). Every date parameter outside 2000-01-01 to 2099-12-31 is a 400 with
 * one Chinese sentence naming the value, at every edge that takes dates.
 */
describe.each(DB_KINDS)('a date out of range through the API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(() => s?.close());

  const edges = (from: string, to: string): Array<[string, string]> => [
    ['the charts', `/stats/charts?from=${from}&to=${to}`],
    ['the dashboard figures', `/stats/summary?from=${from}&to=${to}`],
    ['the payments list', `/payments${listParams({ filter: { paid_at_gte: from, paid_at_lte: to } })}`],
    [
      'a store’s payments',
      `/stores/${s.stores.A.id}/payments${listParams({ filter: { paid_at_gte: from, paid_at_lte: to } })}`,
    ],
    ['the export', `/payments/export${listParams({ filter: { paid_at_gte: from, paid_at_lte: to } })}&format=csv`],
    ['the audit log', `/audit${listParams({ filter: { at_gte: from, at_lte: to } })}`],
    ['the reconciliation proposals', `/reconcile/proposals?from=${from}&to=${to}`],
    ['the statement lines', `/reconcile/lines${listParams({ filter: { at_gte: from, at_lte: to } })}`],
  ];
  const cases: Array<[string, string, string]> = [
    ['9999-12-01', '9999-12-31', '9999-12-01'],
    ['2026-11-01', '9999-12-31', '9999-12-31'],
    ['1999-12-31', '2026-11-01', '1999-12-31'],
    ['0999-01-01', '2026-11-01', '0999-01-01'],
    ['2026-11-01', '2100-01-01', '2100-01-01'],
    ['2026-11-01T00:00', '9999-12-31T23:59', '9999-12-31T23:59'],
  ];

  it.each(cases)('%s to %s is 400 with a Chinese sentence everywhere, never 500', async (from, to, bad) => {
    for (const [what, path] of edges(from, to)) {
      const r = await s.api('GET', path, { as: 'admin' });
      expect([what, r.status, r.body.errors?.map((e: { message: string }) => e.message)]).toEqual([
        what,
        400,
        [`日期超出範圍：${bad}（請輸入 2000-01-01 到 2099-12-31 之間的日期）`],
      ]);
    }
    expect(s.errors).toEqual([]);
  });

  it('the first and last accepted days are answered', async () => {
    for (const [what, path] of edges('2000-01-01', '2099-12-31')) {
      if (what === 'the charts' || what === 'the export') continue; // a century of days, or nothing to export
      expect([what, (await s.api('GET', path, { as: 'admin' })).status]).toEqual([what, 200]);
    }
  });
});
