/**
 * One date-range rule at every edge of the API (issue 11, item 3): a start after the end is
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
    const paid = await s.api('POST', '/payments', { as: 'admin', body: { store_id: s.stores.A.id, last_five: '12345', paid_at: '2026-11-10T10:00', amount: 1500 } });
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
