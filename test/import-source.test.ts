/**
 * The streamed reader against the whole-file one: the same workbooks (built with SheetJS, written
 * by LibreOffice, streamed by our export, saved as CSV) give the same rows, errors and skips, and
 * a bomb inside the stream is refused. Each case writes its file to disk, and some are tens of
 * megabytes (a bomb, an endless cell): an integration test, not a unit one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import * as XLSX from 'xlsx';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { toIso } from '../core/time.js';
import { openPaymentsFile, type SourceOptions } from '../core/payments/importSource.js';
import { parsePaymentsWorkbook, type ParseResult } from '../core/payments/readSheet.js';
import { buildExportCsv, type ExportPayment } from '../core/payments/writeSheet.js';
import { streamExportWorkbook } from '../core/payments/xlsxStream.js';
import { entry, xlsxWith } from './helpers/zip.js';

const STORES = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
  { id: 3, name: '高雄店', code: 'KHH' },
];
const HEADER = ['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店', '點收狀態'];
const dir = mkdtempSync(join(tmpdir(), 'remit-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fileOf = (bytes: Uint8Array | string, ext = 'xlsx') => {
  const p = join(dir, `f${++n}.${ext}`);
  writeFileSync(p, bytes);
  return p;
};

/** Everything the streamed reader says about a file, shaped as parsePaymentsWorkbook's answer. */
async function streamed(
  path: string,
  opts: Partial<SourceOptions> = {},
): Promise<Omit<ParseResult, 'sheetName' | 'preview'> & { sheetName: string; cells: string[][] }> {
  const source = await openPaymentsFile(path, { stores: STORES, ...opts });
  const out = {
    sheetName: source.sheetName,
    rows: [] as ParseResult['rows'],
    errors: [] as string[],
    skipped: [] as ParseResult['skipped'],
    totalRows: 0,
    cells: [] as string[][],
  };
  for await (const batch of source.batches()) {
    for (const r of batch) {
      out.totalRows++;
      out.cells.push(r.display());
      if (r.outcome.state === 'ok') out.rows.push({ ...r.outcome.payment, paid_at: toIso(r.outcome.payment.paid_at) });
      else if (r.outcome.state === 'error') out.errors.push(...r.outcome.errors);
      else if (r.outcome.state === 'duplicate')
        out.skipped.push({ row: r.row, reason: r.outcome.reason, duplicateOf: r.outcome.duplicateOf });
      else out.skipped.push({ row: r.row, reason: r.outcome.reason });
    }
  }
  return out;
}

async function sameAsWhole(bytes: Uint8Array, opts: Partial<SourceOptions> = {}) {
  const whole = parsePaymentsWorkbook(bytes, { stores: STORES, ...opts });
  const s = await streamed(fileOf(bytes), opts);
  expect(s.rows).toEqual(whole.rows);
  expect(s.errors).toEqual(whole.errors);
  expect(s.skipped).toEqual(whole.skipped);
  expect(s.totalRows).toBe(whole.totalRows);
  expect(s.sheetName).toBe(whole.sheetName);
  expect(s.cells.slice(0, whole.preview.length)).toEqual(whole.preview.map((p) => p.cells));
  return s;
}

type CellIn = string | number | XLSX.CellObject | null;
function workbook(
  rows: CellIn[][],
  opts: { date1904?: boolean; sheets?: string[]; bookType?: 'xlsx' | 'biff8' } = {},
): Uint8Array {
  const wb = XLSX.utils.book_new();
  for (const name of opts.sheets ?? []) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['x']]), name);
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([HEADER, ...rows]), '匯款記錄');
  if (opts.date1904) wb.Workbook = { ...wb.Workbook, WBProps: { date1904: true } };
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: opts.bookType ?? 'xlsx' }) as ArrayBuffer);
}

const MIXED: CellIn[][] = [
  [46344, '01234', 46344.5, 1500, '早班', '台北店', '已點收'],
  [46344, { t: 'n', v: 1234, z: '00000' }, '2026/11/18 09:15', 'NT$23,800', '', 'TXG', '未點收'],
  ['2026/11/19', '98765', '2026-11-19 18:45', 650, '晚班 & <夜>', '高雄店 (KHH)', ''],
  [],
  [null, '11111', '2026/11/19 10:00', 100, '', '台北店', ''],
  [46344, 1234, '2026/11/18 09:15', 1500, '', '台北店', ''],
  [46344, '01234', 46344.5, 1500, '', '台北店', ''],
  ['115/11/21', '22222', '下午 3:30', 0, '', '不存在', ''],
  [46344, '33333', 0.375, 1.5, '', '台中店', ''],
  ['2026/11/18', '44444', '09:15', -3, 'x'.repeat(1001), '', ''],
  [46344, '55555', { t: 'e', v: 0x0f }, 1500, '', '台北店', ''],
  [-5, '66666', 'abc', 'abc', '', '', ''],
  [
    46344,
    '77777',
    { t: 'n', v: 46344.25, z: 'yyyy/mm/dd hh:mm' },
    { t: 'n', v: 2500, z: '#,##0' },
    '',
    { t: 'b', v: true },
    '',
  ],
];

