/**
 * A payment's fields, listed once so a field added here reaches every format: PAYMENT_FIELDS (stored, in
 * JSON order) and SHEET_COLUMNS (spec sections 3 and 9). Pure: the back office imports this file.
 */
import { problem, type ErrorCode, type Problem } from '../errors.js';
import { LAST_FIVE_LENGTH } from '../limits.js';
import { PAYMENT_FIELD_LABELS } from '../labels.js';
import { fromCollectionStatus, toCollectionStatus, type PaymentStatus } from '../paymentStatuses.js';
import { formatTaipei, MAX_INSTANT, MIN_INSTANT, taipeiDayNumber, taipeiMsIntoDay, toIso } from '../time.js';
import { amountOf, NOTE_MAX_LENGTH, paidAtAheadProblem } from './validate.js';
import { amountText } from '../spreadsheets/amounts.js';
import { csvCell, csvDigitsField } from '../spreadsheets/csvWrite.js';
import { instantToDateSerial, instantToSerial } from '../spreadsheets/serial.js';
import { businessDayOf, cellText, lastFiveOf, timeOf, type Cell } from './cells.js';
import {
  DEFAULT_METHOD,
  METHOD_TRANSFER,
  methodText,
  NO_LAST_FIVE,
  parseMethodText,
  type MethodParts,
} from '../paymentMethods.js';
import { STATUS_CREDITED } from '../paymentStatuses.js';

export const SHEET_NAME = '匯款記錄';
export const SAMPLE_FILE_NAME = '匯款記錄_匯入範例.xlsx';

export const DATE_FORMAT = 'yyyy/mm/dd';
export const DATETIME_FORMAT = 'yyyy/mm/dd hh:mm';
const TEXT_FORMAT = '@';
export const AMOUNT_FORMAT = '#,##0';

/** A cell's number format, by name: the streamed sheet numbers them 1 to 4 in this order. */
export type CellStyle = 'date' | 'text' | 'datetime' | 'amount';
export const CELL_FORMATS: Record<CellStyle, string> = {
  date: DATE_FORMAT,
  text: TEXT_FORMAT,
  datetime: DATETIME_FORMAT,
  amount: AMOUNT_FORMAT,
};

export interface ExportPayment {
  last_five: string;
  /** ISO instant, or epoch ms */
  paid_at: string | number;
  amount: number;
  note: string;
  store_id: number;
  status: PaymentStatus;
  /** 匯款 when absent or empty */
  method?: string;
  method_detail?: string | null;
  employee?: boolean | number;
}

