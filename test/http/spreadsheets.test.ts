/**
 * Spreadsheets over HTTP: bulk import re-checked on the server, the export
 * and the sample as downloads, and the same file giving the same result through the API as
 * through the CLI's path (parse, then import).
 */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importPayments, MSG, openDatabase, parsePaymentsWorkbook, principalByUsername } from '../../core/index.js';
import { type ImportRow } from '../../core/payments/readSheet.js';
import { LOCKS } from '../../core/db/locks.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD } from '../helpers/fixtures.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER = ['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店', '點收狀態', '付款方式'];

/** `YYYYMMDDHHmm` of an instant in Taiwan time, computed without the product. */
const taipeiStamp = (ms: number) => new Date(ms + 8 * 60 * 60 * 1000).toISOString().replace(/\D/g, '').slice(0, 12);

function workbook(rows: Array<Array<string | number | null>>): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([HEADER, ...rows]), '匯款記錄');
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

/** What the CLI sends for parsed rows (cli/commands/import.ts). */
const payload = (rows: ImportRow[]) => rows;

describe.each(DB_KINDS)('spreadsheets over HTTP on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
    // headquarters' importer who may also record takings (the sample's cash, card and e-payment rows)
    const body = {
      username: 'takingsMgr',
      password: PASSWORD,
      role: 'user',
      accessible_stores: [s.stores.A.id, s.stores.B.id],
      permissions: ['manage_payments', 'record_takings'],
    };
    expect((await s.api('POST', '/users', { as: 'admin', body })).status).toBe(201);
    s.tokens.takingsMgr = (
      await s.api('POST', '/admin/login', { body: { username: 'takingsMgr', password: PASSWORD } })
    ).body.token;
  });
  afterAll(async () => s?.close());
  beforeEach(async () => {
    await s.t.db('payments').delete();
  });

  const row = (over: Record<string, unknown> = {}) => ({
    last_five: '01234',
    paid_at: '2026-11-18T09:15',
    amount: 1500,
    note: '',
    store_id: s.stores.A.id,
    ...over,
  });
  const bulk = (as: string, payments: unknown, extra: Record<string, unknown> = {}) =>
    s.api('POST', '/payments/bulk-import', { as, body: { payments, ...extra } });
  const count = async () => Number(((await s.t.db('payments').count({ n: '*' }).first()) as { n: number | string }).n);
  /** The stored payments as the spreadsheet sees them, newest payment time first. */
  const stored = async () =>
    ((await s.t.db('payments').orderBy('paid_at', 'desc').orderBy('uuid', 'desc')) as any[]).map((p) => ({
      last_five: p.last_five,
      paid_at: new Date(Number(p.paid_at)).toISOString(),
      amount: Number(p.amount),
      note: p.note ?? '',
      store_id: Number(p.store_id),
      status: p.status,
    }));
  const dbStores = async () =>
    ((await s.t.db('stores').select('id', 'name', 'code')) as any[]).map((x) => ({
      id: Number(x.id),
      name: x.name,
      code: x.code,
    }));
  /** A download: status, headers and the raw bytes (never decoded as text, so a BOM stays visible). */
  async function download(as: string, path: string) {
    const res = await fetch(`${s.url}/api${path}`, { headers: { authorization: `Bearer ${s.tokens[as]}` } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    let json: any;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      /* a file, not JSON */
    }
    return { status: res.status, headers: res.headers, bytes, json };
  }
  const exportPath = (filter?: Record<string, unknown>, format?: string) => {
    const q = new URLSearchParams();
    if (filter) q.set('filter', JSON.stringify(filter));
    if (format) q.set('format', format);
    const qs = q.toString();
    return `/payments/export${qs ? `?${qs}` : ''}`;
  };
  /** The decoded `filename*` of a Content-Disposition header. */
  const fileNameOf = (headers: Headers) => {
    const cd = headers.get('content-disposition') ?? '';
    const m = /filename\*=UTF-8''([^;\s]+)/.exec(cd);
    expect(m, cd).not.toBeNull();
    return decodeURIComponent(m![1]);
  };

  /** Payments in all three stores, with every status (imported as admin). */
  async function seedPayments() {
    const rows = [
      row({
        last_five: '00001',
        paid_at: '2026-11-18T09:15',
        amount: 1500,
        note: '早班',
        store_id: s.stores.A.id,
        status: '已入帳',
      }),
      row({
        last_five: '00002',
        paid_at: '2026-11-18T10:30:15',
        amount: 23800,
        note: '',
        store_id: s.stores.A.id,
        status: '未確認',
      }),
      row({
        last_five: '00003',
        paid_at: '2026-11-19T00:05',
        amount: 650,
        note: '=1+1',
        store_id: s.stores.B.id,
        status: '未入帳',
      }),
      row({
        last_five: '12345',
        paid_at: '2026-11-20T18:45',
        amount: 12000,
        note: '晚班, "補登"',
        store_id: s.stores.C.id,
        status: '已入帳',
      }),
    ];
    const r = await bulk('admin', rows);
    expect(r.status).toBe(200);
    expect(r.body.imported).toBe(4);
    return rows;
  }

  describe('POST /api/payments/bulk-import/check (the import preview)', () => {
    it('says what an import would do, row by row, and writes nothing', async () => {
      expect((await bulk('admin', [row()])).status).toBe(200);
      const before = await count();
      const payments = [
        { ...row(), row: 2 },
        { ...row({ last_five: '22222' }), row: 3 },
        { ...row({ last_five: '22222' }), row: 4 },
      ];
      const r = await s.api('POST', '/payments/bulk-import/check', { as: 'hq_manage_payments', body: { payments } });
      expect(r.status).toBe(200);
      const storedUuid = (await s.t.db('payments').first('uuid')).uuid;
      expect(r.body).toEqual({
        imported: 1,
        skipped: 2,
        duplicates: [2, 4],
        duplicate_of: [
          { row: 2, uuid: storedUuid },
          { row: 4, earlier_row: 3 },
        ],
      });
      expect(await count()).toBe(before);
    });

    it('answers while an import holds the writer: a preview takes no lock and waits for none', async () => {
      const other = openDatabase(s.t.config);
      try {
        await other.transaction(async (trx) => {
          // What a running import holds: the import lock on PostgreSQL; the writer on SQLite (BEGIN IMMEDIATE).
          if (kind === 'postgres') await trx.raw('select pg_advisory_xact_lock(?)', [LOCKS.import]);
          else await trx('stores').where({ id: -1 }).update({ name: 'x' });
          const r = await s.api('POST', '/payments/bulk-import/check', {
            as: 'admin',
            body: { payments: [{ ...row({ last_five: '33333' }), row: 2 }] },
          });
          expect(r.status).toBe(200);
          expect(r.body).toMatchObject({ imported: 1, skipped: 0 });
        });
      } finally {
        await other.destroy();
      }
    });

    it('uses the import’s rules: its validation, its permission, the caller’s scope', async () => {
      const bad = await s.api('POST', '/payments/bulk-import/check', {
        as: 'admin',
        body: { payments: [{ ...row({ last_five: '12' }), row: 7 }] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].message).toMatch(/^第 7 行：/);
      expect(
        (await s.api('POST', '/payments/bulk-import/check', { as: 'branchA', body: { payments: [row()] } })).status,
      ).toBe(403);
      const outside = await s.api('POST', '/payments/bulk-import/check', {
        as: 'hq_manage_payments',
        body: { payments: [row({ store_id: s.stores.C.id })] },
      });
      expect(outside.status).toBe(403);
      expect(outside.body.message).toContain('權限不足：您沒有此分店的權限');
    });
  });

  describe('POST /api/payments/bulk-import', () => {
    it('answers {imported, skipped, duplicates} and stores every row with its status', async () => {
      const r = await bulk('hq_manage_payments', [
        row({ status: '已入帳', note: '匯入' }),
        row({ last_five: '56789', store_id: s.stores.B.id }),
      ]);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ imported: 2, skipped: 0, duplicates: [], duplicate_of: [] });
      const rows = (await stored()).sort((a, b) => a.last_five.localeCompare(b.last_five));
      expect(rows).toEqual([
        {
          last_five: '01234',
          paid_at: '2026-11-18T01:15:00.000Z',
          amount: 1500,
          note: '匯入',
          store_id: s.stores.A.id,
          status: '已入帳',
        },
        {
          last_five: '56789',
          paid_at: '2026-11-18T01:15:00.000Z',
          amount: 1500,
          note: '',
          store_id: s.stores.B.id,
          status: '未確認',
        },
      ]);
    });

    it('importing the same rows twice adds nothing the second time', async () => {
      const rows = [row(), row({ last_five: '22222' }), row({ last_five: '33333', amount: 99 })];
      expect((await bulk('admin', rows)).body).toEqual({ imported: 3, skipped: 0, duplicates: [], duplicate_of: [] });
      const again = await bulk('admin', rows);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ imported: 0, skipped: 3, duplicates: [1, 2, 3] });
      // each skipped row names the stored payment it repeats
      const stored = (await s.t.db('payments').orderBy('last_five').select('uuid')).map(
        (p: { uuid: string }) => p.uuid,
      );
      expect(again.body.duplicate_of).toEqual([
        { row: 1, uuid: stored[0] },
        { row: 2, uuid: stored[1] },
        { row: 3, uuid: stored[2] },
      ]);
      expect(await count()).toBe(3);
      // the same payment written another way (UTC instead of Taiwan wall clock, amount as text) is still a duplicate
      const same = await bulk('admin', [{ ...row(), paid_at: '2026-11-18T01:15:00.000Z', amount: '1500', row: 9 }]);
      expect(same.body).toMatchObject({
        imported: 0,
        skipped: 1,
        duplicates: [9],
        duplicate_of: [{ row: 9, uuid: stored[0] }],
      });
      expect(await count()).toBe(3);
    });

    it('skips a payment equal to one submitted through the form', async () => {
      expect((await s.api('POST', '/payments', { as: 'admin', body: row() })).status).toBe(201);
      const r = await bulk('admin', [row(), row({ last_five: '22222' })]);
      expect(r.body).toMatchObject({ imported: 1, skipped: 1, duplicates: [1] });
      expect(r.body.duplicate_of).toEqual([{ row: 1, uuid: expect.any(String) }]);
      expect(await count()).toBe(2);
    });

    it('skips duplicates within one request and reports their rows', async () => {
      const r = await bulk('admin', [
        { ...row(), row: 2 },
        { ...row({ last_five: '22222' }), row: 3 },
        { ...row({ note: '另一個備註', status: '已入帳' }), row: 5 },
      ]);
      expect(r.body).toMatchObject({ imported: 2, skipped: 1, duplicates: [5] });
      expect(r.body.duplicate_of).toEqual([{ row: 5, earlier_row: 2 }]);
      expect((await stored()).map((p) => p.last_five).sort()).toEqual(['01234', '22222']);
    });

    it('stores duplicates when allow_duplicates is true', async () => {
      expect((await bulk('admin', [row(), row()], { allow_duplicates: true })).body).toMatchObject({
        imported: 2,
        skipped: 0,
        duplicates: [],
      });
      expect((await bulk('admin', [row()], { allow_duplicates: true })).body).toMatchObject({
        imported: 1,
        skipped: 0,
        duplicates: [],
      });
      expect(await count()).toBe(3);
      // anything but true keeps the default
      expect((await bulk('admin', [row()], { allow_duplicates: 'yes' })).body).toMatchObject({
        imported: 0,
        skipped: 1,
        duplicates: [1],
      });
      expect(await count()).toBe(3);
    });

    it("says '第 N 行：' when a row carries its sheet row, '第 N 筆：' otherwise", async () => {
      const withRow = await bulk('admin', [
        { ...row(), row: 2 },
        { ...row({ last_five: '123' }), row: 7 },
      ]);
      expect(withRow.status).toBe(400);
      expect(withRow.body.errors.map((e: any) => e.message)).toEqual([`第 7 行：${MSG.lastFiveFormat}`]);
      const without = await bulk('admin', [row(), row({ last_five: '123' })]);
      expect(without.status).toBe(400);
      expect(without.body.errors.map((e: any) => e.message)).toEqual([`第 2 筆：${MSG.lastFiveFormat}`]);
      expect(await count()).toBe(0);
    });

    it('validates every row again on the server and writes nothing when any is bad', async () => {
      const bad = [
        row({ last_five: '1234' }),
        row({ last_five: 12345 }),
        row({ last_five: '12a45' }),
        row({ paid_at: '' }),
        row({ paid_at: '2026-02-30T10:00' }),
        row({ paid_at: '1900-03-01T00:00' }),
        row({ amount: 0 }),
        row({ amount: -5 }),
        row({ amount: 1.5 }),
        row({ amount: 'abc' }),
        row({ status: '已點收' }),
        row({ note: 'x'.repeat(1001) }),
        row({ store_id: 'abc' }),
      ];
      const r = await bulk('admin', [row({ last_five: '99999' }), ...bad]);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('驗證錯誤');
      expect(r.body.errors.map((e: any) => e.message)).toEqual([
        `第 2 筆：${MSG.lastFiveFormat}`,
        `第 3 筆：${MSG.lastFiveFormat}`,
        `第 4 筆：${MSG.lastFiveFormat}`,
        `第 5 筆：${MSG.paidAtRequired}`,
        '第 6 筆：無效的日期格式',
        `第 7 筆：${MSG.paidAtOutOfRange}`,
        `第 8 筆：${MSG.amountMin}`,
        `第 9 筆：${MSG.amountMin}`,
        `第 10 筆：${MSG.amountInteger}`,
        `第 11 筆：${MSG.amountNumeric}`,
        `第 12 筆：${MSG.statusInvalid}`,
        `第 13 筆：${MSG.noteTooLong}`,
        `第 14 筆：${MSG.storeInvalid}`,
      ]);
      expect(await count()).toBe(0);
    });

    it('refuses a store that does not exist, writing nothing', async () => {
      const r = await bulk('admin', [row(), { ...row({ store_id: 9999 }), row: 3 }]);
      expect(r.status).toBe(400);
      expect(r.body.errors.map((e: any) => e.message)).toEqual([`第 3 行：${MSG.storeNotFound}`]);
      expect(await count()).toBe(0);
    });

    it("checks each row's store against the caller's scope (403) and writes nothing", async () => {
      // hq_manage_payments may act on stores A and B only
      const r = await bulk('hq_manage_payments', [
        row(),
        row({ store_id: s.stores.B.id }),
        row({ store_id: s.stores.C.id }),
      ]);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(`第 3 筆：${MSG.storeOutOfScope}`);
      const withRow = await bulk('hq_manage_payments', [{ ...row({ store_id: s.stores.C.id }), row: 4 }]);
      expect(withRow.status).toBe(403);
      expect(withRow.body.message).toBe(`第 4 行：${MSG.storeOutOfScope}`);
      expect(await count()).toBe(0);
    });

    it('needs manage_payments', async () => {
      for (const as of ['hq_view_payments', 'branchA', 'hq_none']) {
        const r = await bulk(as, [row()]);
        expect(r.status, as).toBe(403);
      }
      expect((await s.api('POST', '/payments/bulk-import', { body: { payments: [row()] } })).status).toBe(401);
      expect(await count()).toBe(0);
    });

    it('refuses an empty list', async () => {
      const r = await bulk('admin', []);
      expect(r.status).toBe(400);
      expect(r.body.errors.map((e: any) => e.message)).toEqual([MSG.importEmpty]);
    });
  });

  describe('GET /api/payments/export', () => {
    it('needs manage_payments to export all and view_payments to export a filtered set (403 otherwise)', async () => {
      await seedPayments();
      const all = exportPath();
      const filtered = exportPath({ status: ['未確認', '已入帳'] });
      // every status is no filter at all: export all, whatever it looks like
      const everything = exportPath({ status: ['未確認', '已入帳', '未入帳'] });
      expect((await download('admin', all)).status).toBe(200);
      expect((await download('hq_manage_payments', all)).status).toBe(200);
      expect((await download('hq_view_payments', filtered)).status).toBe(200);
      expect((await download('branchA', exportPath({ status: ['未確認'] }))).status).toBe(200);
      for (const [as, path] of [
        ['hq_view_payments', all],
        ['hq_view_payments', everything],
        ['branchA', all],
        ['branchA', everything],
        // both of store A's payments are 未確認 or 已入帳: for branchA this filter selects all
        ['branchA', filtered],
        ['hq_manage_payments', filtered],
        ['hq_none', all],
        ['hq_none', filtered],
      ] as const) {
        const r = await download(as, path);
        expect(r.status, `${as} ${path}`).toBe(403);
        expect(r.json?.message, `${as} ${path}`).toMatch(/^權限不足/);
      }
      expect((await fetch(`${s.url}/api${all}`)).status).toBe(401);
    });

    it('sends an .xlsx named 匯款記錄_全部_YYYYMMDDHHmm.xlsx (Taiwan time) in Content-Disposition', async () => {
      await seedPayments();
      const before = Date.now();
      const r = await download('admin', exportPath());
      const after = Date.now();
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(XLSX_TYPE);
      const name = fileNameOf(r.headers);
      expect([`匯款記錄_全部_${taipeiStamp(before)}.xlsx`, `匯款記錄_全部_${taipeiStamp(after)}.xlsx`]).toContain(name);
      expect(r.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
    });

    it('names a filtered export after its filter parts, then the timestamp', async () => {
      await seedPayments();
      const r = await download(
        'hq_view_payments',
        exportPath({ store_id: s.stores.A.id, status: '已入帳', paid_at_gte: '2026-11-18', paid_at_lte: '2026-11-21' }),
      );
      expect(r.status).toBe(200);
      expect(fileNameOf(r.headers)).toMatch(/^匯款記錄_台北店_已入帳_20261118-20261121_\d{12}\.xlsx$/);
      const parsed = parsePaymentsWorkbook(r.bytes, { stores: await dbStores() });
      expect(parsed.rows.map((p) => p.last_five)).toEqual(['00001']);
    });

    it('does not name a search-filtered export 全部 (it is not all data)', async () => {
      await seedPayments();
      for (const filter of [{ q: '早班' }, { last_five: '00001' }]) {
        const r = await download('hq_view_payments', exportPath(filter));
        expect(r.status, JSON.stringify(filter)).toBe(200);
        expect(parsePaymentsWorkbook(r.bytes, { stores: await dbStores() }).rows.map((p) => p.last_five)).toEqual([
          '00001',
        ]);
        const name = fileNameOf(r.headers);
        expect(name, JSON.stringify(filter)).toMatch(/^匯款記錄_.+_\d{12}\.xlsx$/);
        expect(name, JSON.stringify(filter)).not.toContain('全部');
      }
    });

    it("holds only the caller's stores", async () => {
      await seedPayments();
      // a 未入帳 payment of store A that the branch's export below leaves out (else it is an export all)
      expect(
        (
          await bulk('admin', [
            row({
              last_five: '00004',
              paid_at: '2026-11-18T11:00',
              amount: 99,
              store_id: s.stores.A.id,
              status: '未入帳',
            }),
          ])
        ).status,
      ).toBe(200);
      // branchA's exports of the tests above were made yesterday: with them, this one would be the
      // last piece of an export all (test/http/export-audit.test.ts)
      await s.t
        .db('audit_log')
        .where({ action: 'export', actor_id: s.users.branchA.id })
        .update({ at: Date.now() - 25 * 3600 * 1000 });
      const stores = await dbStores();
      const hq = parsePaymentsWorkbook((await download('hq_manage_payments', exportPath())).bytes, { stores });
      expect(hq.rows.map((p) => p.last_five).sort()).toEqual(['00001', '00002', '00003', '00004']);
      expect(new Set(hq.rows.map((p) => p.store_id))).toEqual(new Set([s.stores.A.id, s.stores.B.id]));
      const branch = parsePaymentsWorkbook(
        (await download('branchA', exportPath({ status: ['未確認', '已入帳'] }))).bytes,
        { stores },
      );
      expect(branch.rows.map((p) => p.last_five).sort()).toEqual(['00001', '00002']);
      // asking for a store outside the scope gives nothing, not that store's payments
      const outside = await download('branchA', exportPath({ store_id: s.stores.C.id }));
      expect(outside.status).toBe(404);
      expect(outside.json).toEqual({ message: '沒有資料可匯出', request_id: expect.any(String) });
    });

    it('parses back with the import parser to the same payments, newest first', async () => {
      await seedPayments();
      const r = await download('admin', exportPath());
      const parsed = parsePaymentsWorkbook(r.bytes, { stores: await dbStores() });
      expect(parsed.errors).toEqual([]);
      expect(parsed.skipped).toEqual([]);
      // every payment here is a transfer: the 付款方式 column reads back 匯款, no sub-type, no 員工購物
      expect(parsed.rows.map((p) => [p.method, p.method_detail, p.employee])).toEqual(
        parsed.rows.map(() => ['匯款', null, false]),
      );
      expect(parsed.rows.map(({ row: _row, method: _m, method_detail: _d, employee: _e, ...p }) => p)).toEqual(
        // spec section 4: 未入帳 is exported as 未點收 and so imports back as 未確認
        (await stored()).map((p) => ({ ...p, status: p.status === '已入帳' ? '已入帳' : '未確認' })),
      );
      const ws = XLSX.read(r.bytes, { type: 'array' }).Sheets['匯款記錄'];
      expect(XLSX.utils.sheet_to_json<string[]>(ws, { header: 1 })[0]).toEqual(HEADER);
      expect(ws.G2.v).toBe('已點收'); // 12345, 2026-11-20 18:45, 已入帳
      expect(
        XLSX.utils
          .sheet_to_json<unknown[]>(ws, { header: 1 })
          .slice(1)
          .map((line) => line[6]),
      ).toEqual(['已點收', '未點收', '未點收', '已點收']);
    });

    it('exports a file that imports back unchanged, and a second import adds nothing', async () => {
      await seedPayments();
      const before = await stored();
      const file = (await download('admin', exportPath())).bytes;
      await s.t.db('payments').delete();
      const parsed = parsePaymentsWorkbook(file, { stores: await dbStores() });
      expect((await bulk('admin', payload(parsed.rows))).body).toMatchObject({
        imported: 4,
        skipped: 0,
        duplicates: [],
      });
      expect(await stored()).toEqual(
        before.map((p) => ({ ...p, status: p.status === '已入帳' ? '已入帳' : '未確認' })),
      );
      expect((await bulk('admin', payload(parsed.rows))).body).toMatchObject({
        imported: 0,
        skipped: 4,
        duplicates: [2, 3, 4, 5],
      });
      expect(await count()).toBe(4);
    });

    it('sends CSV with format=csv: UTF-8 BOM, text/csv, a .csv name', async () => {
      await seedPayments();
      const r = await download('admin', exportPath(undefined, 'csv'));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(fileNameOf(r.headers)).toMatch(/^匯款記錄_全部_\d{12}\.csv$/);
      expect([...r.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(r.bytes);
      const lines = text.slice(1).split('\r\n');
      expect(lines[0]).toBe(HEADER.join(','));
      expect(lines).toContain('2026/11/19,"=""00003""",2026/11/19 00:05,650,\'=1+1,台中店 (TXG),未點收,匯款');
      expect(lines).toContain(
        '2026/11/20,"=""12345""",2026/11/20 18:45,12000,"晚班, ""補登""",高雄店 (KHH),已點收,匯款',
      );
      expect(lines.filter((l) => l !== '')).toHaveLength(5);
    });

    it('answers 404 沒有資料可匯出 when nothing matches', async () => {
      const empty = await download('admin', exportPath());
      expect(empty.status).toBe(404);
      expect(empty.json).toEqual({ message: '沒有資料可匯出', request_id: expect.any(String) });
      await seedPayments();
      const none = await download('hq_view_payments', exportPath({ paid_at_gte: '2030-01-01' }));
      expect(none.status).toBe(404);
      expect(none.json).toEqual({ message: '沒有資料可匯出', request_id: expect.any(String) });
    });
  });

  describe('GET /api/payments/sample', () => {
    it('serves 匯款記錄_匯入範例.xlsx that parses back with seven rows (four transfers, a cash, an e-payment and a staff card sale) and no errors', async () => {
      // without 記錄收款 the sample holds the four transfers alone: it imports as it is
      const plain = parsePaymentsWorkbook((await download('hq_manage_payments', '/payments/sample')).bytes, {
        stores: await dbStores(),
      });
      expect(plain.rows.map((p) => p.method)).toEqual(['匯款', '匯款', '匯款', '匯款']);
      expect((await bulk('hq_manage_payments', payload(plain.rows))).body).toMatchObject({
        imported: 4,
        skipped: 0,
        duplicates: [],
      });
      await s.t.db('payments').del();
      const r = await download('takingsMgr', '/payments/sample');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(XLSX_TYPE);
      expect(fileNameOf(r.headers)).toBe('匯款記錄_匯入範例.xlsx');
      expect(r.headers.get('content-disposition')).toContain(
        `filename*=UTF-8''${encodeURIComponent('匯款記錄_匯入範例.xlsx')}`,
      );
      const parsed = parsePaymentsWorkbook(r.bytes, { stores: await dbStores() });
      expect(parsed.errors).toEqual([]);
      expect(parsed.skipped).toEqual([]);
      expect(parsed.rows).toHaveLength(7);
      expect(parsed.rows.map((p) => p.method)).toEqual(['匯款', '匯款', '匯款', '匯款', '現金', '電子支付', '刷卡']);
      // it names only stores the caller may import into, so it imports as is
      for (const p of parsed.rows) expect([s.stores.A.id, s.stores.B.id]).toContain(p.store_id);
      expect((await bulk('takingsMgr', payload(parsed.rows))).body).toMatchObject({
        imported: 7,
        skipped: 0,
        duplicates: [],
      });
    });

    it('needs manage_payments', async () => {
      for (const as of ['hq_view_payments', 'branchA', 'hq_none'])
        expect((await download(as, '/payments/sample')).status, as).toBe(403);
      expect((await download('admin', '/payments/sample')).status).toBe(200);
    });
  });

  describe('the same file through the API and through the CLI path', () => {
    const file = () =>
      workbook([
        [46344, '01234', 46344.5, 1500, '早班', '台北店', '已點收'],
        [46344, '01234', 46344.5, 1500, '重複', '台北店', ''], // duplicate of row 2
        [null, '99999', '2026/11/18 10:00', 100, '沒有營業日期', '', ''], // skipped
        ['2026/11/18', '56789', '09:15', 'NT$23,800', '', 'TXG', '未點收'],
        [46344, '24680', 0.75, 650, '', '台中店 (TXG)', '亂填'],
        [46345, '13579', '2026-11-19 08:00', 12000, '分店空白', null, '已點收'],
      ]);

    it('gives the same stored payments as parsing then importing with the core (what remit import does)', async () => {
      const stores = await dbStores();
      const user = s.users.hq_manage_payments;
      const parsed = parsePaymentsWorkbook(file(), { stores, userStoreId: user.store_id });
      expect(parsed.errors).toEqual([]);
      expect(parsed.skipped.map((x) => x.row)).toEqual([3, 4]);
      expect(parsed.rows.map((x) => x.row)).toEqual([2, 5, 6, 7]);

      const viaApi = await bulk('hq_manage_payments', payload(parsed.rows));
      expect(viaApi.status).toBe(200);
      expect(viaApi.body).toMatchObject({ imported: 4, skipped: 0, duplicates: [] });
      const apiRows = await stored();
      expect(apiRows).toEqual([
        {
          last_five: '13579',
          paid_at: '2026-11-19T00:00:00.000Z',
          amount: 12000,
          note: '分店空白',
          store_id: 1,
          status: '已入帳',
        },
        {
          last_five: '24680',
          paid_at: '2026-11-18T10:00:00.000Z',
          amount: 650,
          note: '',
          store_id: s.stores.B.id,
          status: '未確認',
        },
        {
          last_five: '01234',
          paid_at: '2026-11-18T04:00:00.000Z',
          amount: 1500,
          note: '早班',
          store_id: s.stores.A.id,
          status: '已入帳',
        },
        {
          last_five: '56789',
          paid_at: '2026-11-18T01:15:00.000Z',
          amount: 23800,
          note: '',
          store_id: s.stores.B.id,
          status: '未確認',
        },
      ]);
      const again = await bulk('hq_manage_payments', payload(parsed.rows));
      expect(again.body).toMatchObject({ imported: 0, skipped: 4, duplicates: [2, 5, 6, 7] });

      await s.t.db('payments').delete();
      const ctx = {
        db: s.t.db,
        security: TEST_SECURITY,
        actor: await principalByUsername(s.t.db, 'hq_manage_payments'),
        ip: null,
      };
      const viaCore = await importPayments(
        ctx,
        payload(parsePaymentsWorkbook(file(), { stores, userStoreId: ctx.actor.store_id }).rows),
      );
      expect(viaCore).toEqual(viaApi.body);
      expect(await stored()).toEqual(apiRows);
    });
  });

  it('has no unexpected server errors', () => {
    expect(s.errors).toEqual([]);
  });
});
