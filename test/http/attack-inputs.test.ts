/**
 * hostile list and id inputs answer 4xx, never 500, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { secondInstance, startTestServer, listParams, type TestServer } from '../helpers/server.js';

const LISTS = ['/payments', '/users', '/stores', '/audit', `/stores/1/payments`, '/reconcile/lines'];
const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
const HUGE = 2_147_483_648;

describe.each(DB_KINDS)('hostile inputs on %s', (kind) => {
  let s: TestServer;
  let two: Awaited<ReturnType<typeof secondInstance>>;
  beforeAll(async () => {
    s = await startTestServer(kind);
    two = await secondInstance(s);
  });
  afterAll(async () => {
    await two?.close();
    await s?.close();
  });

  it('a sort on an inherited key (constructor, __proto__, ...) is refused as an unknown field on every list', async () => {
    for (const list of LISTS) {
      for (const key of PROTO_KEYS) {
        const res = await s.api('GET', `${list}${listParams({ sort: [key, 'ASC'] })}`, { as: 'admin' });
        expect(res.status, `${list} ${key}`).toBe(400);
        expect(res.body.message).toBeTruthy();
      }
    }
    expect(s.errors).toEqual([]);
  });

  it('an id above 2147483647 is a 404 or a 400 with a message, never a 500', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/payments/${HUGE}`],
      ['GET', `/stores/${HUGE}`],
      ['PUT', `/stores/${HUGE}`, { name: 'x' }],
      ['DELETE', `/stores/${HUGE}`],
      ['GET', `/stores/${HUGE}/payments`],
      ['GET', `/users/${HUGE}`],
      ['PUT', `/users/${HUGE}`, { is_active: false }],
      ['DELETE', `/users/${HUGE}`],
      ['GET', `/payments${listParams({ filter: { store_id: HUGE } })}`],
      ['GET', `/users${listParams({ filter: { store_id: HUGE } })}`],
      ['GET', `/stats/summary?store_id=${HUGE}`],
      [
        'POST',
        '/payments',
        { last_five: '01234', paid_at: '2026-11-18T09:15', amount: 1500, note: '', store_id: HUGE },
      ],
      [
        'POST',
        '/users',
        { username: 'huge1', password: 'shop-key-4821', role: 'user', permissions: [], store_id: HUGE },
      ],
      ['PUT', `/users/${s?.users?.hq_none?.id ?? 1}`, { accessible_stores: [HUGE] }],
      ['GET', `/reconcile/lines${listParams({ filter: { id: [HUGE] } })}`],
      ['GET', `/reconcile/proposals?from=2026-11-01&to=2026-11-30&store_id=${HUGE}`],
      ['POST', '/reconcile/confirm', { pairs: [{ payment: 'no-such-payment', line: HUGE }] }],
    ];
    // On PostgreSQL, each call goes to both of two API instances sharing the database.
    const second = (method: string, path: string, body: unknown) =>
      fetch(`${two.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${s.tokens.admin}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    for (const [method, path, body] of calls) {
      for (const res of [await s.api(method, path, { as: 'admin', body }), await second(method, path, body)]) {
        expect([400, 404], `${method} ${path}`).toContain(res.status);
        expect(res.body.message, `${method} ${path}`).toBeTruthy();
      }
    }
    expect(s.errors).toEqual([]);
  });
});
