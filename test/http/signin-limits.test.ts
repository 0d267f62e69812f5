/**
 * Sign-in limits and sign-in audit: failed sign-ins limited per
 * username and per client address, counted in the database (so every API instance sees them),
 * the same work (one bcrypt check) for unknown and known usernames, and every attempt in audit_log without the
 * password. Client addresses are simulated with X-Forwarded-For on apps that trust the proxy.
 * The alg:none and re-signed token checks live in auth.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, openDatabase, systemActor } from '../../core/index.js';
import { AUDITED_FAILURES_PER_ADDRESS, MAX_SLOWDOWN_MS } from '../../core/users/signInLimit.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { PASSWORD, seed, type Fixture } from '../helpers/fixtures.js';
import { listenApi } from '../helpers/server.js';

/**
 * Every bcrypt comparison the server runs, with the hash it compared against: an unknown username
 * must cost the same check as a known one (a dummy hash of the same cost), which a count shows on
 * a busy machine where a stopwatch would not. The real comparison still runs.
 */
const compared = vi.hoisted(() => [] as string[]);
vi.mock('../../core/users/hashPool.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/users/hashPool.js')>();
  return {
    ...real,
    bcryptCompare: (password: string, hash: string, settings?: Parameters<typeof real.bcryptCompare>[2]) => {
      compared.push(hash);
      return real.bcryptCompare(password, hash, settings);
    },
  };
});

const WINDOW_MS = 15 * 60 * 1000;
const TOO_MANY = /^登入失敗次數過多，請於 \d+ 分鐘後再試$/;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

const listen = (t: TestDb) => listenApi({ db: t.db, trustProxy: true });

/** The most audit rows in one window of the limits (a run may straddle two). */
function mostInOneWindow(rows: Array<{ at: number | string }>): number {
  const perWindow = new Map<number, number>();
  for (const r of rows)
    perWindow.set(Math.floor(Number(r.at) / WINDOW_MS), (perWindow.get(Math.floor(Number(r.at) / WINDOW_MS)) ?? 0) + 1);
  return Math.max(0, ...perWindow.values());
}

let addressSeq = 0;
/** A fresh client address for each call, so tests do not share counts by accident. */
const newAddress = () => {
  addressSeq++;
  return `198.51.${Math.floor(addressSeq / 250)}.${addressSeq % 250}`;
};

