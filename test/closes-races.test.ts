/**
 * the daily close racing, with three API instances sharing one database (as
 * test/races.test.ts starts them), on SQLite and on PostgreSQL. Each round fires the conflicting
 * requests at once and checks what a person would: one close stored and the other told; a cash
 * entry written while its day is being closed is either in the close or refused with a message,
 * never lost or silently outside; no 5xx.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, parseInstant } from '../core/index.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';
import { seed, type Fixture } from './helpers/fixtures.js';
import { listenApi, type Listening } from './helpers/server.js';

const ROUNDS = 6;

describe.each(DB_KINDS)('closes racing between API instances on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let nodes: Listening[];
  const errors: unknown[] = [];

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    nodes = await Promise.all([0, 1, 2].map(() => listenApi({ db: t.db, errors })));
  }, 60_000);
  afterAll(async () => {
    for (const n of nodes ?? []) await n.close();
    await t?.cleanup();
  });

  async function call(
    i: number,
    method: string,
    path: string,
    body: unknown,
    as: string,
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(`${nodes[i % nodes.length].url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${f.tokens[as]}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  it('two closes of one store and day at once: one is stored, the other is told it is closed already', async () => {
    const C = f.stores.C.id;
    for (let round = 0; round < ROUNDS; round++) {
      const date = addDays('2026-10-01', round);
      const body = { store_id: C, date, counted: 1000 + round, ...(round === 0 ? { opening: 1000 } : {}) };
      const [a, b] = await Promise.all([
        call(0, 'POST', '/closes', body, 'admin'),
        call(1, 'POST', '/closes', { ...body, counted: 2000 }, 'admin'),
      ]);
      expect([a.status, b.status].sort(), `round ${round}`).toEqual([201, 409]);
      const lost = a.status === 409 ? a : b;
      const won = a.status === 201 ? a : b;
      expect(lost.body.message).toMatch(new RegExp(`^高雄店 \\(KHH\\) ${date} 已經結帳（admin，`));
      const rows = await t.db('day_closes').where({ store_id: C, date });
      expect(rows.length).toBe(1);
      expect(Number(rows[0].counted)).toBe(won.body.counted);
      expect(
        await t
          .db('audit_log')
          .where({ entity: 'day_close', action: 'close', entity_id: String(rows[0].id) })
          .count({ n: '*' })
          .first()
          .then((r) => Number(r?.n)),
      ).toBe(1);
    }
    expect(errors).toEqual([]);
  });

  it('a cash-out entry written while its day is being closed is in the close or refused with a message, never outside', async () => {
    const A = f.stores.A.id;
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS * 2; round++) {
      const date = addDays('2026-09-01', round);
      const entry = { store_id: A, kind: '店內支出', category: '雜支', amount: 100 + round, at: `${date}T12:00` };
      const close = { store_id: A, date, counted: 0, ...(round === 0 ? { opening: 0 } : {}) };
      // alternate which request leaves first, on which instance
      const [cash, closed] =
        round % 2
          ? await Promise.all([
              call(round, 'POST', '/cash-out', entry, 'branchA'),
              call(round + 1, 'POST', '/closes', close, 'admin'),
            ])
          : await Promise.all([
              call(round + 1, 'POST', '/closes', close, 'admin').then((r) => r),
              call(round, 'POST', '/cash-out', entry, 'branchA'),
            ]).then(([c, e]) => [e, c]);
      expect(closed.status, JSON.stringify(closed.body)).toBe(201);
      const stored = await t.db('cash_out').where({ store_id: A, amount: entry.amount });
      if (cash.status === 201) {
        // written first: counted by the close
        expect(stored.length).toBe(1);
        expect(closed.body.cash_out, `round ${round}`).toBe(entry.amount);
        outcomes.add('in the close');
      } else {
        // the close first: refused, with the reason, and nothing stored
        expect(cash.status).toBe(409);
        expect(cash.body.message).toBe(
          `台北店 (TPE) ${date} 已日結，當天的現金收支已鎖定：需要「匯款管理」權限才能新增、修改或刪除（或請主管重新開帳）`,
        );
        expect(stored.length).toBe(0);
        expect(closed.body.cash_out).toBe(0);
        outcomes.add('refused');
      }
    }
    // both orders happen in practice; each was checked above whichever it was
    expect(outcomes.size).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
  });

  it('a cash payment written while its day is being closed is in the close or refused with a message, never outside', async () => {
    const B = f.stores.B.id;
    for (let round = 0; round < ROUNDS; round++) {
      const date = addDays('2026-08-01', round);
      const amount = 300 + round;
      const payment = { method: '現金', paid_at: `${date}T13:00`, amount, note: `race ${randomUUID()}`, store_id: B };
      const close = { store_id: B, date, counted: 0, ...(round === 0 ? { opening: 0 } : {}) };
      const [paid, closed] = await Promise.all([
        call(round, 'POST', '/payments', payment, 'branchB'),
        call(round + 1, 'POST', '/closes', close, 'admin'),
      ]);
      expect(closed.status, JSON.stringify(closed.body)).toBe(201);
      const stored = await t.db('payments').where({ store_id: B, note: payment.note });
      if (paid.status === 201) {
        expect(stored.length).toBe(1);
        expect(closed.body.cash_in, `round ${round}`).toBe(amount);
      } else {
        expect(paid.status, JSON.stringify(paid.body)).toBe(409);
        expect(paid.body.message).toMatch(/已日結，當天的現金收支已鎖定/);
        expect(stored.length).toBe(0);
        expect(closed.body.cash_in).toBe(0);
      }
      expect(parseInstant(`${date}T13:00`)).not.toBeNull();
    }
    expect(errors).toEqual([]);
  });
});
