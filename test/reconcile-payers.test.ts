/**
 * On a real database (SQLite, and PostgreSQL when configured): payer memory across two
 * months (learned by a confirmation, given to the matcher, listed in scope, forgotten, taken back
 * by an unlink), several accounts per store, a one-store account importing without naming its
 * store, and the races where a decision reads then writes.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatchOptions } from '../core/reconcile/match.js';
import {
  confirmPairs,
  createPayment,
  createUser,
  forgetPayer,
  importStatement,
  listLines,
  listPayers,
  NotFoundError,
  openDatabase,
  principalByUsername,
  proposeMatches,
  systemActor,
  unlinkPayment,
  ConflictError,
  ForbiddenError,
  ValidationError,
  type ServiceContext,
} from '../core/index.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { seed, type Fixture } from './helpers/fixtures.js';

// Every call of the matcher, to see what the service gives it (the matcher itself is another engineer's).
const matcherCalls = vi.hoisted(
  () =>
    [] as Array<{
      lines: Array<{ id: number; amount: number; payer?: string; source?: string }>;
      opts: MatchOptions | undefined;
    }>,
);
vi.mock('../core/reconcile/match.js', async (original) => {
  const real = await original<typeof import('../core/reconcile/match.js')>();
  return {
    ...real,
    matchReconcile: (
      reports: Parameters<typeof real.matchReconcile>[0],
      lines: Parameters<typeof real.matchReconcile>[1],
      opts?: MatchOptions,
    ) => {
      matcherCalls.push({
        lines: lines.map((l) => ({ id: l.id, amount: l.amount, payer: l.payer, source: l.source })),
        opts,
      });
      return real.matchReconcile(reports, lines, opts);
    },
  };
});

const big5 = (rows: string[]) => new Uint8Array(iconv.encode(rows.join('\r\n') + '\r\n', 'big5'));
// No 帳號 title row: the account is the one given on upload, if any.
const HEADER = ['存款交易明細', '交易日期,交易時間,摘要,支出,存入,餘額,備註,轉出入帳號'];
const count = async (t: TestDb, table: string, where: Record<string, unknown> = {}) =>
  Number(((await t.db(table).where(where).count({ n: '*' }).first()) as { n: number | string }).n);

describe.each(DB_KINDS)('payers, accounts and one-store users on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let admin: ServiceContext;
  const as = async (username: string): Promise<ServiceContext> => ({
    db: t.db,
    security: TEST_SECURITY,
    actor: await principalByUsername(t.db, username),
    ip: null,
  });
  const pay = (store: number, last_five: string, paid_at: string, amount: number) =>
    createPayment(admin, { store_id: store, last_five, paid_at, amount, note: '' });

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    admin = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    // the accountant of one store (as in the issue: `remit reconcile FILE --as tpe_acct`)
    await createUser(admin, {
      username: 'tpe_acct',
      password: 'shop-key-4821',
      role: 'user',
      store_id: f.stores.A.id,
      permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
    });
    // headquarters staff with one accessible store, and with two
    await createUser(admin, {
      username: 'hq_one',
      password: 'shop-key-4821',
      role: 'user',
      accessible_stores: [f.stores.B.id],
      permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
    });
    await createUser(admin, {
      username: 'hq_two',
      password: 'shop-key-4821',
      role: 'user',
      accessible_stores: [f.stores.A.id, f.stores.B.id],
      permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
    });
  });
  beforeEach(async () => {
    for (const table of ['reconcile_payers', 'bank_links', 'bank_lines', 'bank_statements', 'payments', 'audit_log'])
      await t.db(table).delete();
    matcherCalls.length = 0;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('month one’s confirmation teaches how the payer appears; month two’s proposals receive it; forgetting removes it', async () => {
    const acct = await as('tpe_acct');
    // October: a credit whose counterparty shows a masked account, confirmed by a person
    await importStatement(acct, {
      bytes: big5([...HEADER, '2026/10/05,10:03:00,轉入,,1500,1500,,0008 0000****12345']),
      file: '10月.csv',
      account: '0123-456-789012',
    });
    const nov = await pay(f.stores.A.id, '12345', '2026-10-05T10:00', 1500);
    const first = await proposeMatches(acct, { from: '2026-10-05', to: '2026-10-05' });
    const line = [...first.auto.map((a) => a.line), ...first.review.flatMap((r) => r.candidates.map((c) => c.line))][0];
    expect(line).toMatchObject({ payer: '00080000****12345', account: '0123-456-789012', store_id: f.stores.A.id });
    // the matcher was given each line's payer and source (the account, spaces and dashes aside)
    expect(matcherCalls.at(-1)!.lines).toEqual([
      { id: line.id, amount: 1500, payer: '00080000****12345', source: '0123456789012' },
    ]);
    expect(matcherCalls.at(-1)!.opts?.payers).toEqual([]);
    await confirmPairs(acct, [{ payment: nov.uuid, line: line.id }]);

    const learned = await listPayers(acct, { filter: {} });
    expect(learned.rows).toEqual([
      expect.objectContaining({
        store_id: f.stores.A.id,
        payer: '00080000****12345',
        last_five: '12345',
        payment: nov.uuid,
        line_id: line.id,
        learned_by: 'person',
        learned_by_username: 'tpe_acct',
      }),
    ]);
    // the confirmation's audit entry says what it taught
    const confirmed = await t
      .db('audit_log')
      .where({ action: 'reconcile', entity: 'payment', entity_id: nov.uuid })
      .first();
    expect(JSON.parse(confirmed.after).reconcile.learned).toBe('00080000****12345');

    // November: the memory of the store goes to the matcher with the new month's lines
    await importStatement(acct, {
      bytes: big5([...HEADER, '2026/11/03,09:00:00,轉入,,800,800,,陳美玲']),
      file: '11月.csv',
      account: '0123-456-789012',
    });
    await pay(f.stores.A.id, '12345', '2026-11-03T08:58', 800);
    matcherCalls.length = 0;
    await proposeMatches(acct, { from: '2026-11-03', to: '2026-11-03' });
    expect(matcherCalls[0].opts?.payers).toEqual([
      { store_id: f.stores.A.id, payer: '00080000****12345', last_five: '12345' },
    ]);
    expect(matcherCalls[0].lines.map((l) => l.payer)).toEqual(['陳美玲']);
    // an admin matching store B gets nothing of store A's memory
    matcherCalls.length = 0;
    await proposeMatches(admin, { from: '2026-11-03', to: '2026-11-03', storeId: f.stores.B.id });
    // (store B has no statement: nothing is matched at all, so nothing is passed)
    expect(matcherCalls.flatMap((c) => c.opts?.payers ?? [])).toEqual([]);

    // other stores neither see nor forget it (not found, as if it never was)
    const id = learned.rows[0].id;
    expect((await listPayers(await as('branchB'), { filter: {} })).rows).toEqual([]);
    await expect(forgetPayer(await as('branchB'), id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(forgetPayer(await as('hq_view_payments'), id)).rejects.toBeInstanceOf(ForbiddenError);
    for (const bad of ['abc', '2147483648', '-1', '1.5', null, {}])
      await expect(forgetPayer(acct, bad)).rejects.toBeInstanceOf(NotFoundError);

    const gone = await forgetPayer(acct, id);
    expect(gone).toMatchObject({ id, payer: '00080000****12345' });
    expect(await count(t, 'reconcile_payers')).toBe(0);
    const audit = await t.db('audit_log').where({ action: 'delete', entity: 'payer' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entity_id: String(id), actor_username: 'tpe_acct' });
    expect(JSON.parse(audit[0].before)).toMatchObject({
      store_id: f.stores.A.id,
      payer: '00080000****12345',
      last_five: '12345',
    });
    await expect(forgetPayer(acct, id)).rejects.toBeInstanceOf(NotFoundError);
    // forgotten: the next month's proposals no longer receive it
    matcherCalls.length = 0;
    await proposeMatches(acct, { from: '2026-11-03', to: '2026-11-03' });
    expect(matcherCalls[0].opts?.payers).toEqual([]);
  });

  it('unlinking takes back what the link taught, unless another confirmed link still teaches it', async () => {
    await importStatement(admin, {
      bytes: big5([
        ...HEADER,
        '2026/11/05,10:03:00,轉入,,1500,1500,,****12345',
        '2026/11/12,10:03:00,轉入,,700,2200,,****12345',
        '2026/11/13,10:03:00,轉入,,300,2500,,',
      ]),
      file: '11月.csv',
      storeId: f.stores.A.id,
    });
    const [l1, l2, l3] = (await listLines(admin, { filter: {} })).rows;
    const p1 = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    const p2 = await pay(f.stores.A.id, '12345', '2026-11-12T10:00', 700);
    const p3 = await pay(f.stores.A.id, '99999', '2026-11-13T10:00', 300);
    await confirmPairs(admin, [
      { payment: p1.uuid, line: l1.id },
      { payment: p2.uuid, line: l2.id },
    ]);
    // a line that names no payer teaches nothing
    await confirmPairs(admin, [{ payment: p3.uuid, line: l3.id }]);
    const [fact] = (await listPayers(admin, { filter: {} })).rows;
    expect((await listPayers(admin, { filter: {} })).total).toBe(1);
    expect(fact).toMatchObject({ payer: '****12345', last_five: '12345', payment: p2.uuid, line_id: l2.id });

    // the latest teacher unlinked: the first still teaches the same, so it stays, learned from that one
    await unlinkPayment(admin, p2.uuid);
    expect((await listPayers(admin, { filter: {} })).rows).toEqual([
      expect.objectContaining({ id: fact.id, payment: p1.uuid, line_id: l1.id }),
    ]);
    expect(await t.db('audit_log').where({ entity: 'payer', action: 'update' })).toHaveLength(1);
    // the last teacher unlinked: forgotten, and audited
    await unlinkPayment(admin, p1.uuid);
    expect(await count(t, 'reconcile_payers')).toBe(0);
    const removed = await t.db('audit_log').where({ entity: 'payer', action: 'delete' });
    expect(removed).toHaveLength(1);
    expect(JSON.parse(removed[0].before)).toMatchObject({ id: fact.id, payment: p1.uuid });
    await unlinkPayment(admin, p3.uuid);
    expect(await t.db('audit_log').where({ entity: 'payer' })).toHaveLength(2);
  });

  it('two accounts of one store keep an identical line each; overlapping downloads of one account add nothing', async () => {
    const line = '2026/11/05,10:03:00,轉入,,1500,1500,,****12345';
    const a = await importStatement(admin, {
      bytes: big5([...HEADER, line]),
      file: '中信.csv',
      storeId: f.stores.A.id,
      account: '0123-456-789012',
    });
    const b = await importStatement(admin, {
      bytes: big5([...HEADER, line]),
      file: '玉山.csv',
      storeId: f.stores.A.id,
      account: '9876-543-210000',
    });
    expect([a, b].map((s) => [s.account, s.new, s.duplicates])).toEqual([
      ['0123-456-789012', 1, 0],
      ['9876-543-210000', 1, 0],
    ]);
    // the same account again (written another way), with one more day: only the new line
    const again = await importStatement(admin, {
      bytes: big5([...HEADER, line, '2026/11/06,09:00:00,轉入,,200,1700,,']),
      file: '中信_1105-1106.csv',
      storeId: f.stores.A.id,
      account: ' 0123 456 789012 ',
    });
    expect(again).toMatchObject({ account: '0123 456 789012', new: 1, duplicates: 1 });
    const lines = (await listLines(admin, { filter: {} })).rows;
    expect(lines.map((l) => [l.file, l.account, l.amount])).toEqual([
      ['中信.csv', '0123-456-789012', 1500],
      ['玉山.csv', '9876-543-210000', 1500],
      ['中信_1105-1106.csv', '0123 456 789012', 200],
    ]);
    // the matcher learns each account's habits apart
    await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-06', storeId: f.stores.A.id });
    expect(matcherCalls.at(-1)!.lines.map((l) => l.source)).toEqual([
      '0123456789012',
      '9876543210000',
      '0123456789012',
    ]);
    // a statement that names no account keeps its old fingerprint: the store is its source
    const none = await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/07,09:00:00,轉入,,50,50,,']),
      file: 'x.csv',
      storeId: f.stores.B.id,
    });
    expect(none.account).toBeNull();
    expect(
      (
        await importStatement(admin, {
          bytes: big5([...HEADER, '2026/11/07,09:00:00,轉入,,50,50,,']),
          file: 'x.csv',
          storeId: f.stores.B.id,
        })
      ).duplicates,
    ).toBe(1);
    await proposeMatches(admin, { from: '2026-11-07', to: '2026-11-07' });
    expect(matcherCalls.at(-1)!.lines.find((l) => l.amount === 50)?.source).toBe(`store:${f.stores.B.id}`);

    for (const bad of ['1'.repeat(65), 'a\u0007b', 42]) {
      await expect(
        importStatement(admin, {
          bytes: big5([...HEADER, line]),
          file: 'bad.csv',
          storeId: f.stores.A.id,
          account: bad,
        }),
      ).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it('a one-store account imports and matches without naming its store; several stores must choose', async () => {
    const bytes = big5([...HEADER, '2026/11/05,10:03:00,轉入,,1500,1500,,****12345']);
    expect(await importStatement(await as('tpe_acct'), { bytes, file: 'a.csv' })).toMatchObject({
      store_id: f.stores.A.id,
      new: 1,
    });
    expect(
      await importStatement(await as('hq_one'), {
        bytes: big5([...HEADER, '2026/11/05,11:00:00,轉入,,900,900,,']),
        file: 'b.csv',
      }),
    ).toMatchObject({ store_id: f.stores.B.id, new: 1 });
    const err = await importStatement(await as('hq_two'), { bytes, file: 'c.csv' }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.errors[0]).toEqual({ field: 'store_id', message: '可看到多家分店的帳號必須指定對帳分店' });
    expect(await importStatement(await as('hq_two'), { bytes, file: 'c.csv', storeId: f.stores.B.id })).toMatchObject({
      store_id: f.stores.B.id,
    });
  });

  it('races through two connections: forget beside an unlink, and the same pair confirmed twice', async () => {
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:03:00,轉入,,1500,1500,,****12345']),
      file: 'r.csv',
      storeId: f.stores.A.id,
    });
    const [l] = (await listLines(admin, { filter: {} })).rows;
    const p = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    const other = openDatabase(t.config);
    try {
      const second: ServiceContext = { ...admin, db: other };
      for (let round = 0; round < 4; round++) {
        // the same pair confirmed twice at once: one link, one memory
        const confirms = await Promise.allSettled([
          confirmPairs(admin, [{ payment: p.uuid, line: l.id }]),
          confirmPairs(second, [{ payment: p.uuid, line: l.id }]),
        ]);
        expect(confirms.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect((confirms.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(
          ConflictError,
        );
        expect(await count(t, 'bank_links')).toBe(1);
        expect(await count(t, 'reconcile_payers')).toBe(1);
        const [fact] = (await listPayers(admin, { filter: {} })).rows;
        // forget beside an unlink: gone either way, removed (and audited) exactly once
        const auditsBefore = await count(t, 'audit_log', { entity: 'payer' });
        const [forgot, unlinked] = await Promise.allSettled(
          round % 2
            ? [forgetPayer(second, fact.id), unlinkPayment(admin, p.uuid)]
            : [forgetPayer(admin, fact.id), unlinkPayment(second, p.uuid)],
        );
        expect(unlinked.status).toBe('fulfilled');
        if (forgot.status === 'rejected') expect(forgot.reason).toBeInstanceOf(NotFoundError);
        expect(await count(t, 'reconcile_payers')).toBe(0);
        expect(await count(t, 'bank_links')).toBe(0);
        expect(await count(t, 'audit_log', { entity: 'payer' })).toBe(auditsBefore + 1);
      }
    } finally {
      await other.destroy();
    }
  });
});
