/**
 * `GET /api/reconcile/proposals?from=2000-01-01&to=2099-12-31` over a year of
 * 12 000 payments and lines answered after 6.7 s with 51 MB while /api/health waited 3.4 s. The
 * period is narrowed to what the statements can explain and bounded to a year, the answer is
 * paged, and the matcher runs on a bounded pool of worker threads: other requests are answered
 * while it works, and past the queue the answer is 503 with Retry-After. On PostgreSQL the same
 * on two API instances sharing the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../core/index.js';
import { matchPoolFor, type MatchingSettings } from '../../core/reconcile/matchPool.js';
import { DB_KINDS } from '../helpers/db.js';
import { seedReconcile } from '../helpers/reconcileYear.js';
import { listenApi, startTestServer, type Listening, type TestServer } from '../helpers/server.js';

const get = (base: string, path: string, token: string) =>
  fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: await r.json(),
  }));

describe.each(DB_KINDS)('reconciliation proposals bounded, paged and off the main thread on %s', (kind) => {
  let s: TestServer;
  let seeded: { reports: number; lines: number; from: number; to: number };
  beforeAll(async () => {
    s = await startTestServer(kind);
    seeded = await seedReconcile(s.t.db, { storeId: s.stores.A.id, months: 3 });
  }, 120_000);
  afterAll(() => s?.close());

  it('a century asked is narrowed to what the statements can explain: the same answer as that period, by a view_payments user', async () => {
    const wide = await s.api('GET', '/reconcile/proposals?from=2000-01-01&to=2099-12-31', { as: 'hq_view_payments' });
    expect(wide.status).toBe(200);
    const { period } = wide.body.page;
    // the statement's first day less the window after a report, to its last day plus the window before
    expect(period.from < new Date(seeded.from + 8 * 3600_000).toISOString().slice(0, 10)).toBe(true);
    expect(period.to > new Date(seeded.to + 8 * 3600_000).toISOString().slice(0, 10)).toBe(true);
    const exact = await s.api('GET', `/reconcile/proposals?from=${period.from}&to=${period.to}`, {
      as: 'hq_view_payments',
    });
    expect(exact.body).toEqual(wide.body);
    expect(wide.body.page.total.auto).toBeGreaterThan(1000);
  });

  it('pages each queue: 200 by default, limit and offset as asked, totals for all; bad values are 400', async () => {
    const q = '/reconcile/proposals?from=2000-01-01&to=2099-12-31';
    const first = await s.api('GET', q, { as: 'admin' });
    expect(first.body.page).toMatchObject({ offset: 0, limit: 200 });
    expect(first.body.auto).toHaveLength(200);
    const a = await s.api('GET', `${q}&limit=3`, { as: 'admin' });
    const b = await s.api('GET', `${q}&limit=3&offset=3`, { as: 'admin' });
    expect(a.body.auto.map((x: any) => x.payment.uuid)).toEqual(
      first.body.auto.slice(0, 3).map((x: any) => x.payment.uuid),
    );
    expect(b.body.auto.map((x: any) => x.payment.uuid)).toEqual(
      first.body.auto.slice(3, 6).map((x: any) => x.payment.uuid),
    );
    expect(a.body.page.total).toEqual(first.body.page.total);
    expect(a.text.length).toBeLessThan(first.text.length / 10);
    for (const bad of ['limit=0', 'limit=2001', 'limit=abc', 'offset=-1', 'offset=1.5']) {
      const r = await s.api('GET', `${q}&${bad}`, { as: 'admin' });
      expect([bad, r.status]).toEqual([bad, 400]);
      expect(r.body.errors[0].message).toMatch(/必須是 0 到 \d+ 之間的整數/);
    }
  });

  it('more than a year of statement days in the period is refused with a Chinese sentence; a year is answered', async () => {
    // a second statement of the same store, a year and a half later, widens what the statements cover
    await seedReconcile(s.t.db, { storeId: s.stores.A.id, months: 1, seed: 7, tag: 'later' });
    await s.t
      .db('bank_lines')
      .whereIn('statement_id', s.t.db('bank_statements').where({ file: 'later.csv' }).select('id'))
      .update({ at: s.t.db.raw('at + ?', [540 * 86_400_000]) });
    const wide = await s.api('GET', '/reconcile/proposals?from=2000-01-01&to=2099-12-31', { as: 'admin' });
    expect(wide.status).toBe(400);
    expect(wide.body.errors[0].message).toMatch(
      /^對帳期間太長：要對帳的期間內，銀行明細從 \d{4}-\d{2}-\d{2} 到 \d{4}-\d{2}-\d{2} 共 \d+ 天，一次最多 366 天（一年）/,
    );
    const from = new Date(seeded.from + 8 * 3600_000).toISOString().slice(0, 10);
    const yearLater = new Date(seeded.from + 8 * 3600_000 + 365 * 86_400_000).toISOString().slice(0, 10);
    expect((await s.api('GET', `/reconcile/proposals?from=${from}&to=${yearLater}`, { as: 'admin' })).status).toBe(200);
    await s.t
      .db('bank_lines')
      .whereIn('statement_id', s.t.db('bank_statements').where({ file: 'later.csv' }).select('id'))
      .delete();
    await s.t.db('bank_statements').where({ file: 'later.csv' }).delete();
    await s.t.db('payments').where('uuid', 'like', 'later-%').delete();
  });

  describe('on a pool of one thread and a queue of one', () => {
    const settings: MatchingSettings = { threads: 1, queue: 1 };
    const pool = matchPoolFor(settings);
    let api: Listening;
    let other: Listening;
    beforeAll(async () => {
      api = await listenApi({ db: s.t.db, matching: settings });
      // a second instance on the same database (PostgreSQL: as behind a load balancer), with its own pool
      other = await listenApi({ db: s.t.db, matching: { threads: 1, queue: 2 } });
    });
    afterAll(async () => {
      await api?.close();
      await other?.close();
    });
    const year = '/reconcile/proposals?from=2000-01-01&to=2099-12-31&limit=50';

    it('answers other requests while a match runs, queues one more, and refuses the next with 503, Retry-After and a message', async () => {
      const token = s.tokens.admin;
      const running = get(api.url, year, token);
      await expect.poll(() => pool.load.running, { timeout: 60_000, interval: 5 }).toBe(1);
      // the event loop is free: health, a payment list and a sign-in check answer while it matches
      const health = await get(api.url, '/health', token);
      const list = await get(api.url, '/payments?range=[0,9]', token);
      expect([health.status, list.status, pool.load.running]).toEqual([200, 200, 1]);
      const queued = get(api.url, year, token);
      await expect.poll(() => pool.load.waiting, { timeout: 60_000, interval: 5 }).toBe(1);
      const refused = await get(api.url, year, token);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.message).toBe(MSG.reconcileBusy);
      const [a, b] = await Promise.all([running, queued]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.body).toEqual(a.body);
      expect(pool.load).toEqual({ running: 0, waiting: 0 });
      expect(s.errors).toEqual([]);
    });

    it('two instances on one database give the same pages', async () => {
      const token = s.tokens.hq_view_payments;
      const [a, b] = await Promise.all([
        get(api.url, `${year}&offset=50`, token),
        get(other.url, `${year}&offset=50`, token),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.body).toEqual(a.body);
      expect(a.body.auto).toHaveLength(50);
    });
  });
});
