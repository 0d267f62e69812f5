/**
 * Writes the export workbook, its CSV twin and the import sample, as bytes (no file system).
 * The export uses the import's columns and order, so an exported file imports back unchanged.
 */
import * as XLSX from 'xlsx';
import { csvCell } from '../spreadsheets/csvWrite.js';
import { MSG } from '../messages.js';
import { addDays, compactTimestamp, parseInstant, taipeiDate } from '../time.js';
import { storeLabel } from '../labels.js';
import { CELL_FORMATS, columnCsv, SHEET_COLUMNS, SHEET_NAME, type ExportPayment, type SheetColumn } from './columns.js';

export { type ExportPayment } from './columns.js';

export type StoreRef = { id: number; name: string; code: string };

/** The sheet's column widths, in characters, as SheetJS takes them. */
const colWidths = (columns: readonly SheetColumn[] = SHEET_COLUMNS) => columns.map((c) => ({ wch: c.width }));

function headerRow(columns: readonly SheetColumn[]): XLSX.CellObject[] {
  return columns.map((c) => ({ t: 's', v: c.header }));
}

/**
 * The row writer of one workbook: a payment as sheet cells. Text is always written as a string
 * cell, never as a formula, so a note such as `=HYPERLINK(...)` stays text in every spreadsheet program.
 */
function cellsWriter(
  columns: readonly SheetColumn[],
  storeName: (id: number) => string,
): (p: ExportPayment) => XLSX.CellObject[] {
  const cells = columns.map((c) => {
    const value = c.cell({ storeName });
    const t = c.kind === 'number' ? 'n' : 's';
    const z = c.style && CELL_FORMATS[c.style];
    return z
      ? (p: ExportPayment): XLSX.CellObject => ({ t, v: value(p), z })
      : (p: ExportPayment): XLSX.CellObject => ({ t, v: value(p) });
  });
  return (p) => cells.map((cell) => cell(p));
}

export function storeNamer(stores: readonly StoreRef[]): (id: number) => string {
  // Labels made once per store, not once per row: an export names the same few stores a million times.
  const byId = new Map(stores.map((s) => [s.id, storeLabel(s)]));
  const unknown = storeLabel(undefined);
  return (id) => byId.get(id) ?? unknown;
}

function sheetFromRows(rows: XLSX.CellObject[][], columns: readonly SheetColumn[]): XLSX.WorkSheet {
  const ws: XLSX.WorkSheet = { '!data': rows } as XLSX.WorkSheet;
  ws['!ref'] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(rows.length - 1, 0), c: columns.length - 1 },
  });
  ws['!cols'] = colWidths(columns);
  return ws;
}

function workbookBytes(ws: XLSX.WorkSheet): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, SHEET_NAME);
  // In Node a Buffer is written directly, much faster than an ArrayBuffer; browsers have no Buffer.
  if (typeof Buffer !== 'undefined')
    return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Uint8Array;
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer);
}

/** The export workbook: sheet 匯款記錄, the import's columns, one row per payment. */
export function buildExportWorkbook(payments: Iterable<ExportPayment>, stores: readonly StoreRef[]): Uint8Array {
  const columns = [...SHEET_COLUMNS];
  const cells = cellsWriter(columns, storeNamer(stores));
  const rows: XLSX.CellObject[][] = [headerRow(columns)];
  for (const p of payments) rows.push(cells(p));
  return workbookBytes(sheetFromRows(rows, columns));
}

/**
 * The CSV line writer of one export (no line end): the sheet's columns, each written as its
 * entry in SHEET_COLUMNS says (times as Taiwan time; dates, times and amounts as digits and
 * separators no spreadsheet reads as a formula; text through `csvCell`). Made once per file, each
 * column keeps what repeats (a store's cell, the day at hand).
 */
function csvLineWriter(
  stores: readonly StoreRef[],
  columns: readonly SheetColumn[] = SHEET_COLUMNS,
): (p: ExportPayment) => string {
  const ctx = { storeName: storeNamer(stores) };
  const [first, ...rest] = columns.map((c) => columnCsv(c, ctx));
  return (p) => {
    let line = first(p);
    for (let i = 0; i < rest.length; i++) line += `,${rest[i](p)}`;
    return line;
  };
}

