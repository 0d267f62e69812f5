/**
 * Reads an import workbook (.xlsx or .xls) from bytes: no file system, so the CLI, the server
 * and the browser run this same code. Every rule of spec section 5 "Excel import, per row",
 * with its message and row number (the header is row 1).
 */
import * as XLSX from 'xlsx';
import { fieldErrorOf, placed, problem, ValidationError, type Problem } from '../errors.js';
import { submissionStoreId } from '../permissions.js';
import { fromCollectionStatus, type PaymentStatus } from '../statuses.js';
import { DAY_MS, MAX_INSTANT, MIN_INSTANT, normalizeTaiwanDateText, parseInstant, taipeiDayNumber, taipeiDayNumberStart, toIso } from '../time.js';
import { amountOf, LAST_FIVE_LENGTH, NOTE_MAX_LENGTH, paidAtAheadProblem } from '../validation/payment.js';
import {
  COLUMN_ORDER,
  COLUMNS,
  HEADER_ALIASES,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
  SHEET_NAME,
  type ColumnKey,
} from './columns.js';
import { serialToInstant } from './serial.js';
import { guardZip } from './zipGuard.js';
import { csvDigitsValue } from './csv.js';
import { PaymentKeyIndex } from '../paymentDuplicateKey.js';
import { isOle, isZip } from '../spreadsheets/sniff.js';
import { parseClock, parseDateTime, partsToInstant } from '../spreadsheets/dates.js';
import { amountText } from '../spreadsheets/amounts.js';

/** A row ready for `POST /api/payments/bulk-import`. */
export interface ImportRow {
  /** the sheet row it came from (the header is row 1) */
  row: number;
  last_five: string;
  paid_at: string;
  amount: number;
  note: string;
  store_id: number;
  status: PaymentStatus;
}

export interface ParseOptions {
  stores: ReadonlyArray<{ id: number; name: string; code: string }>;
  /** the importing user's own store; an empty store cell falls back as a submission does (submissionStoreId) */
  userStoreId?: number | null;
  /** keep rows equal to an earlier row of the same file (default: skip them) */
  allowDuplicates?: boolean;
  /** how many rows the preview holds (default 100) */
  previewRows?: number;
  maxBytes?: number;
  maxRows?: number;
  /** the clock a payment time must not run ahead of (paidAtAheadProblem); default: now */
  now?: number;
}

export interface ParseResult {
  sheetName: string;
  /** valid rows, in sheet order, without in-file duplicates unless allowed */
  rows: ImportRow[];
  /** `第 N 行：...` for every invalid row; any error means nothing may be imported */
  errors: string[];
  /**
   * The same errors by code, each with its row in `details.row` (and its column, value or limit),
   * for a screen that groups them by row; present when `errors` is not empty.
   */
  problems?: Problem[];
  /** rows skipped on purpose: no business date, or a duplicate of an earlier row (`duplicateOf`) */
  skipped: Array<{ row: number; reason: string; duplicateOf?: number }>;
  /** data rows read (not counting empty ones) */
  totalRows: number;
  /** the first rows as the sheet shows them, each marked, for the import wizard's table */
  preview: PreviewRow[];
}

export interface PreviewRow {
  row: number;
  /** display texts in COLUMN_ORDER */
  cells: string[];
  state: 'ok' | 'error' | 'skipped' | 'duplicate';
  /** why the row is not imported as it stands (its errors, or what it repeats), without the 第 N 行 prefix */
  reason?: string;
}

/** A cell as SheetJS shapes it (type, value, display text); the streamed reader makes the same. */
export interface SheetCell {
  readonly t: 'b' | 'n' | 'e' | 's' | 'd' | 'z';
  readonly v?: string | number | boolean | Date;
  readonly w?: string;
}
type Cell = SheetCell | undefined;

const LAST_FIVE = new RegExp(`^\\d{${LAST_FIVE_LENGTH}}$`);
const fileError = (p: Problem) => new ValidationError([fieldErrorOf('file', p)]);