describe('the streamed reader reads what the whole-file reader reads', () => {
  it('a SheetJS workbook with every kind of row: good, skipped, repeated and wrong', async () => {
    const s = await sameAsWhole(workbook(MIXED));
    expect(s.rows.length).toBeGreaterThan(2);
    expect(s.errors.length).toBeGreaterThan(4);
  });

  it('the 1904 date system, allowDuplicates, a fallback store, and the sheet named 匯款記錄 among others', async () => {
    await sameAsWhole(workbook(MIXED, { date1904: true, sheets: ['說明'] }), { allowDuplicates: true, userStoreId: 2 });
  });

  it('a workbook LibreOffice wrote from an office CSV (shared strings, styles, 民國, 下午)', async () => {
    const s = await sameAsWhole(new Uint8Array(readFileSync(join(import.meta.dirname, 'files', 'taiwan-office.xlsx'))));
    expect(s.rows.map((r) => r.last_five)).toEqual(['01234', '02345', '03456']);
  });

  it('our streamed export, notes with markup and control characters included', async () => {
    const payments: ExportPayment[] = Array.from({ length: 3000 }, (_, i) => ({
      last_five: String(i % 100000).padStart(5, '0'),
      paid_at: Date.UTC(2026, 0, 1) + i * 61_000,
      amount: 100 + i,
      note: i % 7 === 0 ? `備註 <b>A&B</b> "引號"\t${i}` : '',
      store_id: (i % 3) + 1,
      status: i % 2 ? '已入帳' : '未確認',
    })) as ExportPayment[];
    const chunks: Buffer[] = [];
    for await (const c of streamExportWorkbook(
      (async function* () {
        yield payments;
      })(),
      STORES,
    ))
      chunks.push(c);
    const s = await sameAsWhole(new Uint8Array(Buffer.concat(chunks)));
    expect(s.rows).toHaveLength(3000);
    expect(s.rows[7].note).toBe('備註 <b>A&B</b> "引號"\t7');
  });

  it('keeps a note that reads like markup (&amp;) as written, where SheetJS would unescape it twice', async () => {
    const note = '收據 &amp; 發票';
    const payment = {
      last_five: '01234',
      paid_at: Date.UTC(2026, 0, 1),
      amount: 1,
      note,
      store_id: 1,
      status: '未確認',
    } as ExportPayment;
    const chunks: Buffer[] = [];
    for await (const c of streamExportWorkbook(
      (async function* () {
        yield [payment];
      })(),
      STORES,
    ))
      chunks.push(c);
    expect((await streamed(fileOf(Buffer.concat(chunks)))).rows[0].note).toBe(note);
  });

  it("keeps a note that reads like Excel's own escape (_x0041_) as written (SheetJS, which unescapes twice, would not)", async () => {
    const note = '代碼 _x0041_ 與 _x000D_';
    const payment = {
      last_five: '01234',
      paid_at: Date.UTC(2026, 0, 1),
      amount: 1,
      note,
      store_id: 1,
      status: '未確認',
    } as ExportPayment;
    const chunks: Buffer[] = [];
    for await (const c of streamExportWorkbook(
      (async function* () {
        yield [payment];
      })(),
      STORES,
    ))
      chunks.push(c);
    expect((await streamed(fileOf(Buffer.concat(chunks)))).rows[0].note).toBe(note);
  });

  it('.xls (BIFF8) through the whole-file path', async () => {
    const bytes = workbook(MIXED, { bookType: 'biff8' });
    const whole = parsePaymentsWorkbook(bytes, { stores: STORES });
    const s = await streamed(fileOf(bytes, 'xls'));
    expect(s.rows).toEqual(whole.rows);
    expect(s.errors).toEqual(whole.errors);
  });
});