describe.each(DB_KINDS)('sign-in limits and audit on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let one: { url: string; close(): Promise<void> };
  let two: { url: string; close(): Promise<void> };
  let twoDb: ReturnType<typeof openDatabase> | undefined;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    // Two API instances on one database, each with its own connections, like two servers behind a load balancer.
    one = await listen(t);
    twoDb = openDatabase(t.config);
    two = await listenApi({ db: twoDb, trustProxy: true });
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await twoDb?.destroy();
    await t?.cleanup();
  });

  async function login(username: string, password: string, address: string, via = one): Promise<Answer> {
    const res = await fetch(`${via.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ username, password }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  function expectLimited(res: Answer) {
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(TOO_MANY);
    expect(res.body.token).toBeUndefined();
    const retry = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual((WINDOW_MS + MAX_SLOWDOWN_MS) / 1000);
    return retry;
  }

  async function fail(username: string, times: number, address: () => string, via = one) {
    for (let i = 0; i < times; i++) expect((await login(username, 'wrong-password', address(), via)).status).toBe(401);
  }

  it('after 10 failures of one address on an account, that pair gets 429 even with the right password; a clean address signs in at once', async () => {
    const attacker = newAddress();
    await fail('branchA', 10, () => attacker);
    const res = await login('branchA', 'wrong-password', attacker);
    const retry = expectLimited(res);
    expect(retry).toBeGreaterThan(WINDOW_MS / 1000 - 30);
    expect(res.body.message).toBe('登入失敗次數過多，請於 15 分鐘後再試');
    expectLimited(await login('BRANCHA', PASSWORD, attacker));
    // The owner at the shop: slowed at most a few seconds, never refused, on either instance.
    for (const via of [one, two]) {
      const started = performance.now();
      expect((await login('branchA', PASSWORD, newAddress(), via)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(4000);
    }
    expectLimited(await login('branchA', PASSWORD, attacker, two));
    // another user is not affected
    expect((await login('branchB', PASSWORD, newAddress())).status).toBe(200);
  });

  it('a stranger cannot lock out admin: after 12 wrong sign-ins from other addresses the right password from a clean address gets in', async () => {
    for (let i = 0; i < 12; i++)
      expect((await login('admin', 'wrong-password', newAddress(), i % 2 ? one : two)).status).toBe(401);
    const started = performance.now();
    const res = await login('admin', PASSWORD, newAddress());
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(4000);
    expect((await login('admin', PASSWORD, newAddress(), two)).status).toBe(200);
  });

  it('an account under attack from many addresses is slowed, one attempt a second, never refused', async () => {
    for (let i = 0; i < 10; i++) await login('hq_none', 'wrong-password', newAddress());
    const started = performance.now();
    expect((await login('hq_none', 'wrong-password', newAddress())).status).toBe(401);
    expect((await login('hq_none', 'wrong-password', newAddress(), two)).status).toBe(401);
    // two attempts after the tenth failure take their turns a second apart
    expect(performance.now() - started).toBeGreaterThan(900);
    expect((await login('hq_none', PASSWORD, newAddress())).status).toBe(200);
  });

  it('one person guessing names behind a shop address does not lock out colleagues there (REMIT_TRUST_PROXY)', async () => {
    const shop = newAddress();
    for (let i = 0; i < 10; i++)
      expect((await login(`made_up_${i}`, 'wrong-password', shop, i % 2 ? one : two)).status).toBe(401);
    // a colleague's right password, for an account that has not failed there: in, slowed at most a few seconds
    for (const [name, via] of [
      ['hq_view_reports', one],
      ['branchB', two],
    ] as const) {
      const started = performance.now();
      const res = await login(name, PASSWORD, shop, via);
      expect(res.status, name).toBe(200);
      expect(performance.now() - started).toBeLessThan(4000);
    }
    // the guesser keeps going: slowed (one attempt a second), answered 401, not a lock on the address
    const started = performance.now();
    expect((await login('made_up_x', 'x', shop)).status).toBe(401);
    expect((await login('made_up_y', 'x', shop, two)).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThan(900);
    // and ten failures on one name from the shop close that pair only
    await fail('made_up_0', 9, () => shop);
    expectLimited(await login('made_up_0', 'x', shop, two));
    expect((await login('hq_view_payments', PASSWORD, shop)).status).toBe(200);
  });

  it('limits unknown usernames the same way', async () => {
    const a = newAddress();
    await fail('nobody_at_all', 10, () => a);
    expectLimited(await login('nobody_at_all', 'whatever', a));
    expectLimited(await login('Nobody_At_All', PASSWORD, a));
  });

  it('a burst of 12 correct sign-ins from one address (a shop router at opening time) all get in', async () => {
    const router = newAddress();
    const names = ['hq_none', 'branchB', 'hq_view_payments', 'hq_manage_users', 'hq_view_reports', 'hq_system_admin'];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(names[i % names.length], PASSWORD, router, i % 2 ? one : two)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
  });

  it('trusts only the last X-Forwarded-For hop: a client cannot pick its address for the limit or the audit log', async () => {
    const real = newAddress();
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${one.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}, ${real}` },
        body: JSON.stringify({ username: 'spoof', password: 'x' }),
      });
      expect(res.status).toBe(401);
    }
    expectLimited(await login('spoof', 'x', `203.0.113.99, ${real}`));
    const rows = await t.db('audit_log').where('ip', 'like', '203.0.113.%').count({ n: '*' }).first();
    expect(Number(rows?.n)).toBe(0);
    expect(Number((await t.db('audit_log').where({ ip: real }).count({ n: '*' }).first())?.n)).toBeGreaterThanOrEqual(
      10,
    );
  });

  it('holds across API instances sharing the database', async () => {
    const a = newAddress();
    await fail('hq_view_payments', 10, () => a, one);
    expectLimited(await login('hq_view_payments', PASSWORD, a, two));
  });

  it("a success from an address clears that address's failures for the user", async () => {
    const a = newAddress();
    // 9 failures then a success from the same address: the count starts again
    for (let i = 0; i < 9; i++) expect((await login('hq_view_reports', 'wrong-password', a)).status).toBe(401);
    expect((await login('hq_view_reports', PASSWORD, a)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login('hq_view_reports', 'wrong-password', a)).status).toBe(401);
    expect((await login('hq_view_reports', PASSWORD, a)).status).toBe(200);
  });

  it('a success from another address before the limit does not reset the count', async () => {
    const a = newAddress();
    await fail('hq_delete_payments', 9, () => a);
    expect((await login('hq_delete_payments', PASSWORD, newAddress())).status).toBe(200);
    await fail('hq_delete_payments', 1, () => a);
    expectLimited(await login('hq_delete_payments', PASSWORD, a));
  });

  it('lifts the limit as failures leave the 15-minute window, with Retry-After counting down to it, and prunes old rows', async () => {
    const name = 'hq_edit_payments';
    const a = newAddress();
    await fail(name, 10, () => a);
    expect(expectLimited(await login(name, PASSWORD, a))).toBeGreaterThan(WINDOW_MS / 1000 - 30);

    // All ten failures 10 minutes older: the limit lifts in about 5 minutes.
    await t
      .db('login_attempts')
      .where({ username: name })
      .update({ at: t.db.raw('at - ?', [10 * 60 * 1000]) });
    const retry = expectLimited(await login(name, PASSWORD, a));
    expect(retry).toBeGreaterThan(5 * 60 - 30);
    expect(retry).toBeLessThanOrEqual(5 * 60);
    expect((await login(name, PASSWORD, a)).body.message).toBe('登入失敗次數過多，請於 5 分鐘後再試');

    // Past the window: signs in again, and the expired rows are gone.
    await t
      .db('login_attempts')
      .where({ username: name })
      .update({ at: t.db.raw('at - ?', [6 * 60 * 1000]) });
    expect((await login(name, PASSWORD, a)).status).toBe(200);
    const old = await t
      .db('login_attempts')
      .where('at', '<', Date.now() - WINDOW_MS)
      .count({ n: '*' })
      .first();
    expect(Number(old?.n)).toBe(0);
  });

  it('writes every sign-in to the audit log, success and failure, with the address and never the password', async () => {
    const address = newAddress();
    const secret = 'Very-Secret-Guess-42';
    const user = f.users.hq_manage_payments;
    expect((await login('hq_manage_payments', secret, address)).status).toBe(401);
    expect((await login('no_such_person', secret, address)).status).toBe(401);
    expect((await login('HQ_manage_payments', PASSWORD, address)).status).toBe(200);

    const rows = await t.db('audit_log').where({ ip: address }).orderBy('id');
    expect(rows.map((r) => [r.action, r.entity, r.entity_id])).toEqual([
      ['login_failed', 'user', String(user.id)],
      ['login_failed', 'user', null],
      ['login', 'user', String(user.id)],
    ]);
    expect(rows.map((r) => JSON.parse(r.after).username)).toEqual([
      'hq_manage_payments',
      'no_such_person',
      'HQ_manage_payments',
    ]);
    expect(rows[0].actor_id).toBeNull();
    expect(Number(rows[2].actor_id)).toBe(user.id);
    for (const r of rows) expect(Number(r.at)).toBeGreaterThan(Date.now() - 60_000);

    const all = JSON.stringify(await t.db('audit_log').whereIn('action', ['login', 'login_failed']));
    expect(all).not.toContain(secret);
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain('wrong-password');
  });

  it('writes refused (rate-limited) attempts to the audit log too', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i++) await login('flood_x', 'wrong-password', address);
    expectLimited(await login('flood_x', 'wrong-password', address));
    const last = await t.db('audit_log').where({ ip: address }).orderBy('id', 'desc').first();
    expect(last.action).toBe('login_failed');
    expect(JSON.parse(last.after)).toEqual({ username: 'flood_x', reason: 'too_many_attempts' });
    // A flood of refused attempts writes no flood of audit rows: once per username, address and window (item 11).
    const before = Number((await t.db('audit_log').where({ ip: address }).count({ n: '*' }).first())?.n);
    for (let i = 0; i < 30; i++) expectLimited(await login('flood_x', 'wrong-password', address, i % 2 ? one : two));
    expect(Number((await t.db('audit_log').where({ ip: address }).count({ n: '*' }).first())?.n)).toBe(before);
  });

  it(`failed sign-ins with made-up names write at most ${AUDITED_FAILURES_PER_ADDRESS} audit rows per address and window, over two instances`, async () => {
    const address = newAddress();
    const statuses: number[] = [];
    // 60 made-up names, eight at a time, alternating between the instances
    for (let round = 0; round < 60 / 8; round++) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, (_, i) => login(`bot_${round}_${i}`, 'wrong-password', address, i % 2 ? one : two)),
      );
      statuses.push(...batch.map((b) => b.status));
    }
    expect(statuses.every((st) => st === 401)).toBe(true);
    const failed = (await t.db('audit_log').where({ ip: address, action: 'login_failed' })) as Array<{
      at: number | string;
    }>;
    // windows are whole quarters of the clock: a run that straddles one (a slow machine at :14:59)
    // may write up to the limit in each of the two windows, never more in either (of 60 failures,
    // one window holds at least 30, so the limit is reached)
    expect(mostInOneWindow(failed)).toBe(AUDITED_FAILURES_PER_ADDRESS);
    // a success from that address is still written
    expect((await login('hq_manage_stores', PASSWORD, address, two)).status).toBe(200);
    expect(await t.db('audit_log').where({ ip: address, action: 'login' }).first()).toBeTruthy();
  });

  it(`after failures that reached the address limit, 200 made-up names at once still add audit rows only up to ${AUDITED_FAILURES_PER_ADDRESS} per address and window, over two instances`, async () => {
    const address = newAddress();
    for (let i = 0; i < 12; i++) await login('hq_manage_stores', 'wrong-password', address, i % 2 ? one : two);
    // one client as a dual-stack server may see it: half the time written as IPv6
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        login(`made_up_${i}`, 'wrong-password', i % 3 ? address : `::ffff:${address}`, i % 2 ? one : two),
      ),
    );
    const failed = (await t
      .db('audit_log')
      .whereIn('ip', [address, `::ffff:${address}`])
      .where({ action: 'login_failed' })) as Array<{ at: number | string }>;
    expect(failed.length).toBeGreaterThanOrEqual(AUDITED_FAILURES_PER_ADDRESS);
    expect(mostInOneWindow(failed)).toBeLessThanOrEqual(AUDITED_FAILURES_PER_ADDRESS);
  });

  it(`an IPv6 /64 is one address to the audit cap: 60 made-up names from 60 of its addresses write at most ${AUDITED_FAILURES_PER_ADDRESS} rows`, async () => {
    const block = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    // six at a time, within the hashing queue: all refused as wrong (401), none as busy
    for (let round = 0; round < 60 / 6; round++) {
      const batch = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          login(
            `v6_${round}_${i}`,
            'wrong-password',
            `${block}::${(round * 6 + i + 1).toString(16)}`,
            i % 2 ? one : two,
          ),
        ),
      );
      expect(batch.map((b) => b.status)).toEqual(Array(6).fill(401));
    }
    const failed = (await t
      .db('audit_log')
      .where('ip', 'like', `${block}::%`)
      .where({ action: 'login_failed' })) as Array<{ at: number | string }>;
    expect(failed.length).toBeGreaterThanOrEqual(AUDITED_FAILURES_PER_ADDRESS);
    expect(mostInOneWindow(failed)).toBeLessThanOrEqual(AUDITED_FAILURES_PER_ADDRESS);
  });

  it('change-password: 60 wrong current passwords sent at once, from two addresses and two instances, pass at most 10 checks; the rest get 429 with a true Retry-After, never 503', async () => {
    await createUser(
      { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null },
      { username: 'pw_guessed', password: PASSWORD, role: 'user', permissions: [] },
    );
    const token = (await login('pw_guessed', PASSWORD, newAddress())).body.token as string;
    const first = newAddress();
    const second = newAddress();
    const change = (address: string, via: typeof one, currentPassword: string) =>
      fetch(`${via.url}/api/users/change-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address, authorization: `Bearer ${token}` },
        body: JSON.stringify({ currentPassword, newPassword: 'never-set-77', confirmNewPassword: 'never-set-77' }),
      }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => change(i % 3 ? first : second, i % 2 ? one : two, `guess-${i}`)),
    );
    const count = (st: number) => answers.filter((a) => a.status === st).length;
    expect(count(503)).toBe(0);
    expect(count(400)).toBeLessThanOrEqual(10);
    expect(count(400) + count(429)).toBe(60);
    const refused = answers.find((a) => a.status === 429)!;
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(WINDOW_MS / 1000 - 60);
    // the last failure counted may have waited its turn (at most MAX_SLOWDOWN_MS): the window runs from its check
    expect(retry).toBeLessThanOrEqual((WINDOW_MS + MAX_SLOWDOWN_MS) / 1000);
    expect(refused.body.message).toBe(`目前密碼輸入錯誤次數過多，請於 ${Math.ceil(retry / 60)} 分鐘後再試`);
    // fill the account's count, then a third, clean address is refused too (per account), and truly told how long
    for (let i = count(400); i < 10; i++) await change(newAddress(), one, `more-${i}`);
    const third = await change(newAddress(), two, PASSWORD);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(WINDOW_MS / 1000 - 60);
    // the account still signs in from a clean address: only the form is limited
    expect((await login('pw_guessed', PASSWORD, newAddress())).status).toBe(200);
    // as the failures leave the window, Retry-After counts down and the form opens again
    await t
      .db('login_attempts')
      .where({ username: 'pw_guessed' })
      .update({ at: t.db.raw('at - ?', [10 * 60 * 1000]) });
    const later = await change(newAddress(), one, PASSWORD);
    expect(later.status).toBe(429);
    expect(Number(later.headers.get('retry-after'))).toBeLessThanOrEqual(5 * 60);
    await t
      .db('login_attempts')
      .where({ username: 'pw_guessed' })
      .update({ at: t.db.raw('at - ?', [6 * 60 * 1000]) });
    expect((await change(newAddress(), two, PASSWORD)).status).toBe(200);
  });

  it('does the same work for an unknown username as for a known one: one bcrypt check of the same cost each', async () => {
    const check = async (username: string) => {
      compared.length = 0;
      expect((await login(username, 'wrong-password', newAddress())).status).toBe(401);
      expect(compared).toHaveLength(1);
      return compared[0];
    };
    const known = await check('hq_system_admin');
    const unknown = await check('ghost_user_x');
    const hashOf = (await t.db('users').where({ username: 'hq_system_admin' }).first('password_hash')) as {
      password_hash: string;
    };
    expect(known).toBe(hashOf.password_hash);
    // a bcrypt hash of the same cost ($2a$10$ / $2b$10$), not the user's and not empty
    expect(unknown).not.toBe(known);
    expect(unknown.slice(0, 7).replace('$2a$', '$2b$')).toBe(known.slice(0, 7).replace('$2a$', '$2b$'));
    expect(unknown).toMatch(/^\$2[ab]\$\d\d\$[./A-Za-z0-9]{53}$/);
  });
});
