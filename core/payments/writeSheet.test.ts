/**
 * Writing the export workbook, its CSV twin and the import sample (spec sections 4 and 9): read
 * back with SheetJS and with the import parser, so an exported file imports back unchanged.
 */
import * as XLSX from 'xlsx';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentStatus } from '../paymentStatuses.js';
import { parsePaymentsWorkbook } from './readSheet.js';
import {
  buildExportCsv,
  buildExportWorkbook,
  buildSampleWorkbook,
  exportFileName,
  type ExportPayment,
} from './writeSheet.js';

const STORES = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
  { id: 3, name: '高雄店', code: 'KHH' },
];
const HEADER = ['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店', '點收狀態', '付款方式'];
const COLS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

/** Reads bytes back as a spreadsheet program would, keeping formats, displayed text and formulas. */
function readBack(bytes: Uint8Array): XLSX.WorkBook {
  return XLSX.read(bytes, { type: 'array', cellNF: true, cellText: true, cellFormula: true });
}
function sheetOf(bytes: Uint8Array): XLSX.WorkSheet {
  const wb = readBack(bytes);
  expect(wb.SheetNames).toEqual(['匯款記錄']);
  return wb.Sheets['匯款記錄'];
}
/** Row `r` (1-based, as in the sheet) as its cells A..H. */
const rowCells = (ws: XLSX.WorkSheet, r: number) => COLS.map((c) => ws[`${c}${r}`] as XLSX.CellObject | undefined);
/** The raw XML of the first worksheet inside the .xlsx zip. */
function sheetXml(bytes: Uint8Array): string {
  const wb = XLSX.read(bytes, { type: 'array', bookFiles: true }) as XLSX.WorkBook & {
    files: Record<string, { content: Uint8Array }>;
  };
  const file = wb.files['xl/worksheets/sheet1.xml'];
  expect(file).toBeDefined();
  return new TextDecoder().decode(file.content);
}
const isDateCell = (c: XLSX.CellObject | undefined) => c?.t === 'n' && typeof c.z === 'string' && XLSX.SSF.is_date(c.z);

const pay = (over: Partial<ExportPayment> = {}): ExportPayment => ({
  last_five: '01234',
  paid_at: '2026-11-18T01:15:00.000Z', // 2026/11/18 09:15 in Taiwan
  amount: 1500,
  note: '早班',
  store_id: 1,
  status: '已入帳',
  ...over,
});

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('the import sample 匯款記錄_匯入範例.xlsx', () => {
  const now = Date.parse('2026-11-20T16:30:00Z'); // 2026/11/21 00:30 in Taiwan
  const bytes = buildSampleWorkbook(STORES, now);

  it('has sheet 匯款記錄, the header in the spec order (付款方式 last) and seven example rows: four transfers, a cash, an e-payment and a staff card sale', () => {
    const ws = sheetOf(bytes);
    expect(rowCells(ws, 1).map((c) => c?.v)).toEqual(HEADER);
    for (let r = 2; r <= 5; r++) expect(ws[`B${r}`], `row ${r}`).toBeDefined();
    expect(XLSX.utils.decode_range(ws['!ref']!).e.r).toBe(7); // rows 1..8 only
    expect([2, 3, 4, 5, 6, 7, 8].map((r) => ws[`H${r}`]?.v)).toEqual([
      '匯款',
      '匯款',
      '匯款',
      '匯款',
      '現金',
      '電子支付-LINE Pay',
      '員工購物-刷卡',
    ]);
    for (const r of [6, 7, 8]) expect(ws[`B${r}`]?.v ?? '', `row ${r}`).toBe('');
  });

  it('writes the last five as text cells formatted @, so leading zeros survive', () => {
    const ws = sheetOf(bytes);
    const lastFive = [2, 3, 4, 5].map((r) => ws[`B${r}`] as XLSX.CellObject);
    for (const c of lastFive) {
      expect(c.t).toBe('s');
      expect(c.z).toBe('@');
      expect(c.v).toMatch(/^\d{5}$/);
    }
    expect(lastFive.some((c) => String(c.v).startsWith('0'))).toBe(true);
  });

  it('writes the business date and the payment time as real date cells, amounts as numbers', () => {
    const ws = sheetOf(bytes);
    for (let r = 2; r <= 5; r++) {
      expect(isDateCell(ws[`A${r}`]), `A${r}`).toBe(true);
      expect(isDateCell(ws[`C${r}`]), `C${r}`).toBe(true);
      expect(ws[`D${r}`].t, `D${r}`).toBe('n');
    }
    expect(ws.A2.w).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
    expect(ws.C2.w).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
  });

  it('parses back with the import parser: seven rows, no errors, nothing skipped, each with its method', () => {
    const r = parsePaymentsWorkbook(bytes, { stores: STORES });
    expect(r.errors).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.totalRows).toBe(7);
    expect(r.rows).toHaveLength(7);
    expect(r.rows.map((x) => x.row)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(r.rows.slice(4).map((x) => [x.method, x.method_detail, x.employee, x.last_five, x.status])).toEqual([
      ['現金', null, false, '', '已入帳'],
      ['電子支付', 'LINE Pay', false, '', '已入帳'],
      ['刷卡', null, true, '', '已入帳'],
    ]);
    for (const x of r.rows.slice(0, 4)) {
      expect(x.last_five).toMatch(/^\d{5}$/);
      expect(STORES.map((s) => s.id)).toContain(x.store_id);
      expect(x.amount).toBeGreaterThan(0);
    }
    expect(r.rows.some((x) => x.last_five.startsWith('0'))).toBe(true);
  });
});