/** Sheet rows read at most: the header, the data limit, and room for empty rows between. */
const sheetRowsFor = (maxRows: number) => maxRows + 1 + Math.max(1000, Math.ceil(maxRows / 10));

/** Opens the workbook, refusing what is not an Excel file or is too big, before any row is read. */
export function readWorkbook(data: Uint8Array | ArrayBuffer, opts: Pick<ParseOptions, 'maxBytes' | 'maxRows'> = {}): XLSX.WorkBook {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const maxBytes = opts.maxBytes ?? MAX_IMPORT_BYTES;
  if (bytes.length > maxBytes) throw fileError(problem('import_file_too_large', { limit_mb: Math.round((maxBytes / 1024 / 1024) * 10) / 10 }));
  if (!isZip(bytes) && !isOle(bytes)) throw fileError(problem('import_not_spreadsheet'));
  let input = bytes;
  if (isZip(bytes)) {
    // Sizes are checked (and a streaming writer's zero sizes filled in) on a copy, before SheetJS inflates anything.
    input = bytes.slice();
    const verdict = guardZip(input);
    if (verdict === 'bomb') throw fileError(problem('import_zip_bomb'));
    if (verdict === 'corrupt') throw fileError(problem('import_parse_failed'));
  }
  try {
    return XLSX.read(input, {
      type: 'array',
      dense: true,
      cellNF: true,
      cellText: true,
      cellDates: false,
      cellFormula: false,
      cellHTML: false,
      // A memory guard: empty rows do not count against the limit, so some room is left for them;
      // a sheet longer than this is refused (see '!fullref') rather than cut short.
      sheetRows: sheetRowsFor(opts.maxRows ?? MAX_IMPORT_ROWS),
    });
  } catch {
    throw fileError(problem('import_parse_failed'));
  }
}

function cellText(c: Cell): string {
  if (!c || c.t === 'z' || c.v === undefined || c.v === null) return '';
  if (c.t === 'e') return '';
  return String(c.w ?? c.v).trim();
}

function isEmpty(c: Cell): boolean {
  if (c?.t === 'n') return false;
  return cellText(c) === '' && !(c && c.t === 'e');
}

/** Maps header texts to columns; the columns a row needs must all be there. */
export function mapHeader(header: Cell[]): Partial<Record<ColumnKey, number>> {
  const byText = new Map<string, ColumnKey>();
  for (const [key, text] of Object.entries(COLUMNS) as Array<[ColumnKey, string]>) byText.set(text, key);
  for (const [alias, key] of Object.entries(HEADER_ALIASES)) byText.set(alias, key);
  const map: Partial<Record<ColumnKey, number>> = {};
  header.forEach((c, i) => {
    const key = byText.get(cellText(c).replace(/\s+/g, ''));
    if (key && map[key] === undefined) map[key] = i;
  });
  const missing = REQUIRED_COLUMNS.filter((k) => map[k] === undefined).map((k) => COLUMNS[k]);
  if (missing.length) throw fileError(problem('import_missing_header', { columns: missing }));
  return map;
}

/** The last five as the cell shows it: `01234` typed as text or as a number formatted 00000. */
function lastFiveOf(c: Cell): string {
  if (!c) return '';
  if (c.t === 'n' && typeof c.v === 'number' && !c.w) return String(c.v).padStart(5, '0');
  return csvDigitsValue(cellText(c));
}

/** a cell that is no date: 無效的日期格式 (import_date_invalid), or a serial Excel cannot show: 日期格式錯誤 (import_date_wrong) */
type DateProblem = 'import_date_invalid' | 'import_date_wrong';
type TimeResult = { ms: number } | { error: DateProblem };

