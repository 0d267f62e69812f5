/** Reconciliation over HTTP: the calls the 對帳 page makes, with their shapes, permissions and races between two API instances. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../http/app.js';
import { openDatabase } from '../../core/index.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { repeatedEntry, xlsxWith, SHEET_PREFIX, SHEET_SUFFIX } from '../helpers/zip.js';
import { clearReconcile, reportTransfer, uploadStatement } from '../helpers/reconcileApi.js';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const statement = (rows: string[]) =>
  iconv.encode(
    ['國泰世華銀行 交易明細', '交易日期,交易時間,轉出,轉入,餘額,說明,帳號,備註', ...rows].join('\r\n') + '\r\n',
    'big5',
  );
const OCTET = { 'content-type': 'application/octet-stream' };

describe.each(DB_KINDS)('reconciliation API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());
  beforeEach(() => clearReconcile(s));

  const upload = (as: string, file: string, bytes: Buffer, store?: number) =>
    uploadStatement(s, as, file, bytes, store);
  const pay = (last_five: string, paid_at: string, amount: number, store = s.stores.A.id) =>
    reportTransfer(s, last_five, paid_at, amount, store);

  it('uploads a Big5 statement: 201 with what was read; again: nothing new', async () => {
    const bytes = statement([
      '20261105,140322,,1500,9500,ATM轉帳,0130000123412345,',
      '20261105,150000,500,,9000,提款,,',
    ]);
    const r = await upload('admin', '國泰_1105.csv', bytes);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      statement: {
        id: expect.any(Number),
        file: '國泰_1105.csv',
        store_id: null,
        account: null,
        lines: 2,
        credits: 1,
        new: 2,
        duplicates: 0,
        from: '2026-11-05',
        to: '2026-11-05',
        encoding: 'big5',
        balance_breaks: 0,
        skipped_rows: 0,
        columns: {
          date: '交易日期',
          time: '交易時間',
          debit: '轉出',
          credit: '轉入',
          balance: '餘額',
          summary: '說明',
          counterparty: '帳號',
          note: '備註',
        },
      },
    });
    const again = await upload('admin', '國泰_1105.csv', bytes);
    expect(again.body.statement).toMatchObject({ new: 0, duplicates: 2 });

    const lines = await s.api('GET', `/reconcile/lines${listParams({ sort: ['at', 'ASC'], range: [0, 9] })}`, {
      as: 'admin',
    });
    expect(lines.headers.get('content-range')).toBe('reconcile/lines 0-1/2');
    expect(lines.body[0]).toEqual({
      id: expect.any(Number),
      statement_id: r.body.statement.id,
      file: '國泰_1105.csv',
      row: 3,
      at: '2026-11-05T06:03:22.000Z',
      has_time: true,
      amount: 1500,
      balance: 9500,
      summary: 'ATM轉帳',
      note: '',
      counterparty: '0130000123412345',
      digits: '12345',
      payer: '130000123412345', // a whole account without its leading zeros, as a re-saved file would show it
      account: null,
      store_id: null,
      payment: null,
    });
  });

  it('a statement of 5 001 lines, read on a matcher thread and sent back in parts, is stored whole and in order; again: all duplicates', async () => {
    const clock = (i: number) =>
      [8 + Math.floor((i * 10) / 3600), Math.floor((i * 10) / 60) % 60, (i * 10) % 60]
        .map((n) => String(n).padStart(2, '0'))
        .join('');
    const rows = Array.from(
      { length: 5_001 },
      (_, i) => `20261105,${clock(i)},,${1000 + i},0,跨行轉入,0130000${String(10_000_000 + i)},`,
    );
    const r = await upload('admin', 'big.csv', statement(rows));
    expect(r.status, r.text).toBe(201);
    expect(r.body.statement).toMatchObject({ lines: 5_001, credits: 5_001, new: 5_001, duplicates: 0 });
    const stored = await s.t
      .db('bank_lines')
      .where({ statement_id: r.body.statement.id })
      .orderBy('row')
      .select('row', 'amount');
    expect(stored.map((l) => Number(l.amount))).toEqual(rows.map((_, i) => 1000 + i));
    expect(stored.map((l) => Number(l.row))).toEqual(rows.map((_, i) => i + 3));
    expect((await upload('admin', 'big.csv', statement(rows))).body.statement).toMatchObject({
      new: 0,
      duplicates: 5_001,
    });
  });

  it('refuses bad files with the file and row, wrong types, and callers without the permission', async () => {
    const bad = await upload(
      'admin',
      'bad.csv',
      statement(['20261105,140322,,1500,9500,,,', '20261105,140322,,abc,9500,,,']),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('bad.csv 第 4 行：「轉入」欄無法辨識的金額「abc」');
    // 300 MB of sheet XML in a few hundred KB: refused before the spreadsheet library inflates it
    const row =
      '<row><c t="inlineStr"><is><t>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA</t></is></c></row>';
    const bomb = xlsxWith(
      repeatedEntry('xl/worksheets/sheet1.xml', SHEET_PREFIX, row, Math.ceil(3e8 / row.length), SHEET_SUFFIX),
    );
    const refused = await upload('admin', 'bomb.xlsx', bomb);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('bomb.xlsx：檔案內容過大或可能為壓縮炸彈，已拒絕');
    const json = await s.api('POST', '/reconcile/statements?filename=a.csv', { as: 'admin', body: { a: 1 } });
    expect(json.status).toBe(415);
    expect(
      (await upload('hq_view_payments', 'a.csv', statement(['20261105,140322,,1500,9500,,,']), s.stores.A.id)).status,
    ).toBe(403);
    expect((await upload('branchA', 'a.csv', statement(['20261105,140322,,1500,9500,,,']), s.stores.A.id)).status).toBe(
      403,
    );
    expect(
      (await s.api('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-05', { as: 'hq_manage_users' })).status,
    ).toBe(403);
    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          as: 'hq_view_payments',
          body: { pairs: [{ payment: 'x', line: 1 }] },
        })
      ).status,
    ).toBe(403);
    expect((await s.api('GET', '/reconcile/proposals?from=2026-11-05', { as: 'admin' })).body.message).toBe('驗證錯誤');
    expect(Number((await s.t.db('bank_lines').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('proposes, confirms, marks unpaid and unlinks; the payment list shows the link', async () => {
    await upload(
      'admin',
      'nov.csv',
      statement([
        '20261104,090000,100,,0,提款,,',
        '20261105,100200,,1500,1500,跨行轉入,900047****12345,',
        '20261108,090000,,77,1577,利息,,',
      ]),
      s.stores.A.id,
    );
    const p1 = await pay('12345', '2026-11-05T10:00', 1500);
    const p2 = await pay('22222', '2026-11-05T12:00', 4000);
    const prop = await s.api('GET', `/reconcile/proposals?from=2026-11-05&to=2026-11-08`, { as: 'branchA' });
    expect(prop.status).toBe(200);
    expect(Object.keys(prop.body).sort()).toEqual([
      'auto',
      'page',
      'review',
      'reviewLines',
      'suggestions',
      'unpaid',
      'unreported',
    ]);
    // the API pages every answer
    expect(prop.body.page).toEqual({
      offset: 0,
      limit: 200,
      total: { auto: 1, review: 0, reviewLines: 0, unpaid: 1, unreported: 1, suggestions: 0 },
      period: { from: '2026-11-05', to: '2026-11-08' },
    });
    expect(prop.body.auto).toHaveLength(1);
    const [auto] = prop.body.auto;
    expect(auto.payment).toMatchObject({
      uuid: p1.uuid,
      status: '未確認',
      bank_line_id: null,
      paid_at: expect.stringMatching(ISO),
    });
    expect(auto.line).toMatchObject({
      file: 'nov.csv',
      row: 4,
      amount: 1500,
      digits: '12345',
      at: '2026-11-05T02:02:00.000Z',
    });
    expect(typeof auto.score).toBe('number');
    expect(auto.reasons.length).toBeGreaterThan(0);
    expect(prop.body.unpaid.map((u: any) => u.payment.uuid)).toEqual([p2.uuid]);
    expect(prop.body.unreported.map((u: any) => u.line.amount)).toEqual([77]);

    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          as: 'branchA',
          body: { pairs: [{ payment: p1.uuid, line: auto.line.id }] },
        })
      ).body,
    ).toEqual({ confirmed: 1 });
    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          as: 'branchA',
          body: { pairs: [{ payment: p1.uuid, line: auto.line.id }] },
        })
      ).status,
    ).toBe(409);
    expect((await s.api('POST', '/reconcile/unpaid', { as: 'branchA', body: { payments: [p2.uuid] } })).body).toEqual({
      marked: 1,
    });
    const list = await s.api('GET', `/payments${listParams({ sort: ['amount', 'ASC'] })}`, { as: 'branchA' });
    expect(list.body.map((p: any) => [p.uuid, p.status, p.bank_line_id])).toEqual([
      [p1.uuid, '已入帳', auto.line.id],
      [p2.uuid, '未入帳', null],
    ]);
    // another store's user sees neither the line nor the proposals
    expect((await s.api('GET', '/reconcile/lines', { as: 'branchB' })).body).toEqual([]);
    const propB = await s.api('GET', `/reconcile/proposals?from=2026-11-05&to=2026-11-05`, { as: 'branchB' });
    expect(propB.body).toMatchObject({
      auto: [],
      review: [],
      reviewLines: [],
      unpaid: [],
      unreported: [],
      suggestions: [],
    });
    expect(propB.body.page.period).toBeNull(); // no statement of B's: nothing matched at all
    expect((await s.api('POST', '/reconcile/unlink', { as: 'branchB', body: { payment: p1.uuid } })).status).toBe(403);

    const un = await s.api('POST', '/reconcile/unlink', { as: 'branchA', body: { payment: p1.uuid } });
    expect(un.body).toMatchObject({ uuid: p1.uuid, status: '未確認', bank_line_id: null });
    expect((await s.api('GET', '/reconcile/lines?filter={"matched":false}', { as: 'branchA' })).body).toHaveLength(3);
  });

  it('a linked payment keeps its status until 取消對帳: a status change is refused with the reason, a note change is saved', async () => {
    await upload(
      'admin',
      'nov.csv',
      statement(['20261105,100200,,1500,1500,跨行轉入,900047****12345,']),
      s.stores.A.id,
    );
    const p = await pay('12345', '2026-11-05T10:00', 1500);
    const [line] = (await s.api('GET', '/reconcile/lines', { as: 'admin' })).body;
    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          as: 'branchA',
          body: { pairs: [{ payment: p.uuid, line: line.id }] },
        })
      ).body,
    ).toEqual({ confirmed: 1 });

    const refused = await s.api('PUT', `/payments/${p.uuid}`, { as: 'branchA', body: { status: '未入帳' } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('此匯款已對帳，請先取消對帳');
    const noted = await s.api('PUT', `/payments/${p.uuid}`, { as: 'branchA', body: { note: '已核對存摺' } });
    expect(noted.status).toBe(200);
    // the answer is the row as the list shows it: its link (取消對帳 stays) and its submitter
    expect(noted.body).toMatchObject({
      status: '已入帳',
      note: '已核對存摺',
      bank_line_id: line.id,
      created_by_username: 'admin',
    });

    await s.api('POST', '/reconcile/unlink', { as: 'branchA', body: { payment: p.uuid } });
    const changed = await s.api('PUT', `/payments/${p.uuid}`, { as: 'branchA', body: { status: '未入帳' } });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('未入帳');
  });

  it('a payment marked 未入帳, by reconciliation or by hand, is not proposed again until it is un-marked', async () => {
    await upload(
      'admin',
      'nov.csv',
      statement(['20261105,100200,,1500,1500,跨行轉入,900047****12345,', '20261105,153000,,800,2300,現金存款,,']),
      s.stores.A.id,
    );
    const p1 = await pay('12345', '2026-11-05T10:00', 1500);
    const p2 = await pay('33333', '2026-11-05T15:00', 800);
    const proposals = async () =>
      (await s.api('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-05', { as: 'branchA' })).body;
    expect((await proposals()).auto.map((a: any) => a.payment.uuid).sort()).toEqual([p1.uuid, p2.uuid].sort());

    expect((await s.api('PUT', `/payments/${p1.uuid}`, { as: 'branchA', body: { status: '未入帳' } })).status).toBe(
      200,
    );
    expect((await s.api('POST', '/reconcile/unpaid', { as: 'branchA', body: { payments: [p2.uuid] } })).body).toEqual({
      marked: 1,
    });
    const marked = await proposals();
    expect(JSON.stringify(marked)).not.toContain(p1.uuid);
    expect(JSON.stringify(marked)).not.toContain(p2.uuid);
    expect(marked.unreported.map((u: any) => u.line.amount).sort()).toEqual([1500, 800].sort());

    expect((await s.api('PUT', `/payments/${p1.uuid}`, { as: 'branchA', body: { status: '未確認' } })).status).toBe(
      200,
    );
    const back = await proposals();
    expect(back.auto.map((a: any) => a.payment.uuid)).toEqual([p1.uuid]);
    expect(JSON.stringify(back)).not.toContain(p2.uuid);
  });

  it('proposals default to the period the uploaded statement covers', async () => {
    const up = await upload(
      'admin',
      'nov.csv',
      statement([
        '20261103,090000,,700,700,跨行轉入,****99999,',
        '20261105,100200,,1500,2200,跨行轉入,900047****12345,',
        '20261108,090000,,77,2277,利息,,',
      ]),
      s.stores.A.id,
    );
    expect(up.body.statement).toMatchObject({ from: '2026-11-03', to: '2026-11-08' });
    const early = await pay('99999', '2026-11-03T08:59', 700);
    const p1 = await pay('12345', '2026-11-05T10:00', 1500);
    await pay('55555', '2026-11-09T10:00', 900); // after the statement: not asked about
    const byStatement = await s.api('GET', `/reconcile/proposals?statement=${up.body.statement.id}`, { as: 'branchA' });
    expect(byStatement.status).toBe(200);
    const byDates = await s.api('GET', '/reconcile/proposals?from=2026-11-03&to=2026-11-08', { as: 'branchA' });
    expect(byStatement.body).toEqual(byDates.body);
    expect(byStatement.body.auto.map((a: any) => a.payment.uuid).sort()).toEqual([early.uuid, p1.uuid].sort());
    // dates given win over the statement's
    const narrowed = await s.api(
      'GET',
      `/reconcile/proposals?statement=${up.body.statement.id}&from=2026-11-05&to=2026-11-05`,
      { as: 'branchA' },
    );
    expect(narrowed.body.auto.map((a: any) => a.payment.uuid)).toEqual([p1.uuid]);
    // another store's user cannot read the statement's period either
    const other = await s.api('GET', `/reconcile/proposals?statement=${up.body.statement.id}`, { as: 'branchB' });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(`找不到交易明細 ${up.body.statement.id}`);
    expect((await s.api('GET', '/reconcile/proposals?statement=abc', { as: 'admin' })).status).toBe(404);
    const none = await s.api('GET', '/reconcile/proposals', { as: 'admin' });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('請提供對帳期間（from、to，格式 YYYY-MM-DD）或交易明細（statement）');
  });

  /** a second API instance on the same database, for the length of `fn` */
  async function withSecondInstance(fn: (url2: string) => Promise<void>) {
    const db2 = openDatabase(s.t.config);
    const app2 = createApp({ db: db2, security: TEST_SECURITY, log: () => {} });
    const server2: Server = await new Promise((resolve) => {
      const srv = app2.listen(0, '127.0.0.1', () => resolve(srv));
    });
    try {
      await fn(`http://127.0.0.1:${(server2.address() as AddressInfo).port}/api`);
    } finally {
      await new Promise<void>((resolve) => server2.close(() => resolve()));
      await db2.destroy();
    }
  }
  const post = (base: string, path: string, body: unknown, token = s.tokens.branchA) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('two API instances on one database: the same statement uploaded at once is stored once; one payment confirmed to two lines, or unlinked while confirmed elsewhere, keeps one link', async () => {
    await withSecondInstance(async (url2) => {
      const bytes = statement([
        '20261105,100200,,1500,1500,,,',
        '20261105,100400,,1500,3000,,,',
        '20261105,120000,,700,3700,,,',
      ]);
      for (let round = 0; round < 3; round++) {
        const up = (base: string) =>
          fetch(`${base}/reconcile/statements?filename=twice.csv&store_id=${s.stores.A.id}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${s.tokens.admin}`, ...OCTET },
            body: new Uint8Array(bytes),
          }).then(async (r) => ({ status: r.status, body: await r.json() }));
        const both = await Promise.all([up(`${s.url}/api`), up(url2)]);
        expect(both.map((b) => b.status)).toEqual([201, 201]);
        expect(both.reduce((n, b) => n + b.body.statement.new, 0)).toBe(round === 0 ? 3 : 0);
        expect(both.reduce((n, b) => n + b.body.statement.duplicates, 0)).toBe(round === 0 ? 3 : 6);
        expect(Number((await s.t.db('bank_lines').count({ n: '*' }).first())!.n)).toBe(3);
      }
      const [l1, l2] = (await s.api('GET', `/reconcile/lines${listParams({ sort: ['at', 'ASC'] })}`, { as: 'admin' }))
        .body;
      const p = await pay('12345', '2026-11-05T10:00', 1500);
      for (let round = 0; round < 3; round++) {
        const twoLines = await Promise.all([
          post(`${s.url}/api`, '/reconcile/confirm', { pairs: [{ payment: p.uuid, line: l1.id }] }),
          post(url2, '/reconcile/confirm', { pairs: [{ payment: p.uuid, line: l2.id }] }),
        ]);
        expect(twoLines.map((r) => r.status).sort()).toEqual([200, 409]);
        expect(await s.t.db('bank_links').where({ payment_uuid: p.uuid })).toHaveLength(1);
        // unlink on one instance while the other confirms the payment to the other line
        const linked = Number((await s.t.db('bank_links').where({ payment_uuid: p.uuid }).first()).line_id);
        const otherLine = linked === l1.id ? l2.id : l1.id;
        const [unlinked, confirmed] = await Promise.all([
          post(`${s.url}/api`, '/reconcile/unlink', { payment: p.uuid }),
          post(url2, '/reconcile/confirm', { pairs: [{ payment: p.uuid, line: otherLine }] }),
        ]);
        expect(unlinked.status).toBe(200);
        const links = await s.t.db('bank_links').where({ payment_uuid: p.uuid });
        const status = (await s.t.db('payments').where({ uuid: p.uuid }).first()).status;
        if (confirmed.status === 200)
          expect([links.map((l: any) => Number(l.line_id)), status]).toEqual([[otherLine], '已入帳']);
        else expect([confirmed.status, links, status]).toEqual([409, [], '未確認']);
        if (links.length) await s.api('POST', '/reconcile/unlink', { as: 'admin', body: { payment: p.uuid } });
      }
    });
  });

  it('two API instances on one database: a status set in 匯款記錄 racing a confirmation never leaves a linked payment other than 已入帳', async () => {
    await withSecondInstance(async (url2) => {
      await upload('admin', 'status-race.csv', statement(['20261105,100200,,1500,1500,,,']), s.stores.A.id);
      const [line] = (await s.api('GET', '/reconcile/lines', { as: 'admin' })).body;
      const p = await pay('12345', '2026-11-05T10:00', 1500);
      for (let round = 0; round < 4; round++) {
        const put = fetch(`${s.url}/api/payments/${p.uuid}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${s.tokens.branchA}`, 'content-type': 'application/json' },
          body: JSON.stringify({ status: '未入帳' }),
        });
        const [edited, confirmed] = await Promise.all([
          put,
          post(url2, '/reconcile/confirm', { pairs: [{ payment: p.uuid, line: line.id }] }),
        ]);
        const links = await s.t.db('bank_links').where({ payment_uuid: p.uuid });
        const status = (await s.t.db('payments').where({ uuid: p.uuid }).first()).status;
        // either order is fine; a link with any status but 已入帳 is not
        expect(confirmed.status).toBe(200);
        expect([200, 409]).toContain(edited.status);
        expect([links.length, status]).toEqual([1, '已入帳']);
        await s.api('POST', '/reconcile/unlink', { as: 'admin', body: { payment: p.uuid } });
        await s.api('PUT', `/payments/${p.uuid}`, { as: 'admin', body: { status: '未確認' } });
      }
    });
  });

  it('two API instances on one database: of two confirmations of the same line, exactly one wins', async () => {
    await withSecondInstance(async (url2) => {
      await upload('admin', 'race.csv', statement(['20261105,100200,,1500,1500,,,']), s.stores.A.id);
      const [line] = (await s.api('GET', '/reconcile/lines', { as: 'admin' })).body;
      for (let round = 0; round < 3; round++) {
        const a = await pay('12345', '2026-11-05T10:00', 1500);
        const b = await pay('54321', '2026-11-05T10:01', 1500);
        const confirm = (base: string, payment: string) =>
          post(base, '/reconcile/confirm', { pairs: [{ payment, line: line.id }] }).then((r) => r.status);
        const statuses = await Promise.all([confirm(`${s.url}/api`, a.uuid), confirm(url2, b.uuid)]);
        expect(statuses.sort()).toEqual([200, 409]);
        const linked = await s.t.db('bank_links').select('payment_uuid');
        expect(linked).toHaveLength(1);
        const statusOf = async (u: string) => (await s.t.db('payments').where({ uuid: u }).first()).status;
        const winner = linked[0].payment_uuid;
        const loser = winner === a.uuid ? b.uuid : a.uuid;
        expect([await statusOf(winner), await statusOf(loser)]).toEqual(['已入帳', '未確認']);
        await s.api('POST', '/reconcile/unlink', { as: 'admin', body: { payment: winner } });
        await s.t.db('payments').whereIn('uuid', [a.uuid, b.uuid]).delete();
      }
    });
  });
});