describe('the export workbook', () => {
  const payments: ExportPayment[] = [
    pay(),
    pay({
      last_five: '00007',
      paid_at: '2026-11-18T16:30:45.000Z',
      amount: 23800,
      note: '',
      store_id: 2,
      status: '未確認',
    }),
    pay({
      last_five: '99999',
      paid_at: '2026-11-19T23:59:00.000Z',
      amount: 1,
      note: '退款, "再確認"\n第二行',
      store_id: 3,
      status: '未入帳',
    }),
  ];

  it('has the import columns in the same order, one row per payment', () => {
    const ws = sheetOf(buildExportWorkbook(payments, STORES));
    expect(rowCells(ws, 1).map((c) => c?.v)).toEqual(HEADER);
    expect(XLSX.utils.decode_range(ws['!ref']!).e.r).toBe(3);
    expect(rowCells(ws, 2).map((c) => c?.w)).toEqual([
      '2026/11/18',
      '01234',
      '2026/11/18 09:15',
      '1,500',
      '早班',
      '台北店 (TPE)',
      '已點收',
      '匯款',
    ]);
  });

  it('maps 已入帳 to 已點收 and both other statuses to 未點收', () => {
    const ws = sheetOf(buildExportWorkbook(payments, STORES));
    expect([2, 3, 4].map((r) => ws[`G${r}`].v)).toEqual(['已點收', '未點收', '未點收']);
  });

  it('writes amounts as numbers and the last five as text', () => {
    const ws = sheetOf(buildExportWorkbook(payments, STORES));
    expect([2, 3, 4].map((r) => [ws[`D${r}`].t, ws[`D${r}`].v])).toEqual([
      ['n', 1500],
      ['n', 23800],
      ['n', 1],
    ]);
    expect(ws.B3.t).toBe('s');
    expect(ws.B3.v).toBe('00007');
  });

  it('writes times as date cells in Taiwan time, whatever the process time zone', () => {
    const seen: unknown[] = [];
    const offsets = new Set<number>();
    for (const tz of ['America/New_York', 'Asia/Kolkata']) {
      process.env.TZ = tz;
      offsets.add(new Date('2026-11-18T00:00:00Z').getTimezoneOffset());
      const ws = sheetOf(buildExportWorkbook(payments, STORES));
      for (const r of [2, 3, 4]) {
        expect(isDateCell(ws[`A${r}`]), `${tz} A${r}`).toBe(true);
        expect(isDateCell(ws[`C${r}`]), `${tz} C${r}`).toBe(true);
      }
      // 2026-11-18T16:30:45Z is already the 19th in Taiwan; so is 2026-11-19T23:59Z the 20th
      expect(
        [2, 3, 4].map((r) => ws[`A${r}`].w),
        tz,
      ).toEqual(['2026/11/18', '2026/11/19', '2026/11/20']);
      expect(
        [2, 3, 4].map((r) => ws[`C${r}`].w),
        tz,
      ).toEqual(['2026/11/18 09:15', '2026/11/19 00:30', '2026/11/20 07:59']);
      expect(ws.C2.v, tz).toBeCloseTo(46344 + (9 * 60 + 15) / 1440, 9);
      expect(ws.A2.v, tz).toBe(46344);
      seen.push([2, 3, 4].map((r) => [ws[`A${r}`].v, ws[`C${r}`].v]));
    }
    expect(offsets.size).toBe(2); // the time zone really changed between the two runs
    expect(seen[1]).toEqual(seen[0]);
  });

  it('imports back unchanged (round trip): last five, time, amount, note, store and status', () => {
    const list: ExportPayment[] = [
      ...payments,
      pay({
        last_five: '10000',
        paid_at: '2026-01-01T00:00:30.000Z',
        amount: 100_000_000,
        note: '=1+1',
        store_id: 1,
        status: '未確認',
      }),
      pay({
        last_five: '00000',
        paid_at: '2025-12-31T16:00:00.000Z',
        amount: 650,
        note: '  ',
        store_id: 2,
        status: '已入帳',
      }),
      pay({
        last_five: '',
        paid_at: '2026-01-02T03:00:00.000Z',
        amount: 90,
        note: '',
        store_id: 1,
        status: '已入帳',
        method: '現金',
        employee: true,
      }),
      pay({
        last_five: '',
        paid_at: '2026-01-02T03:00:00.000Z',
        amount: 90,
        note: '',
        store_id: 1,
        status: '已入帳',
        method: '電子支付',
        method_detail: '街口支付',
      }),
    ];
    const r = parsePaymentsWorkbook(buildExportWorkbook(list, STORES), { stores: STORES });
    expect(r.errors).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.rows.map(({ row: _row, ...rest }) => rest)).toEqual(
      list.map((p) => ({
        last_five: p.last_five,
        paid_at: p.paid_at,
        amount: p.amount,
        note: p.note.trim(),
        store_id: p.store_id,
        // spec section 4: export writes 未點收 for both 未確認 and 未入帳, and import reads 未點收 as 未確認
        status: p.status === '已入帳' ? '已入帳' : '未確認',
        method: p.method ?? '匯款',
        method_detail: p.method_detail ?? null,
        employee: Boolean(p.employee),
      })),
    );
    // stated plainly: 未入帳 does not survive the round trip, it comes back as 未確認
    expect(list[2].status).toBe('未入帳');
    expect(r.rows[2].status).toBe<PaymentStatus>('未確認');
  });

  it('writes formula-like text as plain string cells, never as formulas', () => {
    const risky = ['=1+1', '+886912345678', '-5', '@SUM(A1)', '=HYPERLINK("http://evil.example","x")'];
    const stores = [...STORES, { id: 9, name: '=cmd|calc', code: 'EVIL' }];
    const bytes = buildExportWorkbook(
      risky.map((note, i) => pay({ note, last_five: `1000${i}`, store_id: i === 0 ? 9 : 1 })),
      stores,
    );
    const ws = sheetOf(bytes);
    risky.forEach((note, i) => {
      const c = ws[`E${i + 2}`] as XLSX.CellObject;
      expect(c.t, note).toBe('s');
      expect(c.v, note).toBe(note);
      expect(c.f, note).toBeUndefined();
    });
    expect(ws.F2.t).toBe('s');
    expect(ws.F2.v).toBe('=cmd|calc (EVIL)');
    expect(ws.F2.f).toBeUndefined();
    for (const key of Object.keys(ws).filter((k) => !k.startsWith('!'))) expect(ws[key].f, key).toBeUndefined();
    expect(sheetXml(bytes)).not.toMatch(/<f[\s>/]/);
  });

  it('the formula check above can fail: a real formula cell shows up in the sheet XML', () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, { A1: { t: 'n', v: 2, f: '1+1' }, '!ref': 'A1' } as XLSX.WorkSheet, '匯款記錄');
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    expect(sheetXml(bytes)).toMatch(/<f[\s>/]/);
    expect(readBack(bytes).Sheets['匯款記錄'].A1.f).toBe('1+1');
  });
});