/** One payment of an export page: every stored field. The object is reused from line to line: read it, never keep it. */
export interface PagedPayment extends ExportPayment {
  paid_at: number;
  uuid: string;
  /** the note as the JSON string literal the database wrote */
  noteJson: string;
  /** with `full` pages only (the JSON export); else 0 and null */
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

export interface WriteContext {
  storeName(id: number): string;
}

const instantOf = (paidAt: string | number) => (typeof paidAt === 'number' ? paidAt : Date.parse(paidAt));

/** How a field travels in the export's page text: `text` holds no comma or line end; `json text` (one, last) anything. */
export type FieldType = 'integer' | 'instant' | 'text' | 'optional text' | 'flag' | 'optional integer' | 'json text';

/** How duplicateKey.ts holds a key field; `method` counts: a cash and a card sale otherwise alike are two sales. */
export type DuplicateKeyKind = 'id' | 'digits' | 'integer' | 'instant' | 'method';

export interface PaymentField {
  /** the JSON member; also the column and property unless `from` names another field */
  name: string;
  type: FieldType;
  from?: string;
  jsonOnly?: boolean;
  duplicateKey?: DuplicateKeyKind;
  /** made once per file, so it may cache what repeats; by its type when left out */
  json?: (ctx: WriteContext) => (p: PagedPayment) => string;
}

/** An instant as quoted ISO text, remembering the last: an import writes thousands of payments at one created_at. */
function isoJson(read: (p: PagedPayment) => number): (p: PagedPayment) => string {
  let ms = NaN;
  let text = '';
  return (p) => {
    const t = read(p);
    return t === ms ? text : ((ms = t), (text = `"${toIso(t)}"`));
  };
}

export const PAYMENT_FIELDS: PaymentField[] = [
  { name: 'id', type: 'text', from: 'uuid', json: () => (p) => JSON.stringify(p.uuid) },
  { name: 'uuid', type: 'text', json: () => (p) => JSON.stringify(p.uuid) },
  { name: 'store_id', type: 'integer', duplicateKey: 'id', json: () => (p) => String(p.store_id) },
  { name: 'last_five', type: 'text', duplicateKey: 'digits', json: () => (p) => JSON.stringify(p.last_five) },
  { name: 'paid_at', type: 'instant', duplicateKey: 'instant', json: () => (p) => `"${toIso(p.paid_at)}"` },
  { name: 'amount', type: 'integer', duplicateKey: 'integer', json: () => (p) => String(p.amount) },
  { name: 'status', type: 'text', json: () => (p) => JSON.stringify(p.status) },
  { name: 'note', type: 'json text', json: () => (p) => p.noteJson },
  {
    name: 'method',
    type: 'text',
    duplicateKey: 'method',
    json: () => (p) => (p.method ? JSON.stringify(p.method) : `"${DEFAULT_METHOD}"`),
  },
  {
    name: 'method_detail',
    type: 'optional text',
    json: () => (p) => (p.method_detail ? JSON.stringify(p.method_detail) : 'null'),
  },
  { name: 'employee', type: 'flag', json: () => (p) => (p.employee ? 'true' : 'false') },
  { name: 'created_by', type: 'optional integer', jsonOnly: true, json: () => (p) => String(p.created_by) },
  { name: 'created_at', type: 'instant', jsonOnly: true, json: () => isoJson((p) => p.created_at) },
  { name: 'updated_at', type: 'instant', jsonOnly: true, json: () => isoJson((p) => p.updated_at) },
  { name: 'source', type: 'text', jsonOnly: true },
  {
    name: 'store',
    type: 'text',
    from: 'store_id',
    json: (ctx) => {
      const labels = new Map<number, string>();
      return (p) => {
        let s = labels.get(p.store_id);
        if (s === undefined) labels.set(p.store_id, (s = JSON.stringify(ctx.storeName(p.store_id))));
        return s;
      };
    },
  },
];

export function fieldJson(f: PaymentField, ctx: WriteContext): (p: PagedPayment) => string {
  if (f.json) return f.json(ctx);
  const key = f.from ?? f.name;
  const get = (p: PagedPayment) => (p as unknown as Record<string, unknown>)[key];
  if (f.type === 'instant') return isoJson((p) => get(p) as number);
  if (f.type === 'json text') return (p) => JSON.stringify(get(p) ?? '');
  if (f.type === 'text') return (p) => JSON.stringify(get(p));
  if (f.type === 'optional text') return (p) => (get(p) ? JSON.stringify(get(p)) : 'null');
  if (f.type === 'flag') return (p) => (get(p) ? 'true' : 'false');
  return (p) => String(get(p));
}

/** The fields of an export page, in order: paid_at and uuid first (where the next page starts), `json text` last. */
export function pageFields(full: boolean): PaymentField[] {
  const stored = PAYMENT_FIELDS.filter((f) => !f.from && (full || !f.jsonOnly));
  const first = ['paid_at', 'uuid'].map((n) => stored.find((f) => f.name === n)!);
  const last = stored.filter((f) => f.type === 'json text');
  if (last.length !== 1) throw new Error('a payment has one json text field');
  return [...first, ...stored.filter((f) => !first.includes(f) && f !== last[0]), last[0]];
}

export interface RowReading {
  cell(key: string): Cell;
  date1904: boolean;
  matchStore(text: string): number | null;
  /** the store of an empty store cell */
  fallbackStore: number;
  /** the clock a payment time must not run ahead of */
  now: number;
  /** without their row number: the reader adds it */
  errors: Problem[];
  payment: Record<string, unknown>;
}

export interface SheetColumn {
  key: string;
  header: string;
  aliases?: string[];
  /** the import refuses a file whose header lacks it */
  required?: boolean;
  /** a row whose cell here is empty is skipped, with this reason */
  skipWhenEmpty?: ErrorCode;
  width: number;
  /** text is never a formula, whatever it starts with */
  kind: 'number' | 'text';
  style?: CellStyle;
  /** made once per file, so it may cache what repeats */
  cell: (ctx: WriteContext) => (p: ExportPayment) => number | string;
  /** for a column of few values (store, status): the value's key, so each file makes each cell once */
  few?: (p: ExportPayment) => unknown;
  /** by default the cell's value through `csvCell` */
  csv?: (ctx: WriteContext) => (p: ExportPayment) => string;
  read?: (cell: Cell, row: RowReading) => void;
}

/** `yyyy/mm/dd` of a payment's Taiwan day, remembering the day at hand (payments come ordered by time). */
function dayText(): (ms: number) => string {
  let day = NaN;
  let text = '';
  return (ms) => {
    const d = taipeiDayNumber(ms);
    if (d !== day) {
      day = d;
      text = formatTaipei(ms, { dateOnly: true });
    }
    return text;
  };
}

/** A column's cell text; a `few` column makes each value's once per file (a million rows name a few stores). */
export function columnCells<T>(
  c: SheetColumn,
  ctx: WriteContext,
  text: (value: number | string) => T,
): (p: ExportPayment) => T {
  const value = c.cell(ctx);
  const few = c.few;
  if (!few) return (p) => text(value(p));
  const made = new Map<unknown, T>();
  return (p) => {
    const k = few(p);
    let s = made.get(k);
    if (s === undefined) made.set(k, (s = text(value(p))));
    return s;
  };
}

export const SHEET_COLUMNS: SheetColumn[] = [
  {
    key: 'businessDate',
    header: '營業日期',
    aliases: ['日期'],
    // spec: a row without a business date is skipped, and the import says so
    skipWhenEmpty: 'import_no_business_date',
    width: 12,
    kind: 'number',
    style: 'date',
    cell: () => (p) => instantToDateSerial(instantOf(p.paid_at)),
    csv: () => {
      const date = dayText();
      return (p) => date(instantOf(p.paid_at));
    },
    // read with the payment time, whose bare time of day it dates
  },
  {
    key: 'lastFive',
    header: PAYMENT_FIELD_LABELS.last_five,
    aliases: ['後五碼', '帳號末五碼', '帳號後5碼'],
    required: true,
    width: 12,
    kind: 'text',
    style: 'text',
    cell: () => (p) => p.last_five,
    // as ="01234", so a spreadsheet program keeps the leading zero
    csv: () => (p) => csvDigitsField(p.last_five),
    read: (cell, row) => {
      // only a transfer has a last five (an unreadable method is the method column's error)
      const parts = methodOfRow(row);
      if (parts === null) return;
      if (parts.method !== METHOD_TRANSFER) {
        if (!isEmptyCell(cell)) row.errors.push(problem('last_five_not_needed', { method: parts.method }));
        row.payment.last_five = NO_LAST_FIVE;
        return;
      }
      const lastFive = lastFiveOf(cell);
      // a number cell of fewer digits is what Excel leaves of 01234
      const lostZero = cell?.t === 'n' && lastFive.length < LAST_FIVE_LENGTH && /^\d+$/.test(lastFive);
      if (lastFive.length !== LAST_FIVE_LENGTH || !/^\d+$/.test(lastFive))
        row.errors.push(
          lostZero
            ? problem('import_last_five_lost_zero', { value: lastFive })
            : problem('import_last_five', { length: LAST_FIVE_LENGTH }),
        );
      row.payment.last_five = lastFive;
    },
  },
  {
    key: 'paidAt',
    header: PAYMENT_FIELD_LABELS.paid_at,
    aliases: ['時間'],
    required: true,
    width: 18,
    kind: 'number',
    style: 'datetime',
    cell: () => (p) => instantToSerial(instantOf(p.paid_at)),
    // Taiwan time, seconds only when there are any; nothing a spreadsheet reads as a formula
    csv: () => {
      const date = dayText();
      return (p) => {
        const ms = instantOf(p.paid_at);
        const inDay = taipeiMsIntoDay(ms);
        const hour = Math.floor(inDay / 3_600_000);
        const minute = Math.floor(inDay / 60_000) % 60;
        const second = Math.floor(inDay / 1000) % 60;
        return `${date(ms)} ${hour < 10 ? '0' : ''}${hour}:${minute < 10 ? '0' : ''}${minute}${second ? `:${second < 10 ? '0' : ''}${second}` : ''}`;
      };
    },
    read: (cell, row) => {
      const businessCell = row.cell('businessDate');
      const business = businessDayOf(businessCell, row.date1904);
      if (business.error)
        row.errors.push(
          problem(business.error, { column: columnHeader('businessDate'), value: cellText(businessCell) }),
        );
      const time = timeOf(cell, row.date1904, business.day);
      if (time === null) row.errors.push(problem('import_paid_at_required'));
      else if ('error' in time) {
        // a bare time cannot be read without its business date, already named above
        if (!business.error)
          row.errors.push(problem(time.error, { column: columnHeader('paidAt'), value: cellText(cell) }));
      } else if (time.ms < MIN_INSTANT || time.ms >= MAX_INSTANT) row.errors.push(problem('paid_at_out_of_range'));
      else {
        // the form's rule: a time over a day ahead is a typing mistake
        const ahead = paidAtAheadProblem(time.ms, row.now);
        if (ahead) row.errors.push(ahead);
        else row.payment.paid_at = time.ms;
      }
    },
  },
  {
    key: 'amount',
    header: PAYMENT_FIELD_LABELS.amount,
    aliases: ['金額', '匯款金額(NT$)'],
    required: true,
    width: 12,
    kind: 'number',
    style: 'amount',
    cell: () => (p) => p.amount,
    csv: () => (p) => (p.amount >= 0 ? String(p.amount) : csvCell(String(p.amount))),
    read: (cell, row) => {
      const amount = amountOf(cell?.t === 'n' ? cell.v : amountText(cellText(cell)));
      // the import words the lower bound its own way (spec: 匯款金額必須大於0)
      if ('problem' in amount)
        row.errors.push(amount.problem.code === 'amount_min' ? problem('import_amount_positive') : amount.problem);
      else row.payment.amount = amount.value;
    },
  },
  {
    key: 'note',
    header: PAYMENT_FIELD_LABELS.note,
    width: 30,
    kind: 'text',
    cell: () => (p) => p.note ?? '',
    csv: () => (p) => (p.note ? csvCell(p.note) : ''),
    read: (cell, row) => {
      const note = cellText(cell);
      if (note.length > NOTE_MAX_LENGTH) row.errors.push(problem('note_too_long', { limit: NOTE_MAX_LENGTH }));
      row.payment.note = note;
    },
  },
  {
    key: 'store',
    header: PAYMENT_FIELD_LABELS.store_id,
    aliases: ['門市'],
    width: 18,
    kind: 'text',
    cell: (ctx) => (p) => ctx.storeName(p.store_id),
    few: (p) => p.store_id,
    read: (cell, row) => {
      const storeText = cellText(cell);
      if (!storeText) row.payment.store_id = row.fallbackStore;
      else {
        const id = row.matchStore(storeText);
        if (id === null)
          row.errors.push(
            problem('import_store_not_found', {
              value: storeText.length > 50 ? `${storeText.slice(0, 50)}…` : storeText,
            }),
          );
        else row.payment.store_id = id;
      }
    },
  },
  {
    key: 'collection',
    header: '點收狀態',
    aliases: ['狀態'],
    width: 10,
    kind: 'text',
    cell: () => (p) => toCollectionStatus(p.status),
    few: (p) => p.status,
    read: (cell, row) => {
      row.payment.status = fromCollectionStatus(cellText(cell));
    },
  },
  {
    // optional on import (absent or empty is 匯款); after the spec's columns so older files keep their places
    key: 'method',
    header: PAYMENT_FIELD_LABELS.method,
    aliases: ['支付方式', '收款方式'],
    width: 16,
    kind: 'text',
    cell: () => methodText,
    few: (p) => (p.method_detail || p.employee ? methodText(p) : p.method),
    read: (cell, row) => {
      const parts = methodOfRow(row);
      if (parts === null) {
        const text = cellText(cell);
        row.errors.push(problem('import_method', { value: text.length > 50 ? `${text.slice(0, 50)}…` : text }));
        return;
      }
      row.payment.method = parts.method;
      row.payment.method_detail = parts.method_detail;
      row.payment.employee = parts.employee;
      // takings in hand start 已入帳 (點收狀態 speaks of transfers)
      if (parts.method !== METHOD_TRANSFER) row.payment.status = STATUS_CREDITED;
    },
  },
];

const isEmptyCell = (cell: Cell) => cellText(cell) === '';

/** The 付款方式 of the row being read (its cell, or 匯款 when the file has none), or null when unreadable. */
function methodOfRow(row: RowReading): MethodParts | null {
  return parseMethodText(cellText(row.cell('method')));
}

function columnHeader(key: string): string {
  return SHEET_COLUMNS.find((c) => c.key === key)?.header ?? key;
}

export function columnCsv(c: SheetColumn, ctx: WriteContext): (p: ExportPayment) => string {
  return c.csv ? c.csv(ctx) : columnCells(c, ctx, csvCell);
}

export const HEADERS: string[] = SHEET_COLUMNS.map((c) => c.header);
