/**
 * Submissions that are probably mistakes: the same report twice is
 * held back with the earlier tracking number until the submitter confirms, also when the two
 * arrive at once on two API instances sharing one database; a time over a day ahead is refused.
 */
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/index.js';
import { createTestDb, DB_KINDS, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';
import { listenApi, type Listening } from '../helpers/server.js';

describe.each(DB_KINDS)('submissions that are probably mistakes on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let secondDb: Knex;
  let one: Listening;
  let two: Listening;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    // Two API instances, each with its own connections, like two servers behind a load balancer.
    secondDb = openDatabase(t.config);
    one = await listenApi({ db: t.db });
    two = await listenApi({ db: secondDb });
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await secondDb?.destroy();
    await t?.cleanup();
  });
  beforeEach(async () => {
    await t.db('payments').delete();
  });

  const submit = async (body: Record<string, unknown>, via = one, as = 'branchA') => {
    const res = await fetch(`${via.url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.tokens[as]}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const pay = (over: Record<string, unknown> = {}) => ({
    last_five: '01234',
    paid_at: '2026-11-18T09:15',
    amount: 1500,
    note: '',
    store_id: f.stores.A.id,
    ...over,
  });
  const count = async () => Number(((await t.db('payments').count({ n: '*' }).first()) as any).n);

  it('holds back the same report a second time with the earlier tracking number, and stores it when confirmed', async () => {
    const first = await submit(pay());
    expect(first.status).toBe(201);
    const again = await submit(pay({ note: '又送一次' }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: `可能重複：同一分店已有相同後五碼、時間與金額的匯款，追蹤編號：${first.body.uuid}`,
      request_id: expect.any(String),
      duplicate_of: first.body.uuid,
    });
    expect(await count()).toBe(1);
    // a different amount, time, last five or store is another payment
    expect((await submit(pay({ amount: 1501 }))).status).toBe(201);
    expect((await submit(pay({ paid_at: '2026-11-18T09:16' }))).status).toBe(201);
    expect((await submit(pay({ store_id: f.stores.B.id }), one, 'admin')).status).toBe(201);
    const confirmed = await submit(pay({ confirm_duplicate: true }));
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.uuid).not.toBe(first.body.uuid);
    expect(await count()).toBe(5);
  });

  it('two identical reports at once on two instances: one stored, the other told which one it repeats', async () => {
    for (let round = 0; round < 5; round++) {
      const body = pay({ last_five: `5555${round}` });
      const answers = await Promise.all([submit(body, one), submit(body, two), submit(body, one), submit(body, two)]);
      const stored = answers.filter((a) => a.status === 201);
      expect(stored).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status).toBe(409);
        expect(a.body.duplicate_of).toBe(stored[0].body.uuid);
      }
    }
    expect(await count()).toBe(5);
  });

  it('refuses a payment time more than a day ahead, and takes one a few hours ahead', async () => {
    const inAYear = new Date(Date.now() + 366 * 86_400_000).toISOString();
    const r = await submit(pay({ paid_at: inAYear }));
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'paid_at', message: '匯款時間不能晚於現在超過一天，請確認日期與時間' }]);
    expect((await submit(pay({ paid_at: new Date(Date.now() + 3 * 3_600_000).toISOString() }))).status).toBe(201);
    expect(await count()).toBe(1);
  });
});
