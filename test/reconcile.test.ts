/**
 * The reconciliation service on a real database (SQLite, and PostgreSQL when configured):
 * idempotent statement imports, scope, proposals, decisions, their audit, and races.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  confirmPairs,
  createPayment,
  createUser,
  importStatement,
  listLines,
  listPayments,
  markUnpaid,
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

const big5 = (rows: string[]) => new Uint8Array(iconv.encode(rows.join('\r\n') + '\r\n', 'big5'));
const HEADER = [
  '中國信託商業銀行 存款交易明細',
  '帳號：123-456789-012',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,轉出入帳號',
];

describe.each(DB_KINDS)('reconciliation service on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let admin: ServiceContext;
  const as = async (username: string): Promise<ServiceContext> => ({
    db: t.db,
    security: TEST_SECURITY,
    actor: await principalByUsername(t.db, username),
    ip: null,
  });

  // one database per file; each test starts from no statements, payments or audit entries
  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    admin = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    // a branch manager of store A who may import statements
    await createUser(admin, {
      username: 'mgrA',
      password: 'shop-key-4821',
      role: 'user',
      store_id: f.stores.A.id,
      permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
    });
  });
  beforeEach(async () => {
    for (const table of ['bank_links', 'bank_lines', 'bank_statements', 'payments', 'audit_log'])
      await t.db(table).delete();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  const pay = (store: number, last_five: string, paid_at: string, amount: number) =>
    createPayment(admin, { store_id: store, last_five, paid_at, amount, note: '' });

  it("stores at most 2 000 characters of a line's 摘要 and 備註, and still knows the line again", async () => {
    const note = '備'.repeat(5_000);
    const file = big5([...HEADER, `2026/11/05,10:00:00,${'摘'.repeat(3_000)},,1500,1500,${note},`]);
    expect(await importStatement(admin, { bytes: file, file: 'long.csv' })).toMatchObject({ new: 1 });
    const [line] = await t.db('bank_lines').select('summary', 'note');
    expect([line.summary.length, line.note.length]).toEqual([2_000, 2_000]);
    expect(await importStatement(admin, { bytes: file, file: 'long.csv' })).toMatchObject({ new: 0, duplicates: 1 });
  });

  it('imports a statement once: the same or an overlapping download adds only the new lines', async () => {
    const first = await importStatement(admin, {
      bytes: big5([
        ...HEADER,
        '2026/11/05,10:00:00,轉入,,1500,1500,,900047****12345',
        '2026/11/05,11:00:00,轉入,,800,2300,,',
      ]),
      file: '中信_1105.csv',
    });
    expect(first).toMatchObject({
      file: '中信_1105.csv',
      lines: 2,
      credits: 2,
      new: 2,
      duplicates: 0,
      from: '2026-11-05',
      to: '2026-11-05',
      encoding: 'big5',
      balance_breaks: 0,
    });
    expect(first.columns).toMatchObject({
      date: '交易日期',
      time: '交易時間',
      credit: '存入',
      counterparty: '轉出入帳號',
    });
    const again = await importStatement(admin, {
      bytes: big5([
        ...HEADER,
        '2026/11/05,10:00:00,轉入,,1500,1500,,900047****12345',
        '2026/11/05,11:00:00,轉入,,800,2300,,',
        '2026/11/06,09:00:00,提款,300,,2000,,',
      ]),
      file: '中信_1105-1106.csv',
    });
    expect(again).toMatchObject({ lines: 3, new: 1, duplicates: 2, to: '2026-11-06' });
    const all = await listLines(admin, { filter: {} });
    expect(all.total).toBe(3);
    expect(all.rows.map((l) => [l.file, l.row, l.amount, l.digits])).toEqual([
      ['中信_1105.csv', 4, 1500, '12345'],
      ['中信_1105.csv', 5, 800, ''],
      ['中信_1105-1106.csv', 6, -300, ''],
    ]);
    const audit = await t.db('audit_log').where({ action: 'import', entity: 'statement' }).count({ n: '*' }).first();
    expect(Number(audit!.n)).toBe(2);
  });

  it('writes nothing for a bad file and says which file and row', async () => {
    const err = await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:00:00,轉入,,1500,1500,,', '2026/02/30,10:00:00,轉入,,1,1501,,']),
      file: 'bad.csv',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.errors[0].message).toBe('bad.csv 第 5 行：無法辨識的日期「2026/02/30」');
    expect(Number((await t.db('bank_lines').count({ n: '*' }).first())!.n)).toBe(0);
    expect(Number((await t.db('bank_statements').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('keeps each store to its own lines and proposals', async () => {
    const mgrA = await as('mgrA');
    const branchB = await as('branchB');
    // a branch user whose scope is one store imports for it without naming it, never for all stores
    expect(
      await importStatement(mgrA, {
        bytes: big5([...HEADER, '2026/11/05,10:00:00,轉入,,1500,1500,,****12345']),
        file: 'a.csv',
      }),
    ).toMatchObject({ store_id: f.stores.A.id, new: 1 });
    await expect(
      importStatement(mgrA, {
        bytes: big5([...HEADER, '2026/11/05,10:00:00,轉入,,1500,1500,,']),
        file: 'a.csv',
        storeId: f.stores.B.id,
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      importStatement(branchB, {
        bytes: big5([...HEADER, '2026/11/05,10:00:00,轉入,,1500,1500,,']),
        file: 'b.csv',
        storeId: f.stores.B.id,
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);

    await importStatement(mgrA, {
      bytes: big5([...HEADER, '2026/11/05,10:00:00,轉入,,1500,1500,,****12345']),
      file: 'a.csv',
      storeId: f.stores.A.id,
    });
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:05:00,轉入,,2500,2500,,****54321']),
      file: 'b.csv',
      storeId: f.stores.B.id,
    });
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:09:00,轉入,,900,900,,****11111']),
      file: 'hq.csv',
    });
    await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    await pay(f.stores.B.id, '54321', '2026-11-05T10:05', 2500);

    expect((await listLines(mgrA, { filter: {} })).rows.map((l) => l.file)).toEqual(['a.csv']);
    expect((await listLines(branchB, { filter: {} })).rows.map((l) => l.file)).toEqual(['b.csv']);
    expect((await listLines(admin, { filter: {} })).rows.map((l) => l.file)).toEqual(['a.csv', 'b.csv', 'hq.csv']);

    const propA = await proposeMatches(mgrA, { from: '2026-11-05', to: '2026-11-05' });
    const shown = JSON.stringify(propA);
    expect(propA.auto.map((a) => [a.payment.last_five, a.line.file])).toEqual([['12345', 'a.csv']]);
    expect(shown).not.toContain('b.csv');
    expect(shown).not.toContain('hq.csv');
    expect(shown).not.toContain('54321');
    // asking for another store's proposals gets nothing of it
    const asked = await proposeMatches(mgrA, { from: '2026-11-05', to: '2026-11-05', storeId: f.stores.B.id });
    expect([...asked.auto, ...asked.review, ...asked.unpaid, ...asked.unreported]).toEqual([]);
    // an admin asking for store B gets B's lines and the all-stores statement
    const propB = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05', storeId: f.stores.B.id });
    expect(propB.auto.map((a) => a.line.file)).toEqual(['b.csv']);
    expect(propB.unreported.map((u) => u.line.file)).toEqual(['hq.csv']);
    // nor can a branch user confirm another store's payment
    const pB = propB.auto[0];
    await expect(confirmPairs(mgrA, [{ payment: pB.payment.uuid, line: pB.line.id }])).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });

  it('a line of one store’s statement pays only that store’s payments, even for someone who sees all', async () => {
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:02:00,轉入,,1500,1500,,****12345']),
      file: 'a.csv',
      storeId: f.stores.A.id,
    });
    await importStatement(admin, { bytes: big5([...HEADER, '2026/11/05,10:03:00,轉入,,800,800,,']), file: 'hq.csv' });
    const pB = await pay(f.stores.B.id, '12345', '2026-11-05T10:00', 1500); // store B reports what came into store A's account
    const pB2 = await pay(f.stores.B.id, '33333', '2026-11-05T10:00', 800);
    const all = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05' });
    expect(all.auto.map((a) => [a.payment.uuid, a.line.file])).toEqual([[pB2.uuid, 'hq.csv']]);
    expect(JSON.stringify(all.review)).not.toContain(pB.uuid);
    expect(all.unreported.map((u) => u.line.file)).toEqual(['a.csv']);
    const lineA = (await listLines(admin, { filter: {} })).rows.find((l) => l.file === 'a.csv')!;
    const err = await confirmPairs(admin, [{ payment: pB.uuid, line: lineA.id }]).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.errors[0].message).toBe(`銀行明細 ${lineA.id} 屬於其他分店的對帳單`);
    expect(await t.db('bank_links')).toEqual([]);
  });

  it('confirms, never proposes a confirmed pair again, marks unpaid, and unlinks back to the status before; all audited', async () => {
    await importStatement(admin, {
      bytes: big5([
        ...HEADER,
        '2026/11/03,10:00:00,提款,100,,0,,',
        '2026/11/05,10:02:00,跨行轉入,,1500,1500,,900047****12345',
        '2026/11/06,09:00:00,轉入,,700,2200,,****99999',
        '2026/11/09,09:00:00,轉入,,50,2250,,',
      ]),
      file: 'nov.csv',
      storeId: f.stores.A.id,
    });
    const p1 = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    const p2 = await pay(f.stores.A.id, '22222', '2026-11-05T12:00', 4000);
    const prop = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05' });
    expect(prop.auto).toHaveLength(1);
    expect(prop.auto[0].payment).toMatchObject({ uuid: p1.uuid, bank_line_id: null });
    expect(prop.auto[0].line).toMatchObject({ file: 'nov.csv', row: 5, amount: 1500, digits: '12345', has_time: true });
    expect(prop.auto[0].reasons.length).toBeGreaterThan(0);
    expect(prop.unpaid.map((u) => u.payment.uuid)).toEqual([p2.uuid]);

    const editor = await as('branchA');
    expect(await confirmPairs(editor, [{ payment: p1.uuid, line: prop.auto[0].line.id }])).toEqual({ confirmed: 1 });
    const listed = await listPayments(admin, { filter: {} });
    expect(listed.rows.find((p) => p.uuid === p1.uuid)).toMatchObject({
      status: '已入帳',
      bank_line_id: prop.auto[0].line.id,
    });
    expect(listed.rows.find((p) => p.uuid === p2.uuid)).toMatchObject({ status: '未確認', bank_line_id: null });
    const after = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05' });
    expect(JSON.stringify(after)).not.toContain(p1.uuid);
    expect((await listLines(admin, { filter: { matched: true } })).rows.map((l) => l.payment)).toEqual([p1.uuid]);
    expect((await listLines(admin, { filter: { matched: false } })).total).toBe(3);

    const audit = await t.db('audit_log').where({ action: 'reconcile', entity_id: p1.uuid }).first();
    const entry = JSON.parse(audit.after);
    expect(entry.status).toBe('已入帳');
    expect(entry.reconcile).toMatchObject({ by: 'person', score: prop.auto[0].score, reasons: prop.auto[0].reasons });
    expect(audit.actor_username).toBe('branchA');

    // unpaid: 未入帳; a linked payment must be unlinked first
    expect(await markUnpaid(editor, [p2.uuid])).toEqual({ marked: 1 });
    await expect(markUnpaid(editor, [p1.uuid])).rejects.toBeInstanceOf(ConflictError);
    expect((await listPayments(admin, { filter: { status: ['未入帳'] } })).rows.map((p) => p.uuid)).toEqual([p2.uuid]);

    const back = await unlinkPayment(editor, p1.uuid);
    expect(back).toMatchObject({ uuid: p1.uuid, status: '未確認', bank_line_id: null });
    await expect(unlinkPayment(editor, p1.uuid)).rejects.toBeInstanceOf(ConflictError);
    expect((await t.db('audit_log').where({ action: 'unreconcile', entity_id: p1.uuid })).length).toBe(1);
  });

  it('refuses a pair whose amounts differ, a debit, and decisions without edit_payments', async () => {
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:02:00,轉入,,1500,1500,,', '2026/11/05,10:03:00,提款,100,,1400,,']),
      file: 'x.csv',
    });
    const p = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1400);
    const lines = (await listLines(admin, { filter: {} })).rows;
    await expect(confirmPairs(admin, [{ payment: p.uuid, line: lines[0].id }])).rejects.toThrow(ValidationError);
    await expect(confirmPairs(admin, [{ payment: p.uuid, line: lines[1].id }])).rejects.toThrow(ValidationError);
    await expect(
      confirmPairs(await as('hq_view_payments'), [{ payment: p.uuid, line: lines[0].id }]),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      importStatement(await as('branchA'), {
        bytes: big5([...HEADER, '2026/11/05,10:02:00,轉入,,1,1,,']),
        file: 'y.csv',
        storeId: f.stores.A.id,
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('of concurrent confirmations of the same payment or the same line, through two connections, exactly one wins', async () => {
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:02:00,轉入,,1500,1500,,', '2026/11/05,10:04:00,轉入,,1500,3000,,']),
      file: 'race.csv',
    });
    const [l1, l2] = (await listLines(admin, { filter: {} })).rows;
    const p1 = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    const p2 = await pay(f.stores.A.id, '54321', '2026-11-05T10:01', 1500);
    const other = openDatabase(t.config); // a second API instance on the same database
    try {
      const second: ServiceContext = { ...admin, db: other };
      for (let round = 0; round < 3; round++) {
        // the same payment to two lines, then two payments to the same line
        const results = await Promise.allSettled(
          round % 2 === 0
            ? [
                confirmPairs(admin, [{ payment: p1.uuid, line: l1.id }]),
                confirmPairs(second, [{ payment: p1.uuid, line: l2.id }]),
              ]
            : [
                confirmPairs(admin, [{ payment: p1.uuid, line: l1.id }]),
                confirmPairs(second, [{ payment: p2.uuid, line: l1.id }]),
              ],
        );
        expect(
          results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok')).filter((r) => r === 'ok'),
        ).toHaveLength(1);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason).toBeInstanceOf(ConflictError);
        expect(Number((await t.db('bank_links').count({ n: '*' }).first())!.n)).toBe(1);
        const linked = (await t.db('bank_links').first()).payment_uuid as string;
        await unlinkPayment(admin, linked);
      }
    } finally {
      await other.destroy();
    }
  });

  it('marking unpaid beside a confirmation of the same payment, through two connections: the result is one of the two orders', async () => {
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:02:00,轉入,,1500,1500,,']),
      file: 'race2.csv',
    });
    const [l1] = (await listLines(admin, { filter: {} })).rows;
    const p = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    const other = openDatabase(t.config);
    try {
      const second: ServiceContext = { ...admin, db: other };
      for (let round = 0; round < 12; round++) {
        const [marked, confirmed] = await Promise.allSettled([
          markUnpaid(second, [p.uuid]),
          confirmPairs(admin, [{ payment: p.uuid, line: l1.id }]),
        ]);
        // confirming never loses: the payment is free either way
        expect(confirmed.status).toBe('fulfilled');
        const link = await t.db('bank_links').where({ payment_uuid: p.uuid }).first();
        const row = await t.db('payments').where({ uuid: p.uuid }).first();
        expect(row.status).toBe('已入帳');
        if (marked.status === 'fulfilled') {
          // marked first, then confirmed: unlinking must bring back 未入帳, not the status before the mark
          expect(link.status_before).toBe('未入帳');
        } else {
          expect(marked.reason).toBeInstanceOf(ConflictError);
          expect(link.status_before).toBe('未確認');
        }
        await unlinkPayment(admin, p.uuid);
        await t.db('payments').where({ uuid: p.uuid }).update({ status: '未確認' });
      }
    } finally {
      await other.destroy();
    }
  });

  it('unlinking beside a confirmation of the same payment to another line, through two connections: never two links, the status follows the link', async () => {
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:02:00,轉入,,1500,1500,,', '2026/11/05,10:04:00,轉入,,1500,3000,,']),
      file: 'race3.csv',
    });
    const [l1, l2] = (await listLines(admin, { filter: {} })).rows;
    const p = await pay(f.stores.A.id, '12345', '2026-11-05T10:00', 1500);
    const other = openDatabase(t.config);
    try {
      const second: ServiceContext = { ...admin, db: other };
      for (let round = 0; round < 12; round++) {
        await confirmPairs(admin, [{ payment: p.uuid, line: l1.id }]);
        const [unlinked, confirmed] = await Promise.allSettled([
          unlinkPayment(second, p.uuid),
          confirmPairs(admin, [{ payment: p.uuid, line: l2.id }]),
        ]);
        expect(unlinked.status).toBe('fulfilled');
        const links = await t.db('bank_links').where({ payment_uuid: p.uuid });
        const row = await t.db('payments').where({ uuid: p.uuid }).first();
        if (confirmed.status === 'fulfilled') {
          // unlinked first, then linked to the other line
          expect(links.map((l: any) => Number(l.line_id))).toEqual([l2.id]);
          expect(links[0].status_before).toBe('未確認');
          expect(row.status).toBe('已入帳');
          await unlinkPayment(admin, p.uuid);
        } else {
          expect(confirmed.reason).toBeInstanceOf(ConflictError);
          expect(links).toEqual([]);
          expect(row.status).toBe('未確認');
        }
      }
    } finally {
      await other.destroy();
    }
  });
});
