/**
 * The attacker, turned on reconciliation (it landed after the security work): store
 * scope on every read and write, the permissions, hostile sort keys and ids, and
 * read-modify-write races fired at once at two API instances sharing one database (on
 * PostgreSQL, the way a business that outgrew one machine runs it). Nothing another store owns
 * is seen or touched, no decision is lost or doubled, and no answer is a 5xx.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import { type UserRow } from '../../core/users/rows.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { listParams, secondInstance, startTestServer, type TestServer } from '../helpers/server.js';

const statement = (rows: string[]) =>
  iconv.encode(['交易日期,交易時間,轉出,轉入,餘額,說明,帳號,備註', ...rows].join('\r\n') + '\r\n', 'big5');
/** `n` credits of 1500 on 2026-11-05, one a minute from 10:00, each naming its own last five */
const credits = (n: number, first = 0) =>
  Array.from(
    { length: n },
    (_, i) =>
      `20261105,${String(10 + Math.floor((first + i) / 60)).padStart(2, '0')}${String((first + i) % 60).padStart(2, '0')}00,,1500,0,跨行轉入,9000${String(10000 + first + i)},`,
  );

describe.each(DB_KINDS)('reconciliation under attack on %s', (kind) => {
  let s: TestServer;
  let two: Awaited<ReturnType<typeof secondInstance>>;
  let urls: string[];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer(kind);
    two = await secondInstance(s);
    urls = [`${s.url}/api`, two.url];
    const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const extra = {
      auditA: { role: 'user', store_id: s.stores.A.id, permissions: ['system_admin'] },
      managerA: {
        role: 'user',
        store_id: s.stores.A.id,
        permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
      },
      managerB: {
        role: 'user',
        store_id: s.stores.B.id,
        permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
      },
    };
    for (const [name, spec] of Object.entries(extra)) {
      const u = await createUser(ctx, { username: name, password: PASSWORD, ...spec });
      tokens[name] = signToken(TEST_SECURITY, (await s.t.db<UserRow>('users').where({ id: u.id }).first())!);
    }
  }, 60_000);
  afterAll(async () => {
    await two?.close();
    await s?.close();
  });
  beforeEach(async () => {
    await s.t.db('bank_links').delete();
    await s.t.db('bank_lines').delete();
    await s.t.db('bank_statements').delete();
    await s.t.db('payments').delete();
  });

  /** a call to instance `i`, as a fixture user or one of the extra tokens */
  async function call(
    i: number,
    method: string,
    path: string,
    opts: { as?: string; body?: unknown; raw?: Buffer } = {},
  ): Promise<{ status: number; body: any }> {
    const as = opts.as ?? 'admin';
    const headers: Record<string, string> = { authorization: `Bearer ${tokens[as] ?? s.tokens[as]}` };
    if (opts.raw) headers['content-type'] = 'application/octet-stream';
    else if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${urls[i % 2]}${path}`, {
      method,
      headers,
      body: (opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))) as BodyInit | undefined,
    });
    const text = await res.text();
    const answer = { status: res.status, body: text ? JSON.parse(text) : undefined };
    expect(answer.status, `${method} ${path}: ${text.slice(0, 200)}`).toBeLessThan(500);
    return answer;
  }
  const upload = (i: number, file: string, bytes: Buffer, store?: number, as = 'admin') =>
    call(i, 'POST', `/reconcile/statements?filename=${encodeURIComponent(file)}${store ? `&store_id=${store}` : ''}`, {
      as,
      raw: bytes,
    });
  const pay = async (last_five: string, amount = 1500, store = s.stores.A.id) =>
    (
      await call(0, 'POST', '/payments', {
        body: { last_five, paid_at: '2026-11-05T10:00', amount, note: '', store_id: store, confirm_duplicate: true },
      })
    ).body as { uuid: string };
  const linesOf = async (statementId: number) =>
    (await s.t.db('bank_lines').where({ statement_id: statementId }).orderBy('id')).map((l) => Number(l.id));
  const statusOf = async (uuid: string) => (await s.t.db('payments').where({ uuid }).first()).status as string;
  const linkOf = async (uuid: string) =>
    ((await s.t.db('bank_links').where({ payment_uuid: uuid }).first()) as { line_id: number } | undefined)?.line_id;

  it('one download imported by two stores (a shared bank account) gives each its lines and tells neither what the other holds', async () => {
    const file = statement(credits(3, 30));
    const a = (await upload(0, 'shared.csv', file, s.stores.A.id, 'managerA')).body.statement;
    expect(a).toMatchObject({ new: 3, duplicates: 0 });
    const b = (await upload(1, 'shared.csv', file, s.stores.B.id, 'managerB')).body.statement;
    expect(b).toMatchObject({ new: 3, duplicates: 0 });
    const listed = await call(
      0,
      'GET',
      `/reconcile/lines${listParams({ filter: { statement_id: b.id }, range: [0, 99] })}`,
      { as: 'managerB' },
    );
    expect(listed.body.map((l: any) => l.id).sort()).toEqual((await linesOf(b.id)).sort());
    expect(listed.body).toHaveLength(3);
    // store B reconciles its own payment with its own copy
    const pB = await pay('10031', 1500, s.stores.B.id);
    const proposals = await call(1, 'GET', `/reconcile/proposals?statement=${b.id}`, { as: 'managerB' });
    const lineB = (await linesOf(b.id))[1];
    expect(JSON.stringify(proposals.body)).toContain(pB.uuid);
    expect(
      (
        await call(0, 'POST', '/reconcile/confirm', {
          as: 'managerB',
          body: { pairs: [{ payment: pB.uuid, line: lineB }] },
        })
      ).status,
    ).toBe(200);
    expect(await linkOf(pB.uuid)).toBe(lineB);
    // the same store again: nothing new; for every store (who sees every store): any store holds them
    expect((await upload(0, 'shared.csv', file, s.stores.A.id, 'managerA')).body.statement).toMatchObject({
      new: 0,
      duplicates: 3,
    });
    expect((await upload(1, 'shared.csv', file)).body.statement).toMatchObject({ new: 0, duplicates: 3 });
    // a download for every store first: a store's reconciliation already has its lines
    const other = statement(credits(2, 40));
    expect((await upload(0, 'all2.csv', other)).body.statement).toMatchObject({ new: 2, duplicates: 0 });
    expect((await upload(1, 'all2.csv', other, s.stores.B.id, 'managerB')).body.statement).toMatchObject({
      new: 0,
      duplicates: 2,
    });
  });

  it('one download imported at once for a store and for every store, on two instances: its lines are held once', async () => {
    for (let round = 0; round < 3; round++) {
      const file = statement(credits(3, 50 + round * 3));
      const [mine, all] = await Promise.all([
        upload(0, `a-${round}.csv`, file, s.stores.A.id, 'managerA'),
        upload(1, `all-${round}.csv`, file),
      ]);
      expect([mine.status, all.status]).toEqual([201, 201]);
      // whichever came first holds them; the other skipped all three
      expect([mine.body.statement.new, all.body.statement.new].sort()).toEqual([0, 3]);
    }
    expect(Number(((await s.t.db('bank_lines').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(9);
  });

  it("a branch user never sees or touches another store's statement lines, proposals or links", async () => {
    const stA = (await upload(0, 'a.csv', statement(credits(2)), s.stores.A.id)).body.statement;
    const stB = (await upload(0, 'b.csv', statement(credits(2, 10)), s.stores.B.id)).body.statement;
    const stAll = (await upload(0, 'all.csv', statement(credits(1, 20)))).body.statement;
    const [lineA] = await linesOf(stA.id);
    const [lineB] = await linesOf(stB.id);
    const [lineAll] = await linesOf(stAll.id);
    const pA = await pay('10000');
    const pB = await pay('10010', 1500, s.stores.B.id);

    // reads: whatever the filter asks for, only store A's lines
    for (const filter of [{}, { statement_id: [stB.id, stAll.id] }, { id: [lineB, lineAll] }, { matched: false }]) {
      const r = await call(0, 'GET', `/reconcile/lines${listParams({ filter, range: [0, 99] })}`, { as: 'branchA' });
      expect(r.status).toBe(200);
      expect(
        r.body.every((l: any) => l.statement_id === stA.id),
        JSON.stringify(filter),
      ).toBe(true);
    }
    for (const q of [`from=2026-11-05&to=2026-11-05&store_id=${s.stores.B.id}`, 'from=2026-11-05&to=2026-11-05']) {
      const prop = await call(1, 'GET', `/reconcile/proposals?${q}`, { as: 'branchA' });
      expect(prop.status).toBe(200);
      const text = JSON.stringify(prop.body);
      expect(text, q).not.toContain(pB.uuid);
      expect(text, q).not.toContain('b.csv');
      expect(text, q).not.toContain('all.csv');
    }

    // writes: another store's payment, or another store's (or every store's) line, is refused and changes nothing
    const refused = [
      await call(0, 'POST', '/reconcile/confirm', {
        as: 'branchA',
        body: { pairs: [{ payment: pB.uuid, line: lineA }] },
      }),
      await call(1, 'POST', '/reconcile/confirm', {
        as: 'branchA',
        body: { pairs: [{ payment: pA.uuid, line: lineB }] },
      }),
      await call(0, 'POST', '/reconcile/confirm', {
        as: 'branchA',
        body: { pairs: [{ payment: pA.uuid, line: lineAll }] },
      }),
      await call(1, 'POST', '/reconcile/unpaid', { as: 'branchA', body: { payments: [pA.uuid, pB.uuid] } }),
      await upload(0, 'b2.csv', statement(credits(1, 30)), s.stores.B.id, 'managerA'),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 404, 404, 403, 403]);
    expect(Number((await s.t.db('bank_links').count({ n: '*' }).first())!.n)).toBe(0);
    expect([await statusOf(pA.uuid), await statusOf(pB.uuid)]).toEqual(['未確認', '未確認']);
    expect(Number((await s.t.db('bank_statements').count({ n: '*' }).first())!.n)).toBe(3);

    // another store's link cannot be undone
    expect(
      (await call(0, 'POST', '/reconcile/confirm', { body: { pairs: [{ payment: pB.uuid, line: lineB }] } })).status,
    ).toBe(200);
    expect((await call(1, 'POST', '/reconcile/unlink', { as: 'branchA', body: { payment: pB.uuid } })).status).toBe(
      403,
    );
    expect(await linkOf(pB.uuid)).toBe(lineB);

    // what that link taught about store B's payer is neither listed to store A nor forgettable by it
    const [taught] = await s.t.db('reconcile_payers').where({ store_id: s.stores.B.id });
    expect(taught).toMatchObject({ payer: '900010010', last_five: '10010' });
    for (const filter of [{}, { store_id: s.stores.B.id }, { id: taught.id }]) {
      const r = await call(0, 'GET', `/reconcile/payers${listParams({ filter, range: [0, 99] })}`, { as: 'branchA' });
      expect(r.status).toBe(200);
      expect(r.body, JSON.stringify(filter)).toEqual([]);
    }
    const forget = await call(1, 'DELETE', `/reconcile/payers/${taught.id}`, { as: 'branchA' });
    expect(forget.status).toBe(404);
    expect(JSON.stringify(forget.body)).not.toContain('900010010');
    expect(await s.t.db('reconcile_payers').where({ id: taught.id }).first()).toBeDefined();
    expect((await call(0, 'GET', '/reconcile/payers', { as: 'branchB' })).body.map((p: any) => p.payer)).toEqual([
      '900010010',
    ]);
  });

  it('a one-store account imports without naming its store; someone with several stores must choose; the account is kept', async () => {
    const mine = await upload(0, 'mine.csv', statement(credits(1)), undefined, 'managerA');
    expect(mine.status).toBe(201);
    expect(mine.body.statement).toMatchObject({ store_id: s.stores.A.id, account: null, new: 1 });
    const several = await upload(1, 'hq.csv', statement(credits(1, 1)), undefined, 'hq_manage_payments');
    expect(several.status).toBe(400);
    expect(JSON.stringify(several.body)).toContain('可看到多家分店的帳號必須指定對帳分店');
    // an account given on upload: the same lines on another account are new, on the same account duplicates
    const up = (i: number, account: string) =>
      call(i, 'POST', `/reconcile/statements?filename=acct.csv&account=${encodeURIComponent(account)}`, {
        as: 'managerA',
        raw: statement(credits(2)),
      });
    const first = await up(0, '0123-456-789012');
    const other = await up(1, '9876-543-210000');
    const again = await up(0, '0123456789012');
    expect([first, other, again].map((r) => [r.status, r.body.statement.new, r.body.statement.duplicates])).toEqual([
      [201, 2, 0],
      [201, 2, 0],
      [201, 0, 2],
    ]);
    const lines = await call(
      1,
      'GET',
      `/reconcile/lines${listParams({ filter: { statement_id: other.body.statement.id } })}`,
      { as: 'managerA' },
    );
    expect(lines.body.map((l: any) => l.account)).toEqual(['9876-543-210000', '9876-543-210000']);
    expect((await up(0, 'x'.repeat(65))).status).toBe(400);
  });

  it('a store-scoped system_admin reads forgotten payers of their own store only in the audit log', async () => {
    for (const [store, first] of [
      [s.stores.A.id, 0],
      [s.stores.B.id, 5],
    ] as const) {
      const st = (await upload(0, `forget-${store}.csv`, statement(credits(1, first)), store)).body.statement;
      const [line] = await linesOf(st.id);
      const p = await pay(String(10000 + first), 1500, store);
      expect(
        (await call(1, 'POST', '/reconcile/confirm', { body: { pairs: [{ payment: p.uuid, line }] } })).status,
      ).toBe(200);
      const [taught] = await s.t.db('reconcile_payers').where({ payment_uuid: p.uuid });
      expect((await call(0, 'DELETE', `/reconcile/payers/${taught.id}`)).status).toBe(200);
    }
    const audit = await call(1, 'GET', `/audit${listParams({ filter: { entity: 'payer' }, range: [0, 99] })}`, {
      as: 'auditA',
    });
    expect(audit.status).toBe(200);
    expect(audit.body.length).toBeGreaterThan(0);
    expect(audit.body.filter((e: any) => e.before?.store_id !== s.stores.A.id)).toEqual([]);
    const all = await call(0, 'GET', `/audit${listParams({ filter: { entity: 'payer' }, range: [0, 99] })}`);
    expect(all.body.map((e: any) => e.before.store_id)).toEqual(expect.arrayContaining([s.stores.A.id, s.stores.B.id]));
  });

  it('forgetting with hostile ids and sort keys is bad input or not found, never a 500', async () => {
    for (const id of ['2147483648', '99999999999999999999', 'abc', '-1', '1.5', '0x10', '%20', 'constructor']) {
      const r = await call(0, 'DELETE', `/reconcile/payers/${id}`);
      expect([400, 404], id).toContain(r.status);
    }
    for (const key of ['constructor', '__proto__', 'payment_uuid; drop table reconcile_payers', 'actor_id']) {
      expect(
        (await call(1, 'GET', `/reconcile/payers?sort=${encodeURIComponent(JSON.stringify([key, 'ASC']))}`)).status,
        key,
      ).toBe(400);
    }
    expect((await call(0, 'GET', `/reconcile/payers${listParams({ filter: { id: [2_147_483_648] } })}`)).status).toBe(
      400,
    );
    expect((await call(0, 'GET', `/reconcile/payers${listParams({ filter: { nope: 1 } })}`)).status).toBe(400);
  });

  it('forget racing an unlink, and the same pair confirmed twice, at once on two instances: one memory, removed once', async () => {
    const st = (await upload(0, 'payers.csv', statement(credits(1)), s.stores.A.id)).body.statement;
    const [line] = await linesOf(st.id);
    const p = await pay('10000');
    for (let round = 0; round < 6; round++) {
      const confirms = await Promise.all([
        call(round, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line }] } }),
        call(round + 1, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line }] } }),
      ]);
      expect(confirms.map((a) => a.status).sort()).toEqual([200, 409]);
      const taught = await s.t.db('reconcile_payers');
      expect(taught).toHaveLength(1);
      const audits = async () =>
        Number((await s.t.db('audit_log').where({ entity: 'payer' }).count({ n: '*' }).first())!.n);
      const before = await audits();
      const [forgot, unlinked] = await Promise.all([
        call(round, 'DELETE', `/reconcile/payers/${taught[0].id}`, { as: 'branchA' }),
        call(round + 1, 'POST', '/reconcile/unlink', { as: 'branchA', body: { payment: p.uuid } }),
      ]);
      expect(unlinked.status).toBe(200);
      expect([200, 404]).toContain(forgot.status);
      expect(await s.t.db('reconcile_payers')).toEqual([]);
      expect(await audits()).toBe(before + 1);
      expect(await statusOf(p.uuid)).toBe('未確認');
    }
    expect(s.errors).toEqual([]);
  });

  it('a store-scoped system_admin reads statement imports of their own store only in the audit log', async () => {
    await upload(0, 'mine.csv', statement(credits(1)), s.stores.A.id);
    await upload(0, 'theirs-b.csv', statement(credits(1, 5)), s.stores.B.id);
    await upload(0, 'every-store.csv', statement(credits(1, 9)));
    const audit = await call(1, 'GET', `/audit${listParams({ filter: { entity: 'statement' }, range: [0, 99] })}`, {
      as: 'auditA',
    });
    expect(audit.status).toBe(200);
    const files = audit.body.map((e: any) => e.after?.file);
    expect(files).toContain('mine.csv');
    expect(audit.body.filter((e: any) => e.after?.store_id !== s.stores.A.id).map((e: any) => e.after?.file)).toEqual(
      [],
    );
    const all = await call(0, 'GET', `/audit${listParams({ filter: { entity: 'statement' }, range: [0, 99] })}`);
    expect(all.body.map((e: any) => e.after?.file)).toEqual(
      expect.arrayContaining(['every-store.csv', 'mine.csv', 'theirs-b.csv']),
    );
  });

  it('each call needs its permission: manage_payments to import, confirm_payments to decide, view_payments to read', async () => {
    const st = (await upload(0, 'p.csv', statement(credits(1)), s.stores.A.id)).body.statement;
    const [line] = await linesOf(st.id);
    const p = await pay('10000');
    const attempts: Array<[string, Promise<{ status: number }>]> = [
      ['branchA imports', upload(0, 'x.csv', statement(credits(1, 40)), s.stores.A.id, 'branchA')],
      ['hq_edit_payments imports', upload(1, 'x.csv', statement(credits(1, 40)), s.stores.A.id, 'hq_edit_payments')],
      [
        'hq_view_payments confirms',
        call(0, 'POST', '/reconcile/confirm', { as: 'hq_view_payments', body: { pairs: [{ payment: p.uuid, line }] } }),
      ],
      [
        'hq_manage_payments confirms',
        call(1, 'POST', '/reconcile/confirm', {
          as: 'hq_manage_payments',
          body: { pairs: [{ payment: p.uuid, line }] },
        }),
      ],
      [
        'hq_edit_payments confirms',
        call(0, 'POST', '/reconcile/confirm', { as: 'hq_edit_payments', body: { pairs: [{ payment: p.uuid, line }] } }),
      ],
      [
        'hq_confirm_payments imports',
        upload(0, 'x.csv', statement(credits(1, 40)), s.stores.A.id, 'hq_confirm_payments'),
      ],
      [
        'hq_view_payments marks unpaid',
        call(0, 'POST', '/reconcile/unpaid', { as: 'hq_view_payments', body: { payments: [p.uuid] } }),
      ],
      ['hq_none reads lines', call(1, 'GET', '/reconcile/lines', { as: 'hq_none' })],
      [
        'hq_none reads proposals',
        call(0, 'GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-05', { as: 'hq_none' }),
      ],
    ];
    for (const [what, attempt] of attempts) {
      const r = await attempt;
      expect(r.status, what).toBe(403);
    }
    expect(Number((await s.t.db('bank_statements').count({ n: '*' }).first())!.n)).toBe(1);
    expect(await statusOf(p.uuid)).toBe('未確認');
    expect(await linkOf(p.uuid)).toBeUndefined();
    // hq_confirm_payments may decide
    expect(
      (
        await call(1, 'POST', '/reconcile/confirm', {
          as: 'hq_confirm_payments',
          body: { pairs: [{ payment: p.uuid, line }] },
        })
      ).status,
    ).toBe(200);
  });

  it('hostile sort keys and ids out of range are refused as bad input, never a 500', async () => {
    const st = (await upload(0, 's.csv', statement(credits(1)), s.stores.A.id)).body.statement;
    const p = await pay('10000');
    for (const key of [
      'constructor',
      '__proto__',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'k.payment_uuid',
      'amount; drop table bank_lines',
    ]) {
      const r = await call(0, 'GET', `/reconcile/lines?sort=${encodeURIComponent(JSON.stringify([key, 'ASC']))}`, {
        as: 'branchA',
      });
      expect(r.status, key).toBe(400);
    }
    const huge = 2_147_483_648;
    const answers = [
      await call(0, 'GET', `/reconcile/lines${listParams({ filter: { id: [huge] } })}`),
      await call(1, 'GET', `/reconcile/lines${listParams({ filter: { statement_id: huge } })}`),
      await call(0, 'POST', '/reconcile/confirm', { body: { pairs: [{ payment: p.uuid, line: huge }] } }),
      await call(1, 'POST', '/reconcile/confirm', { body: { pairs: [{ payment: p.uuid, line: 99_999_999_999_999 }] } }),
      await call(0, 'GET', `/reconcile/proposals?from=2026-11-05&to=2026-11-05&store_id=${huge}`),
      await upload(1, 'big.csv', statement(credits(1, 50)), huge),
      await call(0, 'POST', '/reconcile/unlink', { body: { payment: 'x'.repeat(5000) } }),
    ];
    expect(answers.map((a) => Math.floor(a.status / 100))).toEqual([4, 4, 4, 4, 4, 4, 4]);
    expect(await linkOf(p.uuid)).toBeUndefined();
    expect(await linesOf(st.id)).toHaveLength(1);
  });

  it('two confirmations of one payment to different lines, at once on two instances: one link, one 409', async () => {
    const st = (await upload(0, 'two.csv', statement(credits(2)), s.stores.A.id)).body.statement;
    const [l1, l2] = await linesOf(st.id);
    for (let round = 0; round < 4; round++) {
      const p = await pay('10000');
      const answers = await Promise.all([
        call(0, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line: l1 }] } }),
        call(1, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line: l2 }] } }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(Number((await s.t.db('bank_links').count({ n: '*' }).first())!.n)).toBe(1);
      expect(
        Number(
          (await s.t
            .db('audit_log')
            .where({ entity: 'payment', entity_id: p.uuid, action: 'reconcile' })
            .count({ n: '*' })
            .first())!.n,
        ),
      ).toBe(1);
      await s.t.db('bank_links').delete();
    }
  });

  it('mark unpaid racing a confirmation of the same payment: a linked payment is always 已入帳, an unlinked one never', async () => {
    const st = (await upload(0, 'unpaid.csv', statement(credits(1)), s.stores.A.id)).body.statement;
    const [line] = await linesOf(st.id);
    for (let round = 0; round < 16; round++) {
      const p = await pay('10000');
      const [unpaid, confirm] = await Promise.all([
        call(round, 'POST', '/reconcile/unpaid', { as: 'branchA', body: { payments: [p.uuid] } }),
        call(round + 1, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line }] } }),
      ]);
      const linked = await linkOf(p.uuid);
      const status = await statusOf(p.uuid);
      expect([unpaid.status, confirm.status], `round ${round}`).not.toContain(500);
      expect(
        { linked: linked !== undefined, status },
        `round ${round}: unpaid ${unpaid.status}, confirm ${confirm.status}`,
      ).toEqual(linked !== undefined ? { linked: true, status: '已入帳' } : { linked: false, status: '未入帳' });
      expect(confirm.status === 200).toBe(linked !== undefined);
      await s.t.db('bank_links').delete();
    }
  });

  it('unlink racing a confirmation to another line, and unlink racing itself: the link and the status agree, one audit entry per change', async () => {
    const st = (await upload(0, 'unlink.csv', statement(credits(2)), s.stores.A.id)).body.statement;
    const [l1, l2] = await linesOf(st.id);
    for (let round = 0; round < 6; round++) {
      const p = await pay('10000');
      expect(
        (
          await call(0, 'POST', '/reconcile/confirm', {
            as: 'branchA',
            body: { pairs: [{ payment: p.uuid, line: l1 }] },
          })
        ).status,
      ).toBe(200);
      const [un1, un2, re] = await Promise.all([
        call(round, 'POST', '/reconcile/unlink', { as: 'branchA', body: { payment: p.uuid } }),
        call(round + 1, 'POST', '/reconcile/unlink', { as: 'branchA', body: { payment: p.uuid } }),
        call(round, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line: l2 }] } }),
      ]);
      const unlinks = [un1.status, un2.status];
      const unlinked = unlinks.filter((x) => x === 200).length;
      const audited = async (action: string) =>
        Number(
          (await s.t.db('audit_log').where({ entity: 'payment', entity_id: p.uuid, action }).count({ n: '*' }).first())!
            .n,
        );
      // Each answered change is audited once, and the final state is what the last change left.
      expect(await audited('unreconcile'), `unlinks ${unlinks}, confirm ${re.status}`).toBe(unlinked);
      expect(await audited('reconcile')).toBe(1 + (re.status === 200 ? 1 : 0));
      const linked = await linkOf(p.uuid);
      expect(await statusOf(p.uuid)).toBe(linked === undefined ? '未確認' : '已入帳');
      expect(unlinked).toBeGreaterThanOrEqual(1);
      expect(unlinked - (re.status === 200 ? 1 : 0)).toBeLessThanOrEqual(1);
      await s.t.db('bank_links').delete();
    }
  });

  it("a confirmation racing the payment's delete: confirmed then deleted with its link, or 404; never a 500 or a link to nothing", async () => {
    const st = (await upload(0, 'gone.csv', statement(credits(1)), s.stores.A.id)).body.statement;
    const [line] = await linesOf(st.id);
    for (let round = 0; round < 6; round++) {
      const p = await pay('10000');
      const [confirm, del] = await Promise.all([
        call(round, 'POST', '/reconcile/confirm', { as: 'branchA', body: { pairs: [{ payment: p.uuid, line }] } }),
        call(round + 1, 'DELETE', `/payments/${p.uuid}`, { as: 'branchA' }),
      ]);
      expect(del.status).toBe(200);
      expect([200, 404]).toContain(confirm.status);
      expect(Number((await s.t.db('bank_links').count({ n: '*' }).first())!.n)).toBe(0);
    }
  });

  it('a statement imported while its store is deleted: 201 and the delete refused, or 404 and the store gone, never a 500', async () => {
    for (let round = 0; round < 6; round++) {
      const store = (await call(0, 'POST', '/stores', { body: { name: `對帳競速店${round}`, code: `rc${round}` } }))
        .body;
      const [imported, deleted] = await Promise.all([
        upload(round, `race-${round}.csv`, statement(credits(50)), store.id),
        call(round + 1, 'DELETE', `/stores/${store.id}`),
      ]);
      const kept = Boolean(await s.t.db('stores').where({ id: store.id }).first());
      const statements = Number(
        (await s.t.db('bank_statements').where({ store_id: store.id }).count({ n: '*' }).first())!.n,
      );
      expect({ imported: imported.status, deleted: deleted.status, kept, statements }).toEqual(
        imported.status === 201
          ? { imported: 201, deleted: 409, kept: true, statements: 1 }
          : { imported: 404, deleted: 200, kept: false, statements: 0 },
      );
      await s.t.db('bank_lines').delete();
      await s.t.db('bank_statements').delete();
      if (kept) await s.t.db('stores').where({ id: store.id }).delete();
    }
  });

  it('the same statement imported at once on two instances, and overlapping ones in reverse order, store each line once', async () => {
    const rows = credits(300);
    const bytes = statement(rows);
    const [a, b] = await Promise.all([
      upload(0, 'same.csv', bytes, s.stores.A.id),
      upload(1, 'same.csv', bytes, s.stores.A.id),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.statement.new + b.body.statement.new).toBe(300);
    expect(Number((await s.t.db('bank_lines').count({ n: '*' }).first())!.n)).toBe(300);
    // Two downloads of overlapping days, in opposite orders (a bank lists newest first): no deadlock, each line once.
    const more = credits(200, 300);
    const forward = statement([...rows.slice(200), ...more]);
    const backward = statement([...more, ...rows.slice(200)].reverse());
    for (let round = 0; round < 3; round++) {
      await s.t
        .db('bank_lines')
        .whereIn('statement_id', s.t.db('bank_statements').whereNot({ file: 'same.csv' }).select('id'))
        .delete();
      const [c, d] = await Promise.all([
        upload(0, 'fwd.csv', forward, s.stores.A.id),
        upload(1, 'bwd.csv', backward, s.stores.A.id),
      ]);
      expect([c.status, d.status]).toEqual([201, 201]);
      expect(c.body.statement.new + d.body.statement.new).toBe(200);
      expect(Number((await s.t.db('bank_lines').count({ n: '*' }).first())!.n)).toBe(500);
    }
    expect(s.errors).toEqual([]);
  });
});