/** The first line of the CSV: a UTF-8 BOM so Excel shows the Chinese correctly, then the headers. */
const csvHead = (columns: readonly SheetColumn[] = SHEET_COLUMNS) =>
  `\uFEFF${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;

/** The same table as CSV, with a UTF-8 BOM so Excel shows the Chinese correctly. */
export function buildExportCsv(payments: Iterable<ExportPayment>, stores: readonly StoreRef[]): string {
  const columns = [...SHEET_COLUMNS];
  const line = csvLineWriter(stores, columns);
  let out = csvHead(columns);
  for (const p of payments) out += `${line(p)}\r\n`;
  return out;
}

/** The CSV as a stream of text, from payments arriving in batches. */
export async function* streamExportCsv(
  batches: AsyncIterable<Iterable<ExportPayment>>,
  stores: readonly StoreRef[],
): AsyncGenerator<string> {
  const columns = [...SHEET_COLUMNS];
  const line = csvLineWriter(stores, columns);
  yield csvHead(columns);
  for await (const batch of batches) {
    let chunk = '';
    for (const p of batch) chunk += `${line(p)}\r\n`;
    yield chunk;
  }
}

/** The sample workbook `匯款記錄_匯入範例.xlsx`: the header, four transfers and a cash, an e-payment and a staff card sale. */
export function buildSampleWorkbook(
  stores: readonly StoreRef[] = [],
  now: number = Date.now(),
  opts: { takings?: boolean } = {},
): Uint8Array {
  const first = stores[0] ? storeLabel(stores[0]) : '總店 (HQ)';
  const second = stores[1] ? stores[1].code : (stores[0]?.code ?? 'HQ');
  const day = addDays(taipeiDate(now), -1);
  const at = (hm: string) => new Date(parseInstant(`${day} ${hm}`)!).toISOString();
  const examples: ExportPayment[] = [
    { last_five: '01234', paid_at: at('09:15'), amount: 1500, note: '範例：早班匯款', store_id: -1, status: '已入帳' },
    { last_five: '56789', paid_at: at('10:30'), amount: 23800, note: '', store_id: -1, status: '未確認' },
    {
      last_five: '00987',
      paid_at: at('13:05'),
      amount: 650,
      note: '分店欄可填名稱、代碼或「名稱 (代碼)」',
      store_id: -2,
      status: '未確認',
    },
    {
      last_five: '24680',
      paid_at: at('18:45'),
      amount: 12000,
      note: '點收狀態填「已點收」會匯入為已入帳',
      store_id: -1,
      status: '未確認',
    },
    {
      last_five: '',
      paid_at: at('19:10'),
      amount: 320,
      note: '付款方式空白即為匯款；現金、刷卡、電子支付不填後五碼',
      store_id: -1,
      status: '已入帳',
      method: '現金',
    },
    {
      last_five: '',
      paid_at: at('19:40'),
      amount: 880,
      note: '電子支付可寫類型，例如「電子支付-LINE Pay」',
      store_id: -2,
      status: '已入帳',
      method: '電子支付',
      method_detail: 'LINE Pay',
    },
    {
      last_five: '',
      paid_at: at('20:05'),
      amount: 150,
      note: '員工購物寫在前面，例如「員工購物-刷卡」',
      store_id: -1,
      status: '已入帳',
      method: '刷卡',
      employee: true,
    },
  ];
  const columns = [...SHEET_COLUMNS];
  const cells = cellsWriter(columns, (id) => (id === -2 ? second : first));
  const rows: XLSX.CellObject[][] = [headerRow(columns)];
  // takings in hand only for someone who may import them (記錄收款): the sample imports as it is
  for (const p of examples) if (opts.takings !== false || !p.method) rows.push(cells(p));
  return workbookBytes(sheetFromRows(rows, columns));
}

interface ExportFilterParts {
  storeNames?: string[];
  statuses?: string[];
  /** Taiwan dates */
  from?: string;
  to?: string;
  /** the search text (last five or note) */
  search?: string;
  lastFive?: string[];
  methods?: string[];
  /** true: 員工購物 only; false: without them */
  employee?: boolean;
  /** how many payments were picked one by one */
  selected?: number;
}

/**
 * Export file names (spec section 9): all data `匯款記錄_全部_YYYYMMDDHHmm.xlsx`; filtered, the
 * filter parts joined, then the timestamp, e.g. `匯款記錄_台北店_已入帳_20261118-20261121_202611211530.xlsx`.
 */
export function exportFileName(
  filter: ExportFilterParts | null,
  now: number = Date.now(),
  ext: 'xlsx' | 'csv' | 'json' = 'xlsx',
): string {
  const parts: string[] = [SHEET_NAME];
  const f = filter ?? {};
  const filtered: string[] = [];
  if (f.storeNames?.length) filtered.push(f.storeNames.join('、'));
  if (f.statuses?.length) filtered.push(f.statuses.join('、'));
  if (f.from || f.to) filtered.push(`${(f.from ?? '').replace(/-/g, '')}-${(f.to ?? '').replace(/-/g, '')}`);
  if (f.search) filtered.push(`搜尋「${f.search.slice(0, 20)}」`);
  if (f.lastFive?.length) filtered.push(`後五碼${f.lastFive.join('、')}`);
  if (f.methods?.length) filtered.push(f.methods.join('、'));
  if (f.employee !== undefined) filtered.push(f.employee ? '員工購物' : '非員工購物');
  if (f.selected) filtered.push(`選取${f.selected}筆`);
  parts.push(...(filtered.length ? filtered : [MSG.exportAll]));
  parts.push(compactTimestamp(now));
  return `${parts.join('_').replace(/[\\/:*?"<>|]/g, '')}.${ext}`;
}
