/**
 * Writes the export workbook, its CSV twin and the import sample, as bytes (no file system).
 * The export uses the import's columns and order, so an exported file imports back unchanged.
 */
import * as XLSX from 'xlsx';
import { csvCell, csvDigitsField } from './csv.js';
import { MSG } from '../messages.js';
import { toCollectionStatus, type PaymentStatus } from '../statuses.js';
import { addDays, compactTimestamp, DAY_MS, formatTaipei, parseInstant, TAIPEI_OFFSET_MS, taipeiDate } from '../time.js';
import { storeLabel } from '../labels.js';
import {
  AMOUNT_FORMAT,
  DATE_FORMAT,
  DATETIME_FORMAT,
  HEADERS,
  SHEET_NAME,
  TEXT_FORMAT,
} from './columns.js';
import { instantToDateSerial, instantToSerial } from './serial.js';

export interface ExportPayment {
  last_five: string;
  /** ISO instant, or epoch ms */
  paid_at: string | number;
  amount: number;
  note: string;
  store_id: number;
  status: PaymentStatus;
}

export type StoreRef = { id: number; name: string; code: string };

export const COL_WIDTHS = [12, 12, 18, 12, 30, 18, 10].map((wch) => ({ wch }));

function headerRow(): XLSX.CellObject[] {
  return HEADERS.map((h) => ({ t: 's', v: h }));
}

/**
 * One payment as sheet cells. Text is always written as a string cell, never as a formula,
 * so a note such as `=HYPERLINK(...)` stays text in every spreadsheet program.
 */
export const instantOf = (paidAt: string | number) => (typeof paidAt === 'number' ? paidAt : Date.parse(paidAt));

function paymentCells(p: ExportPayment, storeName: (id: number) => string): XLSX.CellObject[] {
  const ms = instantOf(p.paid_at);
  return [
    { t: 'n', v: instantToDateSerial(ms), z: DATE_FORMAT },
    { t: 's', v: p.last_five, z: TEXT_FORMAT },
    { t: 'n', v: instantToSerial(ms), z: DATETIME_FORMAT },
    { t: 'n', v: p.amount, z: AMOUNT_FORMAT },
    { t: 's', v: p.note ?? '' },
    { t: 's', v: storeName(p.store_id) },
    { t: 's', v: toCollectionStatus(p.status) },
  ];
}

export function storeNamer(stores: readonly StoreRef[]): (id: number) => string {
  // Labels made once per store, not once per row: an export names the same few stores a million times.
  const byId = new Map(stores.map((s) => [s.id, storeLabel(s)]));
  const unknown = storeLabel(undefined);
  return (id) => byId.get(id) ?? unknown;
}

function sheetFromRows(rows: XLSX.CellObject[][]): XLSX.WorkSheet {
  const ws: XLSX.WorkSheet = { '!data': rows } as XLSX.WorkSheet;
  ws['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(rows.length - 1, 0), c: HEADERS.length - 1 } });
  ws['!cols'] = COL_WIDTHS;
  return ws;
}

function workbookBytes(ws: XLSX.WorkSheet): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, SHEET_NAME);
  // In Node a Buffer is written directly, much faster than an ArrayBuffer; browsers have no Buffer.
  if (typeof Buffer !== 'undefined') return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Uint8Array;
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer);
}

/** The export workbook: sheet 匯款記錄, the import's columns, one row per payment. */
export function buildExportWorkbook(payments: Iterable<ExportPayment>, stores: readonly StoreRef[]): Uint8Array {
  const name = storeNamer(stores);
  const rows: XLSX.CellObject[][] = [headerRow()];
  for (const p of payments) rows.push(paymentCells(p, name));
  return workbookBytes(sheetFromRows(rows));
}

/**
 * The CSV line writer of one export (no line end): the sheet's columns, times as Taiwan time.
 * Made once per file, it keeps what repeats: each store's and status's cell, and the date text
 * of the day at hand (payments come ordered by time, so a day's text serves many lines). Dates,
 * times and amounts are digits and separators no spreadsheet reads as a formula; the note, the
 * store and the status go through `csvCell`.
 */
export function csvLineWriter(stores: readonly StoreRef[]): (p: ExportPayment) => string {
  const storeName = storeNamer(stores);
  const storeCells = new Map<number, string>();
  const statusCells = new Map<string, string>();
  let day = NaN;
  let dateText = '';
  return (p) => {
    const ms = instantOf(p.paid_at);
    const local = ms + TAIPEI_OFFSET_MS;
    const d = Math.floor(local / DAY_MS);
    if (d !== day) {
      day = d;
      dateText = formatTaipei(ms, { dateOnly: true });
    }
    const inDay = local - d * DAY_MS;
    const hour = Math.floor(inDay / 3_600_000);
    const minute = Math.floor(inDay / 60_000) % 60;
    const second = Math.floor(inDay / 1000) % 60;
    const time = `${dateText} ${hour < 10 ? '0' : ''}${hour}:${minute < 10 ? '0' : ''}${minute}${second ? `:${second < 10 ? '0' : ''}${second}` : ''}`;
    let store = storeCells.get(p.store_id);
    if (store === undefined) storeCells.set(p.store_id, (store = csvCell(storeName(p.store_id))));
    let status = statusCells.get(p.status);
    if (status === undefined) statusCells.set(p.status, (status = csvCell(toCollectionStatus(p.status))));
    // as ="01234", so a spreadsheet program keeps the leading zero (and remit import reads it back)
    return `${dateText},${csvDigitsField(p.last_five)},${time},${p.amount >= 0 ? p.amount : csvCell(String(p.amount))},${p.note ? csvCell(p.note) : ''},${store},${status}`;
  };
}

