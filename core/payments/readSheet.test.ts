/**
 * Reading import workbooks (spec section 5 "Excel import, per row"): every fixture is built
 * here with SheetJS, as .xlsx and as .xls (BIFF8), never a committed binary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { MSG } from '../messages.js';
import {
  parsePaymentsWorkbook,
  previewErrors,
  storeMatcher,
  type ParseOptions,
  type ParseResult,
} from './readSheet.js';
import { readWorkbook } from '../spreadsheets/workbook.js';

const STORES = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
  { id: 3, name: '高雄店', code: 'KHH' },
];
const HEADER = ['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店', '點收狀態'];

type CellIn = string | number | XLSX.CellObject | null;
type BookType = 'xlsx' | 'biff8';

/** A workbook as bytes: a header row (row 1) then the given rows; `null` leaves a cell out. */
function workbook(
  rows: CellIn[][],
  opts: { bookType?: BookType; header?: CellIn[] | null; date1904?: boolean; sheetName?: string } = {},
): Uint8Array {
  const header = opts.header === undefined ? HEADER : opts.header;
  const ws = XLSX.utils.aoa_to_sheet(header ? [header, ...rows] : rows);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, opts.sheetName ?? '匯款記錄');
  if (opts.date1904) wb.Workbook = { WBProps: { date1904: true } };
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: opts.bookType ?? 'xlsx' }) as ArrayBuffer);
}

const parse = (bytes: Uint8Array | ArrayBuffer, opts: Partial<ParseOptions> = {}): ParseResult =>
  parsePaymentsWorkbook(bytes, { stores: STORES, ...opts });

/** One data row (sheet row 2) with defaults a valid payment needs, some cells replaced. */
function row(
  over: Partial<Record<'date' | 'lastFive' | 'paidAt' | 'amount' | 'note' | 'store' | 'collection', CellIn>> = {},
): CellIn[] {
  const v = {
    date: 46344,
    lastFive: '01234',
    paidAt: '2026/11/18 09:15',
    amount: 1500,
    note: '',
    store: '台北店',
    collection: '',
    ...over,
  };
  return [v.date, v.lastFive, v.paidAt, v.amount, v.note, v.store, v.collection];
}
/** Parses one data row; it is sheet row 2. */
const one = (over: Parameters<typeof row>[0], opts: Partial<ParseOptions> = {}, bookType: BookType = 'xlsx') =>
  parse(workbook([row(over)], { bookType }), opts);

