/** Writes the export workbook, its CSV twin and the import sample as bytes, in the import's columns so they import back. */
import * as XLSX from 'xlsx';
import { csvCell } from '../spreadsheets/csvWrite.js';
import { MSG } from '../messages.js';
import { addDays, compactTimestamp, parseInstant, taipeiDate } from '../time.js';
import { storeLabel } from '../labels.js';
import { CELL_FORMATS, columnCsv, SHEET_COLUMNS, SHEET_NAME, type ExportPayment, type SheetColumn } from './columns.js';

export { type ExportPayment } from './columns.js';

export type StoreRef = { id: number; name: string; code: string };

const colWidths = (columns: readonly SheetColumn[] = SHEET_COLUMNS) => columns.map((c) => ({ wch: c.width }));

function headerRow(columns: readonly SheetColumn[]): XLSX.CellObject[] {
  return columns.map((c) => ({ t: 's', v: c.header }));
}

/** A payment as sheet cells. Text is a string cell, never a formula, so a note `=HYPERLINK(...)` stays text. */
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
  // once per store, not per row: an export names the same few stores a million times
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
  // a Buffer is much faster than an ArrayBuffer; browsers have none
  if (typeof Buffer !== 'undefined')
    return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Uint8Array;
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer);
}

/** The export workbook, in the import's columns, so it imports back unchanged. */
export function buildExportWorkbook(payments: Iterable<ExportPayment>, stores: readonly StoreRef[]): Uint8Array {
  const columns = [...SHEET_COLUMNS];
  const cells = cellsWriter(columns, storeNamer(stores));
  const rows: XLSX.CellObject[][] = [headerRow(columns)];
  for (const p of payments) rows.push(cells(p));
  return workbookBytes(sheetFromRows(rows, columns));
}

/** One export's CSV line writer (no line end); made once per file, so each column may cache what repeats. */
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

/** A UTF-8 BOM so Excel shows the Chinese correctly, then the headers. */
const csvHead = (columns: readonly SheetColumn[] = SHEET_COLUMNS) =>
  `\uFEFF${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;

export function buildExportCsv(payments: Iterable<ExportPayment>, stores: readonly StoreRef[]): string {
  const columns = [...SHEET_COLUMNS];
  const line = csvLineWriter(stores, columns);
  let out = csvHead(columns);
  for (const p of payments) out += `${line(p)}\r\n`;
  return out;
}

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

/** The sample workbook: four transfers, then a cash, an e-payment and a staff card sale. */
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
  // takings in hand only for someone who may import them: the sample imports as it is
  for (const p of examples) if (opts.takings !== false || !p.method) rows.push(cells(p));
  return workbookBytes(sheetFromRows(rows, columns));
}

interface ExportFilterParts {
  storeNames?: string[];
  statuses?: string[];
  /** Taiwan dates */
  from?: string;
  to?: string;
  search?: string;
  lastFive?: string[];
  methods?: string[];
  /** true: 員工購物 only; false: without them */
  employee?: boolean;
  selected?: number;
}

/** Export file names (spec section 9), e.g. `匯款記錄_台北店_已入帳_20261118-20261121_202611211530.xlsx`. */
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