describe('the export CSV', () => {
  it('starts with a UTF-8 BOM, then the header and one line per payment in Taiwan time', () => {
    process.env.TZ = 'America/Chicago';
    const csv = buildExportCsv(
      [
        pay(),
        pay({ last_five: '00007', paid_at: '2026-11-18T16:30:45.000Z', note: '', store_id: 2, status: '未入帳' }),
      ],
      STORES,
    );
    const others = buildExportCsv(
      [pay({ last_five: '', method: '電子支付', method_detail: 'LINE Pay', employee: true })],
      STORES,
    );
    expect(others.slice(1).split('\r\n')[1]).toBe(
      '2026/11/18,,2026/11/18 09:15,1500,早班,台北店 (TPE),已點收,員工購物-電子支付-LINE Pay',
    );
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.slice(1)).toBe(
      '營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態,付款方式\r\n' +
        '2026/11/18,"=""01234""",2026/11/18 09:15,1500,早班,台北店 (TPE),已點收,匯款\r\n' +
        '2026/11/19,"=""00007""",2026/11/19 00:30:45,1500,,台中店 (TXG),未點收,匯款\r\n',
    );
  });

  it('quotes commas, quotes and newlines', () => {
    const csv = buildExportCsv(
      [pay({ note: 'a,b' }), pay({ note: 'say "hi"' }), pay({ note: '第一行\n第二行' })],
      STORES,
    );
    const lines = csv.slice(1).split('\r\n');
    expect(lines[1]).toBe('2026/11/18,"=""01234""",2026/11/18 09:15,1500,"a,b",台北店 (TPE),已點收,匯款');
    expect(lines[2]).toBe('2026/11/18,"=""01234""",2026/11/18 09:15,1500,"say ""hi""",台北店 (TPE),已點收,匯款');
    expect(lines[3]).toBe('2026/11/18,"=""01234""",2026/11/18 09:15,1500,"第一行\n第二行",台北店 (TPE),已點收,匯款');
  });

  it('puts an apostrophe before text starting with =, +, - or @ so no spreadsheet evaluates it', () => {
    const notes = ['=1+1', '+886912345678', '-5', '@SUM(A1)', '=1,2'];
    const csv = buildExportCsv(
      notes.map((note) => pay({ note })),
      [...STORES, { id: 9, name: '=cmd', code: 'X' }],
    );
    const fields = csv
      .slice(1)
      .split('\r\n')
      .slice(1, -1)
      .map((l) => l.split(',').slice(4).join(','));
    expect(fields).toEqual([
      "'=1+1,台北店 (TPE),已點收,匯款",
      "'+886912345678,台北店 (TPE),已點收,匯款",
      "'-5,台北店 (TPE),已點收,匯款",
      "'@SUM(A1),台北店 (TPE),已點收,匯款",
      `"'=1,2",台北店 (TPE),已點收,匯款`,
    ]);
    const storeCsv = buildExportCsv([pay({ store_id: 9 })], [{ id: 9, name: '=cmd', code: 'X' }]);
    expect(storeCsv.slice(1).split('\r\n')[1]).toBe(
      '2026/11/18,"=""01234""",2026/11/18 09:15,1500,早班,\'=cmd (X),已點收,匯款',
    );
    // a ; separates cells in some locales: the note stays one quoted cell, its formula part neutralised
    const semi = buildExportCsv([pay({ note: "a;=cmd|' /C calc'!A0" })], STORES);
    expect(semi.slice(1).split('\r\n')[1]).toBe(
      `2026/11/18,"=""01234""",2026/11/18 09:15,1500,"a;'=cmd|' /C calc'!A0",台北店 (TPE),已點收,匯款`,
    );
  });
});