/** A date or time cell: an Excel serial number, or text such as `2026/11/18 09:15`. */
function timeOf(c: Cell, date1904: boolean, businessDay: number | null): TimeResult | null {
  if (!c || isEmpty(c)) return null;
  if (c.t === 'n' && typeof c.v === 'number') {
    // A bare time (0 <= v < 1) belongs to the row's business date.
    if (c.v >= 0 && c.v < 1) {
      if (businessDay === null) return { error: 'import_date_invalid' };
      return { ms: businessDay + Math.round((c.v * DAY_MS) / 1000) * 1000 };
    }
    // 1151121 or 20261121 typed as a number: a date written in digits (a serial that large would be year 4637 or later)
    const digits = c.v >= 1_000_000 && Number.isInteger(c.v) ? parseDateTime(String(c.v)) : null;
    if (digits) return { ms: partsToInstant(digits.date, null)! };
    const ms = serialToInstant(c.v, date1904);
    return ms === null ? { error: 'import_date_wrong' } : { ms };
  }
  if (c.t === 'd' && c.v instanceof Date) return { ms: c.v.getTime() };
  // Text through the shared reader (core/spreadsheets/dates.ts): a bare time belongs to the business
  // date; Gregorian or ROC dates, `1151121`, 上午/下午; an ISO instant with its zone as well.
  const text = cellText(c);
  const clock = businessDay === null ? null : parseClock(text);
  if (clock) return { ms: businessDay! + ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 1000 };
  const parts = parseDateTime(text);
  const ms = parts ? partsToInstant(parts.date, parts.time) : parseInstant(normalizeTaiwanDateText(text));
  return ms === null ? { error: 'import_date_invalid' } : { ms };
}

/** The start of the business date's day; an error when the cell holds something else. */
function businessDayOf(c: Cell, date1904: boolean): { day: number | null; error?: DateProblem } {
  const t = timeOf(c, date1904, null);
  if (!t) return { day: null };
  if ('error' in t) return { day: null, error: t.error };
  return { day: taipeiDayNumberStart(taipeiDayNumber(t.ms)) };
}

/** Store cells match by name, code, or `name (code)` (half- or full-width brackets). */
export function storeMatcher(stores: ParseOptions['stores']): (text: string) => number | null {
  const index = new Map<string, number>();
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  for (const s of stores) {
    index.set(norm(s.name), s.id);
    index.set(norm(s.code), s.id);
    index.set(norm(`${s.name} (${s.code})`), s.id);
    index.set(norm(`${s.name}(${s.code})`), s.id);
  }
  return (text) => {
    const t = norm(text.replace(/（/g, '(').replace(/）/g, ')'));
    return index.get(t) ?? index.get(t.replace(/\s*\(\s*/, ' (').replace(/\s*\)\s*$/, ')')) ?? null;
  };
}

/** A payment read from one sheet row, its time already an instant (parsed once, issue 11 item 6). */
export interface ParsedPayment {
  row: number;
  last_five: string;
  /** UTC instant, ms */
  paid_at: number;
  amount: number;
  note: string;
  store_id: number;
  status: PaymentStatus;
}

/** `reason` and `errors` carry the 第 N 行 prefix (the errors' `details.row`); `detail` says the same without it, for a preview row. */
export type RowOutcome =
  | { state: 'empty' }
  | { state: 'skipped'; reason: string; detail: string }
  | { state: 'duplicate'; reason: string; detail: string; duplicateOf: number }
  | { state: 'error'; errors: string[]; problems: Problem[]; detail: string }
  | { state: 'ok'; payment: ParsedPayment };

/** A row's errors, each at its row (`details.row`, and `第 N 行：` before its message). */
function errorOutcome(row: number, problems: Problem[]): Extract<RowOutcome, { state: 'error' }> {
  const at = problems.map((p) => placed(p, { row }));
  return { state: 'error', errors: at.map((p) => p.message), problems: at, detail: problems.map((p) => p.message).join('；') };
}

/** What a preview shows of a row's outcome: its state, and why it is not imported as it stands. */
export function previewOf(row: number, cells: string[], o: Exclude<RowOutcome, { state: 'empty' }>): PreviewRow {
  return o.state === 'ok' ? { row, cells, state: 'ok' } : { row, cells, state: o.state, reason: o.detail };
}

/**
 * Every rule of one sheet row, for the whole-file reader below and the streamed one
 * (services/payments/importFile.ts) alike: the header maps the columns, then `read` judges
 * each row, and remembers earlier rows to skip those repeated within the file.
 */
