/**
 * only a transfer (匯款) takes part in reconciliation. A 現金 and a 刷卡 payment of the
 * same store, amount and minute as a bank credit (one of them even set back to 未確認, so only its
 * method keeps it out) are never proposed, never confirmed (by a person or by the automatic run
 * applying its own proposals), never listed as unpaid: the credit stays 銀行有款無回報 until the
 * transfer is reported, then matches that transfer alone. On SQLite, and PostgreSQL when configured.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmPairs,
  createPayment,
  importStatement,
  listPayments,
  markUnpaid,
  proposeForPeriod,
  proposeMatches,
  systemActor,
  updatePayment,
  ValidationError,
  type Payment,
  type Proposals,
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

/** every payment a set of proposals names, in any queue */
function proposed(p: Proposals): string[] {
  return [
    ...p.auto.map((a) => a.payment.uuid),
    ...p.review.flatMap((r) => [r.payment.uuid]),
    ...p.reviewLines.flatMap((r) => r.candidates.map((c) => c.payment.uuid)),
    ...p.unpaid.map((u) => u.payment.uuid),
    ...p.suggestions.flatMap((s) => s.payments.map((x) => x.uuid)),
  ];
}

describe.each(DB_KINDS)('reconciliation leaves takings in hand alone on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let admin: ServiceContext;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    admin = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('a 現金 and a 刷卡 payment beside a bank credit of the same amount and time: never proposed, confirmed or unpaid; the credit waits for the transfer', async () => {
    const A = f.stores.A.id;
    // the bank credit: NT$1,500 at 10:02 on 11-05, from an account ending 12345
    await importStatement(admin, {
      bytes: big5([...HEADER, '2026/11/05,10:02:00,跨行轉入,,1500,1500,,900047****12345']),
      file: 'nov.csv',
      storeId: A,
    });
    const sale = (method: string) =>
      createPayment(admin, { method, store_id: A, paid_at: '2026-11-05T10:02', amount: 1500, note: '' });
    const cash = await sale('現金');
    const card = await sale('刷卡');
    expect([cash.status, card.status, cash.last_five, card.last_five]).toEqual(['已入帳', '已入帳', '', '']);
    // set back to 未確認 by hand: its method alone must keep it out of every queue
    expect(await updatePayment(admin, cash.uuid, { status: '未確認' })).toMatchObject({
      method: '現金',
      status: '未確認',
    });
    const inHand = [cash.uuid, card.uuid];

    // no transfer reported: the credit is 銀行有款無回報, and neither sale is named anywhere
    const before = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05' });
    expect(proposed(before)).toEqual([]);
    expect(before.unreported.map((u) => [u.line.amount, u.line.digits])).toEqual([[1500, '12345']]);
    const line = before.unreported[0].line;
    // the CLI's period proposals say the same
    const cli = await proposeForPeriod(admin, '2026-11-05', '2026-11-05');
    expect(proposed(cli)).toEqual([]);
    expect(cli.unreported.map((u) => u.line.id)).toEqual([line.id]);

    // confirming or marking one by hand is refused with the reason, and nothing changes
    for (const p of [cash, card] as Payment[]) {
      const refused = await confirmPairs(admin, [{ payment: p.uuid, line: line.id }]).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).errors[0]).toMatchObject({
        code: 'reconcile_not_transfer',
        message: `只有匯款參與對帳：這筆是${p.method}，已入帳`,
      });
      await expect(markUnpaid(admin, [p.uuid])).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [{ code: 'reconcile_not_transfer' }],
      });
    }
    const linkedCount = async () => Number((await t.db('bank_links').count({ n: '*' }).first())!.n);
    expect(await linkedCount()).toBe(0);

    // the transfer is reported: it, and it alone, matches the credit, and the automatic run confirms it alone
    const transfer = await createPayment(admin, {
      store_id: A,
      last_five: '12345',
      paid_at: '2026-11-05T10:00',
      amount: 1500,
      note: '',
    });
    const after = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05' });
    expect(after.auto.map((a) => [a.payment.uuid, a.line.id])).toEqual([[transfer.uuid, line.id]]);
    expect(after.unreported).toEqual([]);
    for (const id of inHand) expect(proposed(after)).not.toContain(id);
    expect(
      await confirmPairs(
        admin,
        after.auto.map((a) => ({ payment: a.payment.uuid, line: a.line.id, score: a.score, reasons: a.reasons })),
        { auto: true },
      ),
    ).toEqual({ confirmed: 1 });

    const listed = await listPayments(admin, { filter: {} });
    const state = (uuid: string) => listed.rows.find((p) => p.uuid === uuid);
    expect(state(transfer.uuid)).toMatchObject({ status: '已入帳', bank_line_id: line.id });
    expect(state(cash.uuid)).toMatchObject({ method: '現金', status: '未確認', bank_line_id: null });
    expect(state(card.uuid)).toMatchObject({ method: '刷卡', status: '已入帳', bank_line_id: null });
    // afterwards: nothing left to propose, the sales still in no queue
    const done = await proposeMatches(admin, { from: '2026-11-05', to: '2026-11-05' });
    expect(proposed(done)).toEqual([]);
    expect(done.unreported).toEqual([]);
    expect(await linkedCount()).toBe(1);
  });
});