describe('exportFileName (spec section 9)', () => {
  const now = Date.parse('2026-11-20T16:30:00Z'); // 2026/11/21 00:30 in Taiwan

  it('names an export of all data 匯款記錄_全部_YYYYMMDDHHmm.xlsx in Taiwan time', () => {
    for (const tz of ['UTC', 'America/New_York']) {
      process.env.TZ = tz;
      expect(exportFileName(null, now), tz).toBe('匯款記錄_全部_202611210030.xlsx');
      expect(exportFileName({}, now), tz).toBe('匯款記錄_全部_202611210030.xlsx');
    }
  });

  it('joins the filter parts, then the timestamp', () => {
    expect(
      exportFileName({ storeNames: ['台北店'], statuses: ['已入帳'], from: '2026-11-18', to: '2026-11-21' }, now),
    ).toBe('匯款記錄_台北店_已入帳_20261118-20261121_202611210030.xlsx');
    expect(exportFileName({ statuses: ['未確認'] }, now, 'csv')).toBe('匯款記錄_未確認_202611210030.csv');
    expect(exportFileName({ storeNames: ['台北店', '台中店'] }, now)).toMatch(
      /^匯款記錄_台北店.台中店_202611210030\.xlsx$/,
    );
    expect(exportFileName({ from: '2026-11-18' }, now)).toMatch(/^匯款記錄_20261118-?_202611210030\.xlsx$/);
  });

  it('leaves out characters a file system refuses', () => {
    const name = exportFileName({ storeNames: ['A/B:C*?'] }, now);
    expect(name).not.toMatch(/[\\/:*?"<>|]/);
    expect(name.endsWith('_202611210030.xlsx')).toBe(true);
  });
});