export class PaymentRowReader {
  private readonly col: Partial<Record<ColumnKey, number>>;
  private readonly matchStore: (text: string) => number | null;
  private readonly fallbackStore: number;
  /** earlier rows by payment key, flat: a million-row file costs tens of megabytes here, not hundreds */
  private readonly seen = new PaymentKeyIndex();

  constructor(
    header: Cell[],
    private readonly opts: Pick<ParseOptions, 'stores' | 'userStoreId' | 'allowDuplicates' | 'now'>,
    private readonly date1904: boolean,
  ) {
    this.col = mapHeader(header);
    this.matchStore = storeMatcher(opts.stores);
    this.fallbackStore = submissionStoreId({ store_id: opts.userStoreId ?? null }, null);
  }

  /** The row's cells as the sheet shows them, in COLUMN_ORDER (for a preview). */
  displayCells(line: Cell[]): string[] {
    return COLUMN_ORDER.map((k) => cellText(this.at(line, k)));
  }

  private at(line: Cell[], k: ColumnKey): Cell {
    const i = this.col[k];
    return i === undefined ? undefined : line[i];
  }

  read(line: Cell[], rowNo: number): RowOutcome {
    if (line.every(isEmpty)) return { state: 'empty' };
    const at = (k: ColumnKey) => this.at(line, k);
    const { col, date1904 } = this;
    const rowErrors: Problem[] = [];
    try {
      // Spec: a row with no first cell (the business date) is skipped; say so rather than drop it silently.
      if (col.businessDate !== undefined && isEmpty(at('businessDate'))) {
        const why = problem('import_no_business_date');
        return { state: 'skipped', reason: placed(why, { row: rowNo }).message, detail: why.message };
      }
      if (line.some((c) => c?.t === 'e')) throw new Error('error cell');

      const lastFive = lastFiveOf(at('lastFive'));
      // A number cell of fewer digits is what Excel leaves of 01234: say so, and what was read.
      const lostZero = at('lastFive')?.t === 'n' && new RegExp(`^\\d{1,${LAST_FIVE_LENGTH - 1}}$`).test(lastFive);
      if (!LAST_FIVE.test(lastFive)) rowErrors.push(lostZero ? problem('import_last_five_lost_zero', { value: lastFive }) : problem('import_last_five', { length: LAST_FIVE_LENGTH }));

      const business = col.businessDate === undefined ? { day: null } : businessDayOf(at('businessDate'), date1904);
      if (business.error) rowErrors.push(problem(business.error, { column: COLUMNS.businessDate, value: cellText(at('businessDate')) }));
      const time = timeOf(at('paidAt'), date1904, business.day);
      let paidAt: number | null = null;
      if (time === null) rowErrors.push(problem('import_paid_at_required'));
      else if ('error' in time) {
        // a bare time cannot be read without its business date, already named above
        if (!business.error) rowErrors.push(problem(time.error, { column: COLUMNS.paidAt, value: cellText(at('paidAt')) }));
      }
      else if (time.ms < MIN_INSTANT || time.ms >= MAX_INSTANT) rowErrors.push(problem('paid_at_out_of_range'));
      else {
        // The form's rule for a new payment, the same for a row of a file: a time over a day ahead is a typing mistake.
        const ahead = paidAtAheadProblem(time.ms, this.opts.now ?? Date.now());
        if (ahead) rowErrors.push(ahead);
        else paidAt = time.ms;
      }

      const amountCell = at('amount');
      const amount = amountOf(amountCell?.t === 'n' ? amountCell.v : amountText(cellText(amountCell)));
      // the import words the lower bound its own way (spec: 匯款金額必須大於0)
      if ('problem' in amount) rowErrors.push(amount.problem.code === 'amount_min' ? problem('import_amount_positive') : amount.problem);

      const note = cellText(at('note'));
      if (note.length > NOTE_MAX_LENGTH) rowErrors.push(problem('note_too_long', { limit: NOTE_MAX_LENGTH }));

      const storeText = cellText(at('store'));
      let storeId: number | null = this.fallbackStore;
      if (storeText) {
        storeId = this.matchStore(storeText);
        if (storeId === null) rowErrors.push(problem('import_store_not_found', { value: storeText.length > 50 ? `${storeText.slice(0, 50)}…` : storeText }));
      }

      // (an amount's problem is among rowErrors; the second test only narrows its type)
      if (rowErrors.length || 'problem' in amount) {
        return errorOutcome(rowNo, rowErrors);
      }
      const payment: ParsedPayment = {
        row: rowNo,
        last_five: lastFive,
        paid_at: paidAt!,
        amount: amount.value,
        note,
        store_id: storeId!,
        status: fromCollectionStatus(cellText(at('collection'))),
      };
      const first = this.seen.get(payment);
      if (first !== undefined && !this.opts.allowDuplicates) {
        const why = problem('import_duplicate_in_file', { earlier_row: first });
        return { state: 'duplicate', reason: placed(why, { row: rowNo }).message, detail: why.message, duplicateOf: first };
      }
      if (first === undefined) this.seen.set(payment, rowNo);
      return { state: 'ok', payment };
    } catch {
      return errorOutcome(rowNo, [problem('import_bad_data')]);
    }
  }
}