/** The first line of the CSV: a UTF-8 BOM so Excel shows the Chinese correctly, then the headers. */
export const CSV_HEAD = `\uFEFF${HEADERS.map(csvCell).join(',')}\r\n`;

/** The same table as CSV, with a UTF-8 BOM so Excel shows the Chinese correctly. */
export function buildExportCsv(payments: Iterable<ExportPayment>, stores: readonly StoreRef[]): string {
  const line = csvLineWriter(stores);
  let out = CSV_HEAD;
  for (const p of payments) out += `${line(p)}\r\n`;
  return out;
}

/** The CSV as a stream of text, from payments arriving in batches. */
export async function* streamExportCsv(batches: AsyncIterable<Iterable<ExportPayment>>, stores: readonly StoreRef[]): AsyncGenerator<string> {
  const line = csvLineWriter(stores);
  yield CSV_HEAD;
  for await (const batch of batches) {
    let chunk = '';
    for (const p of batch) chunk += `${line(p)}\r\n`;
    yield chunk;
  }
}

/** The sample workbook `匯款記錄_匯入範例.xlsx`: the header and four example rows. */
export function buildSampleWorkbook(stores: readonly StoreRef[] = [], now: number = Date.now()): Uint8Array {
  const first = stores[0] ? storeLabel(stores[0]) : '總店 (HQ)';
  const second = stores[1] ? stores[1].code : stores[0]?.code ?? 'HQ';
  const day = addDays(taipeiDate(now), -1);
  const at = (hm: string) => new Date(parseInstant(`${day} ${hm}`)!).toISOString();
  const examples: ExportPayment[] = [
    { last_five: '01234', paid_at: at('09:15'), amount: 1500, note: '範例：早班匯款', store_id: -1, status: '已入帳' },
    { last_five: '56789', paid_at: at('10:30'), amount: 23800, note: '', store_id: -1, status: '未確認' },
    { last_five: '00987', paid_at: at('13:05'), amount: 650, note: '分店欄可填名稱、代碼或「名稱 (代碼)」', store_id: -2, status: '未確認' },
    { last_five: '24680', paid_at: at('18:45'), amount: 12000, note: '點收狀態填「已點收」會匯入為已入帳', store_id: -1, status: '未確認' },
  ];
  const rows: XLSX.CellObject[][] = [headerRow()];
  for (const p of examples) rows.push(paymentCells(p, (id) => (id === -2 ? second : first)));
  return workbookBytes(sheetFromRows(rows));
}

export interface ExportFilterParts {
  storeNames?: string[];
  statuses?: string[];
  /** Taiwan dates */
  from?: string;
  to?: string;
  /** the search text (last five or note) */
  search?: string;
  lastFive?: string[];
  /** how many payments were picked one by one */
  selected?: number;
}

/**
 * Export file names (spec section 9): all data `匯款記錄_全部_YYYYMMDDHHmm.xlsx`; filtered, the
 * filter parts joined, then the timestamp, e.g. `匯款記錄_台北店_已入帳_20261118-20261121_202611211530.xlsx`.
 */
export function exportFileName(filter: ExportFilterParts | null, now: number = Date.now(), ext: 'xlsx' | 'csv' | 'json' = 'xlsx'): string {
  const parts: string[] = [SHEET_NAME];
  const f = filter ?? {};
  const filtered: string[] = [];
  if (f.storeNames?.length) filtered.push(f.storeNames.join('、'));
  if (f.statuses?.length) filtered.push(f.statuses.join('、'));
  if (f.from || f.to) filtered.push(`${(f.from ?? '').replace(/-/g, '')}-${(f.to ?? '').replace(/-/g, '')}`);
  if (f.search) filtered.push(`搜尋「${f.search.slice(0, 20)}」`);
  if (f.lastFive?.length) filtered.push(`後五碼${f.lastFive.join('、')}`);
  if (f.selected) filtered.push(`選取${f.selected}筆`);
  parts.push(...(filtered.length ? filtered : [MSG.exportAll]));
  parts.push(compactTimestamp(now));
  return `${parts.join('_').replace(/[\\/:*?"<>|]/g, '')}.${ext}`;
}
