/**
 * 銀行有款無回報 over HTTP: a payment made from a credit no report explains, a credit linked to a
 * report found by hand, who may do either, and two of them racing for one line, on one instance
 * and on two sharing the database.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { clearReconcile, reportTransfer, uploadStatement } from '../helpers/reconcileApi.js';
import { listParams, secondInstance, startTestServer, type TestServer } from '../helpers/server.js';

const statement = (rows: string[]) =>
  iconv.encode(
    ['國泰世華銀行 交易明細', '交易日期,交易時間,轉出,轉入,餘額,說明,帳號,備註', ...rows].join('\r\n') + '\r\n',
    'big5',
  );
const TAKEN = '這筆入帳已連結到其他匯款記錄，請重新比對';

describe.each(DB_KINDS)('銀行有款無回報 actions on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());
  beforeEach(() => clearReconcile(s));

  const upload = (as: string, file: string, bytes: Buffer, store?: number) =>
    uploadStatement(s, as, file, bytes, store);
  const pay = (last_five: string, paid_at: string, amount: number, store = s.stores.A.id, note = '') =>
    reportTransfer(s, last_five, paid_at, amount, store, note);
  const unreported = async (as = 'branchA') =>
    (await s.api('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-06', { as })).body;
  const lineOf = async (amount: number) =>
    ((await s.api('GET', '/reconcile/lines', { as: 'admin' })).body as any[]).find((l) => l.amount === amount);

  it('建立匯款記錄: a credit of store A becomes a 已入帳 payment of A linked to it, 來源 銀行對帳, audited; it leaves the queue', async () => {
    await upload(
      'admin',
      'nov.csv',
      statement(['20261105,100200,,1500,1500,跨行轉入,900047****12345,', '20261105,153000,,800,2300,現金存款,,']),
      s.stores.A.id,
    );
    const before = await unreported();
    expect(before.unreported.map((u: any) => u.line.amount).sort()).toEqual([1500, 800].sort());
    expect(before.page.total.unreported).toBe(2);
    const line = before.unreported.find((u: any) => u.line.amount === 1500).line;

    const made = await s.api('POST', '/reconcile/from-line', {
      as: 'branchA',
      body: { line: line.id, note: '跨行轉入 900047****12345' },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      store_id: s.stores.A.id,
      last_five: '12345',
      amount: 1500,
      paid_at: line.at,
      status: '已入帳',
      method: '匯款',
      source: 'bank',
      bank_line_id: line.id,
      note: '跨行轉入 900047****12345',
    });

    const after = await unreported();
    expect(after.unreported.map((u: any) => u.line.amount)).toEqual([800]);
    expect(after.page.total.unreported).toBe(1);
    const listed = (await s.api('GET', `/payments${listParams({ filter: { source: 'bank' } })}`, { as: 'branchA' }))
      .body;
    expect(listed.map((p: any) => [p.uuid, p.status, p.bank_line_id])).toEqual([[made.body.uuid, '已入帳', line.id]]);
    const audit = (
      await s.api('GET', `/audit${listParams({ filter: { entity: 'payment', entity_id: made.body.uuid } })}`, {
        as: 'admin',
      })
    ).body;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'create',
      actor_username: 'branchA',
      after: {
        source: 'bank',
        status: '已入帳',
        bank_line_id: line.id,
        reconcile: { by: 'person', line: { id: line.id, amount: 1500 } },
      },
    });
    // 取消對帳 puts it where a report starts
    expect(
      (await s.api('POST', '/reconcile/unlink', { as: 'branchA', body: { payment: made.body.uuid } })).body,
    ).toMatchObject({ status: '未確認', bank_line_id: null });
  });

  it('a line that shows fewer than five digits asks for the last five, as the form does; a statement for every store asks for the store', async () => {
    await upload('admin', 'all.csv', statement(['20261105,100200,,1500,1500,跨行轉入,****7012,']));
    const line = await lineOf(1500);
    const ask = (as: string, body: Record<string, unknown>) =>
      s.api('POST', '/reconcile/from-line', { as, body: { line: line.id, ...body } });
    const none = await ask('branchA', { store_id: s.stores.A.id });
    // branchA sees only its store's statements: a statement for every store is headquarters'
    expect(none.status).toBe(404);
    const missing = await ask('admin', { store_id: s.stores.A.id });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'last_five', message: '請輸入帳號後五碼' }]);
    expect((await ask('admin', { store_id: s.stores.A.id, last_five: '7012' })).body.errors).toEqual([
      { field: 'last_five', message: '帳號後五碼必須是5位數字' },
    ]);
    expect((await ask('admin', { last_five: '97012' })).body.errors).toEqual([
      { field: 'store_id', message: '可看到多家分店的帳號必須指定對帳分店' },
    ]);
    expect((await ask('hq_view_payments', { store_id: s.stores.A.id, last_five: '97012' })).status).toBe(403);
    expect(await s.t.db('payments')).toHaveLength(0);
    const made = await ask('admin', { store_id: s.stores.B.id, last_five: '97012' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ store_id: s.stores.B.id, last_five: '97012', source: 'bank', status: '已入帳' });
    const again = await ask('admin', { store_id: s.stores.A.id, last_five: '97012' });
    expect([again.status, again.body.message]).toEqual([409, TAKEN]);
  });

  it('a line of store A’s statement makes a payment of A only', async () => {
    await upload('admin', 'a.csv', statement(['20261105,100200,,1500,1500,跨行轉入,900047****12345,']), s.stores.A.id);
    const line = await lineOf(1500);
    const other = await s.api('POST', '/reconcile/from-line', {
      as: 'admin',
      body: { line: line.id, store_id: s.stores.B.id },
    });
    expect([other.status, other.body.errors]).toEqual([
      400,
      [{ field: 'store_id', message: `銀行明細 ${line.id} 屬於其他分店的對帳單` }],
    ]);
    expect((await s.api('POST', '/reconcile/from-line', { as: 'branchB', body: { line: line.id } })).status).toBe(404);
    expect(await s.t.db('payments')).toHaveLength(0);
  });

  it('連結到回報: the reports the line could pay, its amount and nearest time first, searchable; linking confirms the pair', async () => {
    await upload(
      'admin',
      'nov.csv',
      statement(['20261105,100200,,1500,1500,跨行轉入,900047****99999,']),
      s.stores.A.id,
    );
    const far = await pay('11111', '2026-11-01T10:00', 1500);
    const near = await pay('22222', '2026-11-05T09:00', 1500, s.stores.A.id, '王小明 訂單');
    const otherAmount = await pay('33333', '2026-11-05T10:00', 1600);
    await pay('44444', '2026-11-05T10:00', 1500, s.stores.B.id); // another store's: never offered
    const line = await lineOf(1500);
    const found = await s.api('GET', `/reconcile/lines/${line.id}/reports`, { as: 'branchA' });
    expect(found.status, found.text).toBe(200);
    expect(found.body.line.id).toBe(line.id);
    expect(found.body.reports.map((p: any) => p.uuid)).toEqual([near.uuid, far.uuid, otherAmount.uuid]);
    const byNote = await s.api('GET', `/reconcile/lines/${line.id}/reports?q=${encodeURIComponent('王小明')}`, {
      as: 'branchA',
    });
    expect(byNote.body.reports.map((p: any) => p.uuid)).toEqual([near.uuid]);
    const byFive = await s.api('GET', `/reconcile/lines/${line.id}/reports?q=111`, { as: 'branchA' });
    expect(byFive.body.reports.map((p: any) => p.uuid)).toEqual([far.uuid]);
    expect((await s.api('GET', `/reconcile/lines/${line.id}/reports`, { as: 'hq_view_payments' })).status).toBe(403);
    expect((await s.api('GET', `/reconcile/lines/${line.id}/reports`, { as: 'branchB' })).status).toBe(404);

    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          as: 'branchA',
          body: { pairs: [{ payment: far.uuid, line: line.id }] },
        })
      ).body,
    ).toEqual({ confirmed: 1 });
    expect(
      (await s.api('GET', `/payments${listParams({ filter: { id: far.uuid } })}`, { as: 'branchA' })).body,
    ).toMatchObject([{ status: '已入帳', bank_line_id: line.id }]);
    const taken = await s.api('GET', `/reconcile/lines/${line.id}/reports`, { as: 'branchA' });
    expect([taken.status, taken.body.message]).toEqual([409, TAKEN]);
    const twice = await s.api('POST', '/reconcile/confirm', {
      as: 'branchA',
      body: { pairs: [{ payment: near.uuid, line: line.id }] },
    });
    expect([twice.status, twice.body.message]).toEqual([409, `銀行明細 ${line.id} 已與其他匯款對帳`]);
  });

  it('two 建立匯款記錄 of one line at once, on one instance and on two: one payment, the other told why', async () => {
    const second = await secondInstance(s);
    try {
      for (let round = 0; round < 3; round++) {
        await s.t.db('bank_links').delete();
        await s.t.db('payments').delete();
        await s.t.db('bank_lines').delete();
        await upload(
          'admin',
          `race${round}.csv`,
          statement([`20261105,10020${round},,1500,1500,跨行轉入,900047****12345,`]),
          s.stores.A.id,
        );
        const line = await lineOf(1500);
        const send = (base: string) =>
          fetch(`${base}/reconcile/from-line`, {
            method: 'POST',
            headers: { authorization: `Bearer ${s.tokens.branchA}`, 'content-type': 'application/json' },
            body: JSON.stringify({ line: line.id }),
          }).then(async (r) => ({ status: r.status, body: await r.json() }));
        const bases = round === 0 ? [`${s.url}/api`, `${s.url}/api`] : [`${s.url}/api`, second.url];
        const both = await Promise.all(bases.map(send));
        expect(both.map((b) => b.status).sort()).toEqual([201, 409]);
        expect(both.find((b) => b.status === 409)!.body.message).toBe(TAKEN);
        expect(await s.t.db('payments')).toHaveLength(1);
        expect(await s.t.db('bank_links').where({ line_id: line.id })).toHaveLength(1);
        // a payment made from the line racing a confirmation of a report to it: one link
        await s.t.db('bank_links').delete();
        await s.t.db('payments').delete();
        const report = await pay('12345', '2026-11-05T10:00', 1500);
        const confirm = fetch(`${second.url}/reconcile/confirm`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.tokens.branchA}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pairs: [{ payment: report.uuid, line: line.id }] }),
        }).then((r) => r.status);
        const [made, confirmed] = await Promise.all([send(`${s.url}/api`), confirm]);
        // exactly one wins; the other is refused, never a second link
        expect([made.status === 201, confirmed === 200].filter(Boolean)).toHaveLength(1);
        expect([made.status, confirmed], String(s.errors.map((e: any) => e?.stack ?? e))).toContain(409);
        expect(await s.t.db('bank_links').where({ line_id: line.id })).toHaveLength(1);
        expect(await s.t.db('payments')).toHaveLength(made.status === 201 ? 2 : 1);
      }
    } finally {
      await second.close();
    }
  });
});