export function parsePaymentsWorkbook(data: Uint8Array | ArrayBuffer, opts: ParseOptions): ParseResult {
  const maxRows = opts.maxRows ?? MAX_IMPORT_ROWS;
  const wb = readWorkbook(data, opts);
  const sheetName = wb.SheetNames.includes(SHEET_NAME) ? SHEET_NAME : wb.SheetNames[0];
  if (!sheetName) throw fileError(problem('import_no_sheet'));
  const sheet = wb.Sheets[sheetName];
  const grid: Cell[][] = (sheet['!data'] as Cell[][] | undefined) ?? [];
  const fullRef = sheet['!fullref'] as string | undefined;
  if (grid.length >= sheetRowsFor(maxRows) || (fullRef && XLSX.utils.decode_range(fullRef).e.r + 1 > sheetRowsFor(maxRows))) {
    throw fileError(problem('import_too_many_rows', { limit: maxRows }));
  }
  const reader = new PaymentRowReader(grid[0] ?? [], opts, Boolean(wb.Workbook?.WBProps?.date1904));

  const rows: ImportRow[] = [];
  const problems: Problem[] = [];
  const skipped: ParseResult['skipped'] = [];
  let totalRows = 0;
  const preview: PreviewRow[] = [];
  const previewLimit = opts.previewRows ?? 100;

  for (let r = 1; r < grid.length; r++) {
    const line = grid[r] ?? [];
    const rowNo = r + 1;
    const outcome = reader.read(line, rowNo);
    if (outcome.state === 'empty') continue;
    totalRows++;
    if (totalRows > maxRows) throw fileError(problem('import_too_many_rows', { limit: maxRows }));
    if (preview.length < previewLimit) preview.push(previewOf(rowNo, reader.displayCells(line), outcome));
    if (outcome.state === 'skipped') skipped.push({ row: rowNo, reason: outcome.reason });
    else if (outcome.state === 'duplicate') skipped.push({ row: rowNo, reason: outcome.reason, duplicateOf: outcome.duplicateOf });
    else if (outcome.state === 'error') problems.push(...outcome.problems);
    // The one conversion on this side: the API takes the time as ISO text, and parses it once.
    else rows.push({ ...outcome.payment, paid_at: toIso(outcome.payment.paid_at) });
  }
  if (totalRows === 0) throw fileError(problem('import_no_rows'));
  const errors = problems.map((p) => p.message);
  return { sheetName, rows, errors, ...(problems.length ? { problems } : {}), skipped, totalRows, preview };
}

/** The preview of spec section 2: the first five errors and how many more there are. */
export function previewErrors(errors: string[], shown = 5): { first: string[]; more: number } {
  return { first: errors.slice(0, shown), more: Math.max(0, errors.length - shown) };
}
