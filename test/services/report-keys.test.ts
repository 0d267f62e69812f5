/**
 * A customer's report attempts by their key, at the payment writer (core/payments/write.ts): sends
 * arriving together are written in one transaction (group commit), so the same key may come twice
 * in one batch; the HTTP tests (test/http/public-links.test.ts) cover sends to two instances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../core/index.js';
import { linkActor } from '../../core/actor.js';
import { submitPayment } from '../../core/payments/write.js';
import { reportFingerprint } from '../../core/payments/reportKeys.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';

describe.each(DB_KINDS)('report attempts by key on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
  });
  afterAll(async () => t?.cleanup());

  const through = (linkId: number) => ({
    db: t.db,
    security: TEST_SECURITY,
    actor: linkActor({ id: linkId, storeId: f.stores.A.id, storeCode: 'TPE' }),
    ip: null,
  });
  const fields = (amount: number) => ({
    store_id: f.stores.A.id,
    last_five: '54321',
    paid_at: Date.UTC(2026, 9, 3, 1, 0) + amount * 60_000 * 30,
    amount,
    note: '',
  });
  const send = (linkId: number, key: string, amount: number) =>
    submitPayment(through(linkId), fields(amount), {
      allowDuplicate: false,
      nearWindowMs: 10 * 60_000,
      reportKey: { linkId, key, fingerprint: reportFingerprint(fields(amount)) },
    });

  it('one batch: the second send of a key is answered by the first, one with other fields is refused, another link\u2019s same key is its own', async () => {
    const key = randomBytes(16).toString('hex');
    // pushed in one tick: one batch, one transaction
    const answers = await Promise.allSettled([
      send(1, key, 100),
      send(1, key, 100),
      send(1, key, 200),
      send(2, key, 300),
    ]);
    const [first, again, changed, otherLink] = answers;
    expect(first.status).toBe('fulfilled');
    const stored = (first as PromiseFulfilledResult<{ uuid: string }>).value.uuid;
    expect(again).toEqual({ status: 'fulfilled', value: { replayOf: stored } });
    expect(changed.status).toBe('rejected');
    expect((changed as PromiseRejectedResult).reason).toBeInstanceOf(ValidationError);
    expect((changed as PromiseRejectedResult).reason.code).toBe('client_key_reused');
    expect(otherLink.status).toBe('fulfilled');
    expect((otherLink as PromiseFulfilledResult<{ uuid: string }>).value.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      Number(((await t.db('payments').where({ last_five: '54321' }).count({ n: '*' }).first()) as { n: string }).n),
    ).toBe(2);
    const kept = await t
      .db('public_report_keys')
      .where({ client_key: key })
      .orderBy('link_id')
      .select('link_id', 'payment_uuid');
    expect(
      kept.map((r: { link_id: number | string; payment_uuid: string }) => [Number(r.link_id), r.payment_uuid]),
    ).toEqual([
      [1, stored],
      [2, (otherLink as PromiseFulfilledResult<{ uuid: string }>).value.uuid],
    ]);
    // later, alone: the same answer from the stored key
    expect(await send(1, key, 100)).toEqual({ replayOf: stored });
  });
});
