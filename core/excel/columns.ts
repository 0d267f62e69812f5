/** The spreadsheet layout shared by import, export and the sample (spec sections 3 and 9). */
import { PAYMENT_FIELD_LABELS } from '../labels.js';
import { MAX_IMPORT_ROWS } from '../limits.js';
export const SHEET_NAME = '匯款記錄';
export const SAMPLE_FILE_NAME = '匯款記錄_匯入範例.xlsx';

/** Columns in the spec's order: business date, last five, payment time, amount, note, store, collection status. */
export const COLUMNS = {
  businessDate: '營業日期',
  lastFive: PAYMENT_FIELD_LABELS.last_five,
  paidAt: PAYMENT_FIELD_LABELS.paid_at,
  amount: PAYMENT_FIELD_LABELS.amount,
  note: PAYMENT_FIELD_LABELS.note,
  store: PAYMENT_FIELD_LABELS.store_id,
  collection: '點收狀態',
} as const;
export type ColumnKey = keyof typeof COLUMNS;
export const COLUMN_ORDER: ColumnKey[] = ['businessDate', 'lastFive', 'paidAt', 'amount', 'note', 'store', 'collection'];
export const HEADERS: string[] = COLUMN_ORDER.map((k) => COLUMNS[k]);
/** Without these a row cannot become a payment. */
export const REQUIRED_COLUMNS: ColumnKey[] = ['lastFive', 'paidAt', 'amount'];

/** Other header texts people write for the same columns. */
export const HEADER_ALIASES: Record<string, ColumnKey> = {
  後五碼: 'lastFive',
  帳號末五碼: 'lastFive',
  帳號後5碼: 'lastFive',
  時間: 'paidAt',
  金額: 'amount',
  '匯款金額(NT$)': 'amount',
  門市: 'store',
  狀態: 'collection',
  日期: 'businessDate',
};

export const DATE_FORMAT = 'yyyy/mm/dd';
export const DATETIME_FORMAT = 'yyyy/mm/dd hh:mm';
export const TEXT_FORMAT = '@';
export const AMOUNT_FORMAT = '#,##0';

/**
 * 100 000 rows as SheetJS writes them (our own export included) take about 10 MB, so the limit
 * leaves room above that: a file of the maximum row count must import.
 */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;
export { MAX_IMPORT_ROWS };
/**
 * The back office's wizard reads the whole file in the browser: above this it says so before
 * parsing and points to `remit import`, which streams files up to Excel's 1 048 576 rows.
 */
export const BROWSER_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
