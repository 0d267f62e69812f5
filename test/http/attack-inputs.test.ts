/**
 * Issue 10, items 12 and 13: hostile list and id inputs answer 4xx, never 500, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { startTestServer, listParams, type TestServer } from '../helpers/server.js';

const LISTS = ['/payments', '/users', '/stores', '/audit', `/stores/1/payments`];
const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];
const HUGE = 2_147_483_648;

describe.each(DB_KINDS)('hostile inputs on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => {
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
      ['POST', '/payments', { last_five: '01234', paid_at: '2026-11-18T09:15', amount: 1500, note: '', store_id: HUGE }],
      ['POST', '/users', { username: 'huge1', password: 'secret123', role: 'user', permissions: [], store_id: HUGE }],
      ['PUT', `/users/${s?.users?.hq_none?.id ?? 1}`, { accessible_stores: [HUGE] }],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.api(method, path, { as: 'admin', body });
      expect([400, 404], `${method} ${path}`).toContain(res.status);
      expect(res.body.message, `${method} ${path}`).toBeTruthy();
    }
    expect(s.errors).toEqual([]);
  });
});
