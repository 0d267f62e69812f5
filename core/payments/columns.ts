/**
 * A payment's fields, listed once. Two lists, because the files have two shapes:
 *
 * - PAYMENT_FIELDS: what a payment stores, in the JSON export's order. Each says its type, which
 *   makes its place in the export's page query and how the page text is read back
 *   (core/payments/exportPages.ts), and how the JSON export writes it.
 * - SHEET_COLUMNS: the spreadsheet columns of spec sections 3 and 9, in the spec's order, shared
 *   by the export (csv, streamed xlsx, SheetJS xlsx), the sample and the import. Each says its
 *   header (and the other texts people write for it), its width and cell style, how it is
 *   written to csv and to a cell, and how the import reads it.
 *
 * The writers, the page query and the reader are built from these lists when a file begins, so
 * a field added here appears in every format. A new stored field goes in PAYMENT_FIELDS (its
 * type decides the rest) and, if the sheet shows it, in SHEET_COLUMNS. A `text` field must
 * hold no comma and no line end (the page text joins fields with them); longer text is `json text`.
 *
 * Pure: the back office imports this file (no Node module, no spreadsheet library).
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

/** A payment as the sheet writers read it (an added field rides along as one more property). */
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

/** What a file's writers know besides the payment. */
export interface WriteContext {
  /** a store's label, 名稱 (代碼), or 未知分店 */
  storeName(id: number): string;
}

const instantOf = (paidAt: string | number) => (typeof paidAt === 'number' ? paidAt : Date.parse(paidAt));

// ------------------------------------------------------------------ the stored fields

/**
 * How a stored field travels in the export's page text, and so how the page query selects it:
 * `integer` and `instant` (epoch ms) as digits, `text` as it is, `optional text` as it is or
 * nothing (null), `flag` (a boolean) as 1 or 0, `optional integer` as digits or nothing,
 * `json text` as a JSON string (one field at most, written last: it may hold anything).
 */
export type FieldType = 'integer' | 'instant' | 'text' | 'optional text' | 'flag' | 'optional integer' | 'json text';

/**
 * How a field of the duplicate key (two payments are the same when these agree) is held by the
 * flat index of core/payments/duplicateKey.ts: a 32-bit id, digits whose count matters (01234 is
 * not 1234; none is a payment other than a transfer), a whole number, an instant in epoch ms, or
 * a payment method (by its place in PAYMENT_METHODS: a cash and a card sale of the same minute and
 * amount, neither with a last five, are two sales).
 */
export type DuplicateKeyKind = 'id' | 'digits' | 'integer' | 'instant' | 'method';

export interface PaymentField {
  /** the JSON member; the column of `payments` and the payment's property unless `from` says otherwise */
  name: string;
  type: FieldType;
  /** a member made from another field, not read from the database again */
  from?: string;
  /** read for the JSON export only (the sheets do not show it) */
  jsonOnly?: boolean;
  /** part of the duplicate key (import skips a payment equal to one stored or read before in these) */
  duplicateKey?: DuplicateKeyKind;
  /** its JSON text, made once per file (it may keep what repeats); by its type when left out */
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

/** A field's JSON text by its type, for a field that does not say. */
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

/**
 * The stored fields an export page carries, in the page text's order: paid_at and uuid first
 * (where the next page starts), the `json text` field last, the others in the list's order.
 */
export function pageFields(full: boolean): PaymentField[] {
  const stored = PAYMENT_FIELDS.filter((f) => !f.from && (full || !f.jsonOnly));
  const first = ['paid_at', 'uuid'].map((n) => stored.find((f) => f.name === n)!);
  const last = stored.filter((f) => f.type === 'json text');
  if (last.length !== 1) throw new Error('a payment has one json text field');
  return [...first, ...stored.filter((f) => !first.includes(f) && f !== last[0]), last[0]];
}

// ------------------------------------------------------------------ the spreadsheet columns

/** What reading one row knows: the row's other cells, the file, and the payment read so far. */
export interface RowReading {
  /** the cell of another column (by key) of this row */
  cell(key: string): Cell;
  date1904: boolean;
  /** a store cell's text to a store id, or null */
  matchStore(text: string): number | null;
  /** the store of an empty store cell */
  fallbackStore: number;
  /** the clock a payment time must not run ahead of (the form's rule, paidAtAheadProblem) */
  now: number;
  /** the row's errors, without their row (the reader places them) */
  errors: Problem[];
  /** the payment being read: each column sets its field */
  payment: Record<string, unknown>;
}

export interface SheetColumn {
  key: string;
  /** the header text, as the spec writes it */
  header: string;
  /** other header texts people write for the same column */
  aliases?: string[];
  /** without it a row cannot become a payment: the import refuses a file whose header lacks it */
  required?: boolean;
  /** a row whose cell here is empty is skipped, for this reason (the business date) */
  skipWhenEmpty?: ErrorCode;
  /** the sheet's column width, in characters */
  width: number;
  /** a number cell or a text cell (text is never a formula, whatever it starts with) */
  kind: 'number' | 'text';
  style?: CellStyle;
  /** the cell's value, made once per file (it may keep what repeats) */
  cell: (ctx: WriteContext) => (p: ExportPayment) => number | string;
  /** for a column of few values (a store, a status): what tells them apart, so each file writes each one's cell once */
  few?: (p: ExportPayment) => unknown;
  /** the CSV field, made once per file; by default the cell's value through `csvCell` */
  csv?: (ctx: WriteContext) => (p: ExportPayment) => string;
  /** reads the column's cell of an import row into `row.payment`, or adds to `row.errors` */
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

/**
 * A column's cell text made by `text` from its value, each of a `few` column's values once per
 * file (a million rows name the same few stores): the writers of every format share this.
 */
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
    // Spec: a row with no first cell (the business date) is skipped; say so rather than drop it silently.
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
    // as ="01234", so a spreadsheet program keeps the leading zero (and remit import reads it back)
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
      // A number cell of fewer digits is what Excel leaves of 01234: say so, and what was read.
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
    // Taiwan time, minutes always, seconds when there are any: digits and separators no spreadsheet reads as a formula
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
      // a file without the business date column: no day, as an empty cell gives
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
        // The form's rule for a new payment, the same for a row of a file: a time over a day ahead is a typing mistake.
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
    // optional on import (a file without it, or an empty cell, is 匯款); after the spec's
    // columns, so a file made before keeps its places
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

/** A column's header by its key. */
function columnHeader(key: string): string {
  return SHEET_COLUMNS.find((c) => c.key === key)?.header ?? key;
}

/** A column's CSV writer: its own, or its cell's value through csvCell. */
export function columnCsv(c: SheetColumn, ctx: WriteContext): (p: ExportPayment) => string {
  return c.csv ? c.csv(ctx) : columnCells(c, ctx, csvCell);
}

/** The spec's headers, in order (the sheets' first row). */
export const HEADERS: string[] = SHEET_COLUMNS.map((c) => c.header);