describe('CSV, streamed', () => {
  const payments = [
    {
      last_five: '01234',
      paid_at: Date.UTC(2026, 10, 18, 1, 15),
      amount: 1500,
      note: '早班, "A"\n第二行',
      store_id: 2,
      status: '已入帳',
    },
    {
      last_five: '98765',
      paid_at: Date.UTC(2026, 10, 19, 10, 45),
      amount: 650,
      note: '=1+1',
      store_id: 3,
      status: '未確認',
    },
  ] as ExportPayment[];

  it('our CSV export (BOM, ="01234", quoted newlines) imports back unchanged', async () => {
    const s = await streamed(fileOf(buildExportCsv(payments, STORES), 'csv'));
    expect(s.errors).toEqual([]);
    expect(s.rows.map((r) => [r.last_five, r.paid_at, r.amount, r.store_id, r.status])).toEqual([
      ['01234', '2026-11-18T01:15:00.000Z', 1500, 2, '已入帳'],
      ['98765', '2026-11-19T10:45:00.000Z', 650, 3, '未確認'],
    ]);
    expect(s.rows[0].note).toBe('早班, "A"\n第二行');
  });

  it('Big5 without a BOM, as an office saves it', async () => {
    const text = `${HEADER.join(',')}\r\n115/11/18,01234,上午 9:15,"1,500",備註,台中店,已點收\r\n`;
    const s = await streamed(fileOf(new Uint8Array(iconv.encode(text, 'big5')), 'csv'));
    expect(s.errors).toEqual([]);
    expect(s.rows).toEqual([
      {
        row: 2,
        last_five: '01234',
        paid_at: '2026-11-18T01:15:00.000Z',
        amount: 1500,
        note: '備註',
        store_id: 2,
        status: '已入帳',
        method: '匯款',
        method_detail: null,
        employee: false,
      },
    ]);
  });
});

describe('refusals', () => {
  const refusal = async (path: string, opts: Partial<SourceOptions> = {}) => {
    try {
      await streamed(path, opts);
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      return (err as ValidationError).errors[0].message;
    }
    throw new Error('expected a refusal');
  };

  it('a sheet that inflates past what its directory declares is a bomb, stopped in the stream', async () => {
    // A workbook whose sheet is 50 MB of spaces declared as 100 bytes.
    const forged = xlsxWith({
      ...entry('xl/worksheets/sheet1.xml', Buffer.alloc(50 * 1024 * 1024, 0x20)),
      declaredSize: 100,
    });
    expect(await refusal(fileOf(forged))).toBe('檔案內容過大或可能為壓縮炸彈，已拒絕');
  });

  it('.xls (BIFF) over its whole-file limits says so and suggests saving as .xlsx', async () => {
    const hint =
      '.xls 檔（舊版 Excel 格式）無法分段讀取，上限為 25 MB、100000 筆：請在 Excel 以「另存新檔」存成 .xlsx 後再匯入';
    expect(await refusal(fileOf(workbook(MIXED, { bookType: 'biff8' }), 'xls'), { maxRows: 5 })).toBe(hint);
    const big = Buffer.alloc(26 * 1024 * 1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(big);
    expect(await refusal(fileOf(big, 'xls'))).toBe(hint);
  });

  it('a CSV of one endless cell, or a sheet of one endless text, is refused before it fills memory', async () => {
    expect(await refusal(fileOf(`${HEADER.join(',')}\n"${'x'.repeat(3_000_000)}`, 'csv'))).toBe(
      '檔案解析失敗，請確認檔案格式正確',
    );
    const endless = xlsxWith(
      entry(
        'xl/worksheets/sheet1.xml',
        `<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>${randomBytes(15_000_000).toString('base64')}`,
      ),
    );
    expect(await refusal(fileOf(endless))).toBe('檔案解析失敗，請確認檔案格式正確');
  });

  it('more rows than the limit, a file over the size limit, and a file of another kind', async () => {
    expect(await refusal(fileOf(workbook(MIXED)), { maxRows: 5 })).toBe('資料列過多：一次最多匯入 5 筆');
    expect(await refusal(fileOf(workbook(MIXED)), { maxBytes: 100 })).toBe('檔案過大：上限為 0 MB');
    expect(await refusal(fileOf('hello', 'txt'.replace('txt', 'pdf')))).toBe(
      '不是可匯入的檔案：請選擇 .xlsx、.xls 或 .csv 檔案',
    );
    expect(await refusal(fileOf(Buffer.from(workbook(MIXED)).subarray(0, 2000)))).toBe(
      '檔案解析失敗，請確認檔案格式正確',
    );
  });
});