/** The message of the file-level refusal a call throws; fails the test when nothing is thrown. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.errors).toHaveLength(1);
    return e.errors[0].message;
  }
  throw new Error('expected the file to be refused, it was accepted');
}

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('a good file', () => {
  const rows: CellIn[][] = [
    [46344, '01234', 46344.5, 1500, '早班', '台北店', '已點收'],
    [46344, { t: 'n', v: 1234, z: '00000' }, '2026/11/18 09:15', 'NT$23,800', '', 'TXG', '未點收'],
    ['2026/11/19', '98765', '2026-11-19 18:45', 650, '晚班', '高雄店 (KHH)', ''],
  ];
  const expected = [
    {
      row: 2,
      last_five: '01234',
      paid_at: '2026-11-18T04:00:00.000Z',
      amount: 1500,
      note: '早班',
      store_id: 1,
      status: '已入帳',
    },
    {
      row: 3,
      last_five: '01234',
      paid_at: '2026-11-18T01:15:00.000Z',
      amount: 23800,
      note: '',
      store_id: 2,
      status: '未確認',
    },
    {
      row: 4,
      last_five: '98765',
      paid_at: '2026-11-19T10:45:00.000Z',
      amount: 650,
      note: '晚班',
      store_id: 3,
      status: '未確認',
    },
  ].map((r) => ({ ...r, method: '匯款', method_detail: null, employee: false }));

  it('reads an .xlsx into rows ready for bulk import, with no errors', () => {
    const r = parse(workbook(rows));
    expect(r).toEqual({
      sheetName: '匯款記錄',
      rows: expected,
      errors: [],
      skipped: [],
      totalRows: 3,
      preview: expect.any(Array),
    });
    expect(r.preview.map((p) => [p.row, p.state, p.cells[1]])).toEqual(expected.map((e) => [e.row, 'ok', e.last_five]));
  });

  it('reads the same rows from an .xls (BIFF8) file', () => {
    const r = parse(workbook(rows, { bookType: 'biff8' }));
    expect(r.rows).toEqual(expected);
    expect(r.errors).toEqual([]);
    expect(r.totalRows).toBe(3);
  });

  it('takes an ArrayBuffer as well as a Uint8Array', () => {
    const bytes = workbook(rows);
    const buffer = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(buffer).set(bytes);
    expect(parse(buffer).rows).toEqual(expected);
  });

  it('gives the same instants whatever the process time zone is', () => {
    const bytes = workbook(rows);
    for (const tz of ['America/New_York', 'Asia/Tokyo', 'UTC']) {
      process.env.TZ = tz;
      expect(
        parse(bytes).rows.map((x) => x.paid_at),
        tz,
      ).toEqual(expected.map((x) => x.paid_at));
    }
  });

  it('reads the first sheet when none is named 匯款記錄', () => {
    const r = parse(workbook(rows, { sheetName: 'Sheet1' }));
    expect(r.sheetName).toBe('Sheet1');
    expect(r.rows).toEqual(expected);
  });
});

describe('row numbers and skipped rows', () => {
  it('counts the header as row 1 and skips empty rows without counting them', () => {
    const r = parse(
      workbook([row(), [], [null, null, null], row({ lastFive: '123' }), [], row({ lastFive: '55555' })]),
    );
    expect(r.totalRows).toBe(3);
    expect(r.errors).toEqual(['第 5 行：後五碼必須是5位數字']);
    expect(r.rows.map((x) => x.row)).toEqual([2, 7]);
  });

  it('skips a row with no first cell (business date) and reports it in skipped, not as an error', () => {
    const r = parse(
      workbook([
        row(),
        row({ date: null, lastFive: '22222' }),
        row({ date: '', lastFive: 'bad' }),
        row({ lastFive: '33333' }),
      ]),
    );
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.last_five)).toEqual(['01234', '33333']);
    expect(r.skipped.map((s) => s.row)).toEqual([3, 4]);
    expect(r.skipped[0].reason).toBe(MSG.rowError(3, MSG.importNoBusinessDate));
    expect(r.skipped[0].reason.startsWith('第 3 行：')).toBe(true);
  });
});

describe('帳號後五碼: the displayed text of the cell', () => {
  it("keeps '01234' typed in a text cell", () => {
    expect(one({ lastFive: { t: 's', v: '01234', z: '@' } }).rows[0].last_five).toBe('01234');
  });

  it('keeps 1234 in a number cell formatted 00000 as 01234, in .xlsx and .xls', () => {
    for (const bt of ['xlsx', 'biff8'] as const) {
      const r = one({ lastFive: { t: 'n', v: 1234, z: '00000' } }, {}, bt);
      expect(r.errors, bt).toEqual([]);
      expect(r.rows[0].last_five, bt).toBe('01234');
    }
  });

  it('reads a five-digit number cell', () => {
    expect(one({ lastFive: 98765 }).rows[0].last_five).toBe('98765');
  });

  it('refuses anything but exactly five digits, with the row number', () => {
    const bad: CellIn[] = ['1234', 1234, '123456', 123456, '12a45', '', { t: 'n', v: 123456, z: '00000' }];
    const r = parse(workbook(bad.map((lastFive) => row({ lastFive }))));
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual(
      bad.map(
        (v, i) =>
          `第 ${i + 2} 行：${v === 1234 ? '後五碼必須是5位數字（讀到 1234，可能遺失開頭的 0：請把這一欄設為文字格式）' : '後五碼必須是5位數字'}`,
      ),
    );
  });
});

describe('匯款時間: serial numbers and date strings, in Taiwan time', () => {
  it('reads an Excel serial number (1900 system) as Taiwan time', () => {
    expect(one({ paidAt: 46344.5 }).rows[0].paid_at).toBe('2026-11-18T04:00:00.000Z');
    expect(one({ paidAt: { t: 'n', v: 46344.385416666664, z: 'yyyy/mm/dd hh:mm' } }).rows[0].paid_at).toBe(
      '2026-11-18T01:15:00.000Z',
    );
  });

  it('reads the 1904 date system when the workbook says so (.xlsx and .xls)', () => {
    for (const bookType of ['xlsx', 'biff8'] as const) {
      const r = parse(
        workbook([row({ date: 44882, paidAt: 44882.5 }), row({ date: 44882, paidAt: 0.25, lastFive: '22222' })], {
          date1904: true,
          bookType,
        }),
      );
      expect(r.errors, bookType).toEqual([]);
      expect(
        r.rows.map((x) => x.paid_at),
        bookType,
      ).toEqual(['2026-11-18T04:00:00.000Z', '2026-11-17T22:00:00.000Z']);
    }
  });

  it('reads date strings as Taiwan time', () => {
    const texts = ['2026/11/18 09:15', '2026-11-18 09:15', '2026/11/18', '2026/11/18 09:15:30'];
    process.env.TZ = 'America/Los_Angeles';
    const r = parse(workbook(texts.map((paidAt, i) => row({ paidAt, lastFive: `1000${i}` }))));
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.paid_at)).toEqual([
      '2026-11-18T01:15:00.000Z',
      '2026-11-18T01:15:00.000Z',
      '2026-11-17T16:00:00.000Z',
      '2026-11-18T01:15:30.000Z',
    ]);
  });

  it("combines a bare time (0.5 or '09:15') with the row's business date", () => {
    const r = parse(
      workbook([
        row({ date: 46344, paidAt: 0.5 }),
        row({ date: 46344, paidAt: '09:15', lastFive: '22222' }),
        row({ date: '2026/11/19', paidAt: { t: 'n', v: 0.75, z: 'hh:mm' }, lastFive: '33333' }),
        row({ date: '2026-11-19', paidAt: '9:05', lastFive: '44444' }),
      ]),
    );
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.paid_at)).toEqual([
      '2026-11-18T04:00:00.000Z',
      '2026-11-18T01:15:00.000Z',
      '2026-11-19T10:00:00.000Z',
      '2026-11-19T01:05:00.000Z',
    ]);
  });

  it('says 匯款時間不能為空 when the payment time is missing', () => {
    const r = parse(workbook([row({ paidAt: null }), row({ paidAt: '   ' })]));
    expect(r.errors).toEqual(['第 2 行：匯款時間不能為空', '第 3 行：匯款時間不能為空']);
    expect(r.rows).toEqual([]);
  });

  it('says 無效的日期格式 for date text that is not a date', () => {
    const bad = ['abc', '2026/13/01 09:00', '2026/02/30', '2026/11/18 25:00', '25:00', '18/11/2026'];
    const r = parse(workbook(bad.map((paidAt) => row({ paidAt }))));
    expect(r.errors).toEqual(bad.map((v, i) => `第 ${i + 2} 行：無效的日期格式：匯款時間「${v}」`));
  });

  it('says 日期格式錯誤 for a serial number that is not a date (negative, 1900-02-29, past 9999)', () => {
    const r = parse(workbook([row({ paidAt: -1 }), row({ paidAt: 60 }), row({ paidAt: 3_000_000 })]));
    expect(r.errors).toEqual([
      '第 2 行：日期格式錯誤：匯款時間「-1」',
      '第 3 行：日期格式錯誤：匯款時間「60」',
      '第 4 行：日期格式錯誤：匯款時間「3000000」',
    ]);
  });

  it('refuses a bare time whose business date is not a date with a date-format message', () => {
    // The time is fine; the business date it belongs to cannot be read. Spec section 5: invalid dates give 無效的日期格式.
    const r = parse(
      workbook([row({ date: '昨天', paidAt: '09:15' }), row({ date: 'abc', paidAt: 0.5, lastFive: '22222' })]),
    );
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual(['第 2 行：無效的日期格式：營業日期「昨天」', '第 3 行：無效的日期格式：營業日期「abc」']);
  });

  it('refuses an unreadable business date even beside a complete payment time', () => {
    const r = parse(workbook([row({ date: 'abc', paidAt: '2026/11/18 09:15' })]));
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual(['第 2 行：無效的日期格式：營業日期「abc」']);
  });

  it('reads 民國 dates and 上午/下午 times as Taiwanese offices type them', () => {
    const r = parse(
      workbook([
        row({ date: '115/11/21', paidAt: '115/11/21 15:30' }),
        row({ date: '115/11/21', paidAt: '2026/11/21 下午 3:15', lastFive: '22222' }),
        row({ date: '2026年11月21日', paidAt: '上午 9:05', lastFive: '33333' }),
      ]),
    );
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.paid_at)).toEqual([
      '2026-11-21T07:30:00.000Z',
      '2026-11-21T07:15:00.000Z',
      '2026-11-21T01:05:00.000Z',
    ]);
  });

  it('a LibreOffice workbook from an office CSV: 民國, 下午, ="01234" kept; a dropped zero and a bad date named', () => {
    const r = parse(readFileSync(join(import.meta.dirname, '..', '..', 'test', 'files', 'taiwan-office.xlsx')));
    expect(r.rows.map((x) => [x.last_five, x.paid_at])).toEqual([
      ['01234', '2026-11-21T07:30:00.000Z'],
      ['02345', '2026-11-21T07:15:00.000Z'],
      ['03456', '2026-11-21T01:05:00.000Z'],
    ]);
    expect(r.errors).toEqual([
      '第 5 行：後五碼必須是5位數字（讀到 1234，可能遺失開頭的 0：請把這一欄設為文字格式）',
      '第 6 行：無效的日期格式：匯款時間「2026/13/45 10:00」',
    ]);
  });
});

describe('匯款金額', () => {
  it('takes numbers and text such as NT$1,500', () => {
    const amounts: CellIn[] = [1500, 'NT$1,500', '1,500', ' 2000 ', { t: 'n', v: 23800, z: '#,##0' }, 'nt$650'];
    const r = parse(workbook(amounts.map((amount, i) => row({ amount, lastFive: `1000${i}` }))));
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.amount)).toEqual([1500, 1500, 1500, 2000, 23800, 650]);
  });

  it('refuses 0, negative, fractional, non-numeric and missing amounts, with the row number', () => {
    const r = parse(
      workbook([
        row({ amount: 0 }),
        row({ amount: -5 }),
        row({ amount: 1.5 }),
        row({ amount: 'abc' }),
        row({ amount: null }),
        row({ amount: '0' }),
      ]),
    );
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual([
      `第 2 行：${MSG.importAmountPositive}`,
      `第 3 行：${MSG.importAmountPositive}`,
      `第 4 行：${MSG.amountInteger}`,
      `第 5 行：${MSG.amountNumeric}`,
      `第 6 行：${MSG.amountRequired}`,
      `第 7 行：${MSG.importAmountPositive}`,
    ]);
  });
});

describe('分店: matched by name, code, or name (code)', () => {
  it('matches all three forms, full-width brackets and any case of the code', () => {
    const cells = ['台北店', 'TXG', '高雄店 (KHH)', '台中店(TXG)', '台北店（TPE）', 'khh', '  台中店  '];
    const r = parse(workbook(cells.map((store, i) => row({ store, lastFive: `1000${i}` }))));
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.store_id)).toEqual([1, 2, 3, 2, 1, 3, 2]);
  });

  it('storeMatcher gives null for a name with the wrong code', () => {
    const match = storeMatcher(STORES);
    expect(match('台北店 (TPE)')).toBe(1);
    expect(match('台北店 (TXG)')).toBeNull();
    expect(match('台南店')).toBeNull();
  });

  it('says 找不到對應的分店「…」 for an unknown store', () => {
    const r = parse(workbook([row({ store: '台南店' }), row({ store: '台北店 (TXG)' })]));
    expect(r.errors).toEqual(['第 2 行：找不到對應的分店「台南店」', '第 3 行：找不到對應的分店「台北店 (TXG)」']);
  });

  it("falls back to the user's store for an empty store cell, else to store 1", () => {
    expect(one({ store: null }, { userStoreId: 3 }).rows[0].store_id).toBe(3);
    expect(one({ store: '' }, { userStoreId: 2 }).rows[0].store_id).toBe(2);
    expect(one({ store: null }, { userStoreId: null }).rows[0].store_id).toBe(1);
    expect(one({ store: null }).rows[0].store_id).toBe(1);
    // a named store wins over the fallback
    expect(one({ store: 'KHH' }, { userStoreId: 2 }).rows[0].store_id).toBe(3);
  });
});

describe('點收狀態', () => {
  it('makes 已點收 into 已入帳 and anything else into 未確認', () => {
    const cells: CellIn[] = ['已點收', ' 已點收 ', '未點收', null, '', 'xyz', '已入帳', 1];
    const r = parse(workbook(cells.map((collection, i) => row({ collection, lastFive: `1000${i}` }))));
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.status)).toEqual([
      '已入帳',
      '已入帳',
      '未確認',
      '未確認',
      '未確認',
      '未確認',
      '未確認',
      '未確認',
    ]);
  });
});

describe('other row problems', () => {
  it('says 資料格式錯誤 for a row holding an error cell (#VALUE!)', () => {
    for (const bookType of ['xlsx', 'biff8'] as const) {
      const r = parse(
        workbook(
          [
            row({ amount: { t: 'e', v: 0x0f } }),
            row({ lastFive: '22222' }),
            row({ note: { t: 'e', v: 0x07 }, lastFive: '33333' }),
          ],
          { bookType },
        ),
      );
      expect(r.errors, bookType).toEqual(['第 2 行：資料格式錯誤', '第 4 行：資料格式錯誤']);
      expect(
        r.rows.map((x) => x.row),
        bookType,
      ).toEqual([3]);
    }
  });

  it('reports every problem of a row, each with its row number', () => {
    const r = parse(workbook([row({ lastFive: '12', paidAt: null, amount: 0, store: '台南店' })]));
    expect(r.errors).toEqual([
      '第 2 行：後五碼必須是5位數字',
      '第 2 行：匯款時間不能為空',
      `第 2 行：${MSG.importAmountPositive}`,
      '第 2 行：找不到對應的分店「台南店」',
    ]);
  });

  it('keeps the valid rows beside the errors so the preview can mark each row', () => {
    const r = parse(workbook([row(), row({ lastFive: 'x' }), row({ lastFive: '55555' })]));
    expect(r.rows.map((x) => x.row)).toEqual([2, 4]);
    expect(r.errors).toEqual(['第 3 行：後五碼必須是5位數字']);
    expect(r.totalRows).toBe(3);
  });

  it('trims the note and refuses one over 1000 characters', () => {
    expect(one({ note: '  早班  ' }).rows[0].note).toBe('早班');
    expect(one({ note: 'x'.repeat(1001) }).errors).toEqual([`第 2 行：${MSG.noteTooLong}`]);
  });
});

describe('duplicates within the file', () => {
  it('skips a row equal to an earlier one (same store, last five, time, amount) and reports it', () => {
    const r = parse(
      workbook([
        row(),
        row({ amount: 1501 }), // a different amount: not a duplicate
        row({ paidAt: { t: 'n', v: 46344.385416666664 }, note: '另一個備註', collection: '已點收' }), // 09:15 as a serial: the same payment
        row({ store: 'TXG' }), // another store: not a duplicate
      ]),
    );
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.row)).toEqual([2, 3, 5]);
    expect(r.skipped).toEqual([{ row: 4, reason: MSG.rowError(4, MSG.importDuplicateInFile(2)), duplicateOf: 2 }]);
    // the wizard's preview marks it 重複 with what it repeats
    expect(r.preview.map((p) => [p.row, p.state, p.reason])).toEqual([
      [2, 'ok', undefined],
      [3, 'ok', undefined],
      [4, 'duplicate', MSG.importDuplicateInFile(2)],
      [5, 'ok', undefined],
    ]);
  });

  it('gives each row in error its reasons in the preview, once each', () => {
    const r = parse(workbook([row({ lastFive: '12', amount: -5 }), row()]));
    expect(r.preview[0]).toMatchObject({
      row: 2,
      state: 'error',
      reason: `${MSG.importLastFive}；${MSG.importAmountPositive}`,
    });
    expect(r.preview[1]).toMatchObject({ row: 3, state: 'ok' });
  });

  it('keeps them with allowDuplicates', () => {
    const r = parse(workbook([row(), row(), row()]), { allowDuplicates: true });
    expect(r.rows.map((x) => x.row)).toEqual([2, 3, 4]);
    expect(r.skipped).toEqual([]);
  });
});

describe('file-level limits and refusals', () => {
  it('refuses a file over maxBytes before reading it', () => {
    const bytes = workbook([row()]);
    expect(refusal(() => parse(bytes, { maxBytes: bytes.length - 1 }))).toMatch(/^檔案過大/);
    expect(parse(bytes, { maxBytes: bytes.length }).rows).toHaveLength(1);
    expect(refusal(() => parse(new Uint8Array(1.5 * 1024 * 1024), { maxBytes: 1024 * 1024 }))).toBe(
      MSG.importFileTooLarge(1),
    );
  });

  it('refuses a file over the default 25 MB (room for 100 000 rows as written by SheetJS)', () => {
    expect(refusal(() => parse(new Uint8Array(26 * 1024 * 1024)))).toBe('檔案過大：上限為 25 MB');
  });

  it('refuses more data rows than maxRows, and accepts exactly maxRows', () => {
    const rows = [row({ lastFive: '11111' }), row({ lastFive: '22222' }), row({ lastFive: '33333' })];
    expect(parse(workbook(rows), { maxRows: 3 }).rows).toHaveLength(3);
    expect(refusal(() => parse(workbook([...rows, row({ lastFive: '44444' })]), { maxRows: 3 }))).toBe(
      MSG.importTooManyRows(3),
    );
  });

  it('counts only data rows against maxRows: empty rows are skipped, not counted', () => {
    // three payments with a blank line between them: three rows to import, within a limit of three
    const bytes = workbook([row({ lastFive: '11111' }), [], row({ lastFive: '22222' }), row({ lastFive: '33333' })]);
    const r = parse(bytes, { maxRows: 3 });
    expect(r.rows.map((x) => x.last_five)).toEqual(['11111', '22222', '33333']);
    expect(r.totalRows).toBe(3);
  });

  it('says 不是 Excel 檔案 for random bytes, a text file or a PDF', () => {
    let seed = 7;
    const random = Uint8Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    random[0] = 0x13; // not the start of a zip or an OLE file
    const text = new TextEncoder().encode(
      '營業日期,帳號後五碼,匯款時間,匯款金額\n2026/11/18,01234,2026/11/18 09:15,1500\n',
    );
    const pdf = new TextEncoder().encode('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
    for (const bytes of [random, text, pdf, new Uint8Array(0)]) {
      const message = refusal(() => parse(bytes));
      expect(message).toBe(MSG.importNotSpreadsheet);
      expect(message.startsWith('不是 Excel 檔案')).toBe(true);
    }
  });

  it('says 檔案解析失敗，請確認檔案格式正確 for a truncated .xlsx or .xls', () => {
    for (const bookType of ['xlsx', 'biff8'] as const) {
      const bytes = workbook([row(), row({ lastFive: '22222' })], { bookType });
      expect(
        refusal(() => parse(bytes.slice(0, Math.floor(bytes.length / 2)))),
        bookType,
      ).toBe('檔案解析失敗，請確認檔案格式正確');
    }
  });

  it('names the missing columns of a workbook without the expected header', () => {
    const header = HEADER.map((h) => (h === '帳號後五碼' ? '帳號' : h));
    expect(refusal(() => parse(workbook([row()], { header })))).toBe(MSG.importMissingHeader(['帳號後五碼']));
    // data in row 1, no header at all
    expect(refusal(() => parse(workbook([row()], { header: null })))).toBe(
      MSG.importMissingHeader(['帳號後五碼', '匯款時間', '匯款金額']),
    );
    // the header one row too low
    expect(refusal(() => parse(workbook([HEADER, row()], { header: ['匯款記錄'] })))).toBe(
      MSG.importMissingHeader(['帳號後五碼', '匯款時間', '匯款金額']),
    );
  });

  it('says 檔案中沒有資料列 for a workbook with only the header (or only empty rows under it)', () => {
    expect(refusal(() => parse(workbook([])))).toBe(MSG.importNoRows);
    expect(refusal(() => parse(workbook([[], [null, ''], []])))).toBe(MSG.importNoRows);
  });

  it('readWorkbook opens a good file and refuses a bad one the same way', () => {
    expect(readWorkbook(workbook([row()])).SheetNames).toEqual(['匯款記錄']);
    expect(refusal(() => readWorkbook(new TextEncoder().encode('hello')))).toBe(MSG.importNotSpreadsheet);
  });
});

describe('previewErrors', () => {
  it('gives the first five errors and how many more there are', () => {
    const errors = Array.from({ length: 8 }, (_, i) => `第 ${i + 2} 行：後五碼必須是5位數字`);
    expect(previewErrors(errors)).toEqual({ first: errors.slice(0, 5), more: 3 });
    expect(previewErrors(errors.slice(0, 5))).toEqual({ first: errors.slice(0, 5), more: 0 });
    expect(previewErrors([])).toEqual({ first: [], more: 0 });
  });

  it('previews the errors of a parsed file in sheet order', () => {
    const r = parse(workbook(Array.from({ length: 7 }, () => row({ lastFive: '1' }))));
    const p = previewErrors(r.errors);
    expect(p.first).toEqual([
      '第 2 行：後五碼必須是5位數字',
      '第 3 行：後五碼必須是5位數字',
      '第 4 行：後五碼必須是5位數字',
      '第 5 行：後五碼必須是5位數字',
      '第 6 行：後五碼必須是5位數字',
    ]);
    expect(p.more).toBe(2);
  });
});

describe('a time ahead of now', () => {
  const now = Date.parse('2026-11-25T04:00:00Z'); // 2026/11/25 12:00 in Taipei
  it('a row dated 2027/01/01 is an error with the sentence the form gets from the server; nothing may be imported', () => {
    const r = one({ date: '2027/01/01', paidAt: '2027/01/01 09:00' }, { now });
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual([MSG.rowError(2, MSG.paidAtTooFarAhead)]);
    expect(r.preview[0]).toMatchObject({ state: 'error', reason: MSG.paidAtTooFarAhead });
    expect(MSG.paidAtTooFarAhead).toBe('匯款時間不能晚於現在超過一天，請確認日期與時間');
  });
  it('within a day ahead (clocks differ) and any past time are kept as written', () => {
    expect(one({ date: '2026/11/26', paidAt: '2026/11/26 11:00' }, { now }).rows).toHaveLength(1);
    expect(one({ date: '2016/11/26', paidAt: '2016/11/26 11:00' }, { now }).rows).toHaveLength(1);
  });
});

describe('the 付款方式 column', () => {
  const WITH_METHOD = [...HEADER, '付款方式'];
  let amount = 100;
  // each row its own amount: equal rows of one file are repeats, skipped
  const rowWith = (lastFive: CellIn, method: CellIn): CellIn[] => [...row({ lastFive, amount: amount++ }), method];
  const parseRows = (rows: CellIn[][]) => parse(workbook(rows, { header: WITH_METHOD }));

  it('reads 匯款 from an empty cell and from a file without the column, every method by its name, 員工購物 and an e-payment sub-type', () => {
    const r = parseRows([
      rowWith('01234', ''),
      rowWith('', '現金'),
      rowWith(null, '刷卡'),
      rowWith('', '電子支付-LINE Pay'),
      rowWith('', '員工購物-現金'),
      rowWith('', ' 電子支付（街口支付）'),
    ]);
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => [x.method, x.method_detail, x.employee, x.last_five, x.status])).toEqual([
      ['匯款', null, false, '01234', '未確認'],
      ['現金', null, false, '', '已入帳'],
      ['刷卡', null, false, '', '已入帳'],
      ['電子支付', 'LINE Pay', false, '', '已入帳'],
      ['現金', null, true, '', '已入帳'],
      ['電子支付', '街口支付', false, '', '已入帳'],
    ]);
    expect(parse(workbook([row()])).rows[0]).toMatchObject({ method: '匯款', last_five: '01234' });
  });

  it('tells a cash sale and a card sale of the same time and amount apart, and skips a second identical cash row', () => {
    const same = (method: string): CellIn[] => [...row({ lastFive: '', amount: 500 }), method];
    const r = parseRows([same('現金'), same('刷卡'), same('現金')]);
    expect(r.rows.map((x) => x.method)).toEqual(['現金', '刷卡']);
    expect(r.skipped.map((x) => x.row)).toEqual([4]);
  });

  it('refuses an unknown method in Chinese naming the allowed values, a cash row with a last five, and a transfer without one', () => {
    const r = parseRows([rowWith('01234', 'Cash'), rowWith('01234', '現金'), rowWith('', '匯款')]);
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual([
      '第 2 行：付款方式必須是 匯款、現金、刷卡 或 電子支付，空白為匯款；電子支付可寫類型、員工購物可寫在前面，例如「電子支付-LINE Pay」「員工購物-現金」（讀到「Cash」）',
      '第 3 行：現金不需要帳號後五碼，請留空（只有匯款需要）',
      `第 4 行：${MSG.importLastFive}`,
    ]);
  });
});
