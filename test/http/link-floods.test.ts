/**
 * A flood through a store's public link, from the back office's side: it is named with its counts
 * (the reports it stored, the sends the link's day budget refused), its reports are found by link
 * and time, and they are removed in one action, audited, sparing what staff already decided and
 * what came before. Two removals (or two batch deletes) sent at once to two instances remove and
 * audit each payment once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, openDatabase, systemActor } from '../../core/index.js';
import type { SecuritySettings } from '../../core/context.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';
import { listenApi, listParams, type Listening } from '../helpers/server.js';

const SECURITY: SecuritySettings = {
  ...TEST_SECURITY,
  publicLinks: { limits: { perAddressMinute: 5, perAddressDay: 30, perLinkDay: 12 } },
};

describe.each(DB_KINDS)('a flood through a public link, in the back office, on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let second: ReturnType<typeof openDatabase>;
  let one: Listening;
  let two: Listening;
  const errors: unknown[] = [];
  let n = 0;

  async function call(
    base: Listening,
    method: string,
    path: string,
    opts: { body?: unknown; as?: string; from?: string } = {},
  ) {
    const headers: Record<string, string> = { 'x-forwarded-for': opts.from ?? '198.51.100.1' };
    if (opts.as) headers.authorization = `Bearer ${f.tokens[opts.as]}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base.url}/api${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }
  /** a report of its own, from an address (and a /24) of its own */
  const send = (base: Listening, token: string) => {
    n++;
    return call(base, 'POST', `/public/links/${token}/reports`, {
      body: { last_five: String(20000 + n), paid_at: '2026-11-20T10:00', amount: 300 + n, note: '' },
      from: `10.9.${n}.1`,
    });
  };

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    second = openDatabase(t.config);
    one = await listenApi({ db: t.db, security: SECURITY, trustProxy: true, errors });
    two = await listenApi({ db: second, security: SECURITY, trustProxy: true, errors });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await second?.destroy();
    await t?.cleanup();
  });

  it('names the flooded store with its counts, finds its reports by link and time, and removes them once, audited, keeping what staff decided', async () => {
    const store = await createStore(
      { db: t.db, security: SECURITY, actor: systemActor('test'), ip: null },
      { name: '洪水店', code: 'FLD' },
    );
    const link = (await call(one, 'GET', `/stores/${store.id}/link`, { as: 'admin' })).body.url as string;
    const token = link.slice(link.lastIndexOf('/') + 1);

    // a real customer's report, before the flood; then nothing is flooded yet (1 of a threshold of 3)
    const real = await send(one, token);
    expect(real.status).toBe(201);
    expect((await call(one, 'GET', '/links/floods', { as: 'admin' })).body).toEqual([]);
    const staff = await call(one, 'POST', '/payments', {
      as: 'admin',
      body: { last_five: '55555', paid_at: '2026-11-20T10:00', amount: 999, store_id: store.id },
    });
    expect(staff.status).toBe(201);
    const realAt = Number((await t.db('payments').where({ uuid: real.body.tracking }).first()).created_at);
    while (Date.now() <= realAt + 1) await new Promise((r) => setTimeout(r, 5));
    const floodFrom = new Date().toISOString();

    // the flood: 14 sends from 14 networks over two instances; the link's day holds 11 more
    const flood = await Promise.all(Array.from({ length: 14 }, (_, i) => send(i % 2 ? two : one, token)));
    expect(flood.filter((a) => a.status === 201)).toHaveLength(11);
    expect(flood.filter((a) => a.status === 429)).toHaveLength(3);

    // the notice's figures, for whoever sees that store, on either instance; a branch user of another store sees none
    for (const base of [one, two]) {
      const floods = await call(base, 'GET', '/links/floods', { as: 'admin' });
      expect(floods.status).toBe(200);
      expect(floods.body).toEqual([{ store_id: store.id, reports: 12, refused: 3, since: expect.any(String) }]);
    }
    expect((await call(one, 'GET', '/links/floods', { as: 'branchA' })).body).toEqual([]);
    expect((await call(one, 'GET', '/links/floods', { as: 'hq_none' })).status).toBe(403);

    // staff decided on one flood report: it stays
    const decided = flood.find((a) => a.status === 201)!.body.tracking as string;
    expect((await call(one, 'PUT', `/payments/${decided}`, { as: 'admin', body: { status: '已入帳' } })).status).toBe(
      200,
    );

    // found by link and time: the store's customer reports received since the flood began
    const found = await call(
      one,
      'GET',
      `/payments${listParams({ filter: { store_id: [store.id], source: 'customer', received_gte: floodFrom }, range: [0, 99] })}`,
      { as: 'admin' },
    );
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(11);
    expect(found.body.map((p: any) => p.uuid)).not.toContain(real.body.tracking);

    // without 刪除匯款: refused before anything is read or removed
    expect(
      (
        await call(one, 'POST', `/stores/${store.id}/link/reports/remove`, {
          as: 'hq_view_payments',
          body: { from: floodFrom },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(one, 'POST', `/stores/${store.id}/link/reports/remove`, { as: 'admin', body: {} })).body,
    ).toMatchObject({ message: '驗證錯誤' });

    // removed in one action, sent twice at once to two instances: each report removed once
    const auditBefore = Number(
      (await t.db('audit_log').where({ action: 'delete', entity: 'payment' }).count({ n: '*' }).first())!.n,
    );
    const removals = await Promise.all(
      [one, two].map((base) =>
        call(base, 'POST', `/stores/${store.id}/link/reports/remove`, { as: 'admin', body: { from: floodFrom } }),
      ),
    );
    expect(removals.map((r) => r.status)).toEqual([200, 200]);
    expect(removals.map((r) => r.body.removed).reduce((a, b) => a + b, 0)).toBe(10);
    const left = (await t.db('payments').where({ store_id: store.id }).orderBy('created_at').select('uuid')).map(
      (p: any) => p.uuid,
    );
    expect(left.sort()).toEqual([real.body.tracking, staff.body.uuid, decided].sort());
    expect(
      Number((await t.db('audit_log').where({ action: 'delete', entity: 'payment' }).count({ n: '*' }).first())!.n),
    ).toBe(auditBefore + 10);
    const summary = await t
      .db('audit_log')
      .where({ entity: 'store', entity_id: String(store.id) })
      .whereRaw("after like '%reports_removed%'")
      .select('after');
    expect(summary.map((s: any) => JSON.parse(s.after).removed).reduce((a: number, b: number) => a + b, 0)).toBe(10);
    expect(errors).toEqual([]);
  });

  it('a batch delete sent twice at once to two instances deletes and audits each payment once', async () => {
    const now = Date.now();
    const rows = Array.from({ length: 300 }, (_, i) => ({
      uuid: `batch-${i}`,
      store_id: f.stores.A.id,
      last_five: String(41000 + i),
      paid_at: now - i * 60_000,
      amount: 70 + i,
      status: '未確認',
      note: '',
      created_by: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 100) await t.db('payments').insert(rows.slice(i, i + 100));
    const made = rows.map((r) => r.uuid);
    const before = Number(
      (await t.db('audit_log').where({ action: 'delete', entity: 'payment' }).count({ n: '*' }).first())!.n,
    );
    const answers = await Promise.all(
      [one, two].map((base) => call(base, 'DELETE', '/payments', { as: 'admin', body: { uuids: made } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.deleted).reduce((x, y) => x + y, 0)).toBe(300);
    expect(
      Number((await t.db('audit_log').where({ action: 'delete', entity: 'payment' }).count({ n: '*' }).first())!.n),
    ).toBe(before + 300);
  });
});
