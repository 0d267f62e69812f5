import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(DB_KINDS)('smoke on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());

  it('creates a payment and lists it', async () => {
    const created = await s.api('POST', '/payments', { as: 'admin', body: { last_five: '01234', paid_at: '2026-11-20T10:00', amount: 1500, store_id: s.stores.A.id } });
    expect(created.status).toBe(201);
    const list = await s.api('GET', '/payments', { as: 'admin' });
    expect(list.status).toBe(200);
    expect(list.body.map((p: any) => p.uuid)).toEqual([created.body.uuid]);
    expect(list.headers.get('content-range')).toBe('payments 0-0/1');
  });
});
