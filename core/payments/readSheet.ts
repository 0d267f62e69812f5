/** Reads an import workbook from bytes with spec section 5's row rules; no file system, so CLI, server and browser share it. */
import { fieldErrorOf, placed, problem, ValidationError, type Problem } from '../errors.js';
import { submissionStoreId } from '../permissions.js';
import { type PaymentStatus } from '../paymentStatuses.js';
import { DEFAULT_METHOD, type PaymentMethod } from '../paymentMethods.js';
import { toIso } from '../time.js';
import { MAX_IMPORT_ROWS, SHEET_NAME } from './sheetFile.js';
import { SHEET_COLUMNS, type RowReading, type SheetColumn } from './columns.js';
import { cellText, isEmpty, type Cell } from './cells.js';
import { readWorkbook, sheetGrid } from '../spreadsheets/workbook.js';
import { PaymentKeyIndex } from './duplicateKey.js';

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
  method: PaymentMethod;
  method_detail: string | null;
  employee: boolean;
}

export interface ParseOptions {
  stores: ReadonlyArray<{ id: number; name: string; code: string }>;
  /** the importer's own store, for an empty store cell */
  userStoreId?: number | null;
  /** keep rows equal to an earlier row of the same file */
  allowDuplicates?: boolean;
  previewRows?: number;
  maxBytes?: number;
  maxRows?: number;
  /** the clock a payment time must not run ahead of; default: now */
  now?: number;
}

export interface ParseResult {
  sheetName: string;
  /** without in-file duplicates unless allowed */
  rows: ImportRow[];
  /** `第 N 行：...` for every invalid row; any error means nothing may be imported */
  errors: string[];
  /** the same errors by code, each with `details.row`; present when `errors` is not empty */
  problems?: Problem[];
  /** no business date, or a duplicate of an earlier row */
  skipped: Array<{ row: number; reason: string; duplicateOf?: number }>;
  /** not counting empty rows */
  totalRows: number;
  preview: PreviewRow[];
}

export interface PreviewRow {
  row: number;
  cells: string[];
  state: 'ok' | 'error' | 'skipped' | 'duplicate';
  /** without the 第 N 行 prefix */
  reason?: string;
}

const fileError = (p: Problem) => new ValidationError([fieldErrorOf('file', p)]);

/** Maps header texts to columns; refuses a header missing a required column. */
export function mapHeader(header: Cell[], columns: readonly SheetColumn[] = SHEET_COLUMNS): Array<number | undefined> {
  const byText = new Map<string, number>();
  columns.forEach((c, k) => byText.set(c.header, k));
  columns.forEach((c, k) => c.aliases?.forEach((alias) => byText.set(alias, k)));
  const map: Array<number | undefined> = columns.map(() => undefined);
  header.forEach((c, i) => {
    const k = byText.get(cellText(c).replace(/\s+/g, ''));
    if (k !== undefined && map[k] === undefined) map[k] = i;
  });
  const missing = columns.filter((c, k) => c.required && map[k] === undefined).map((c) => c.header);
  if (missing.length) throw fileError(problem('import_missing_header', { columns: missing }));
  return map;
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

export interface ParsedPayment {
  row: number;
  last_five: string;
  paid_at: number;
  amount: number;
  note: string;
  store_id: number;
  status: PaymentStatus;
  method: PaymentMethod;
  method_detail: string | null;
  employee: boolean;
}

/** `reason` and `errors` carry the 第 N 行 prefix; `detail` says the same without it, for a preview row. */
export type RowOutcome =
  | { state: 'empty' }
  | { state: 'skipped'; reason: string; detail: string }
  | { state: 'duplicate'; reason: string; detail: string; duplicateOf: number }
  | { state: 'error'; errors: string[]; problems: Problem[]; detail: string }
  | { state: 'ok'; payment: ParsedPayment };

/** A row's errors placed at its row; one said twice is said once. */
function errorOutcome(row: number, problems: Problem[]): Extract<RowOutcome, { state: 'error' }> {
  const key = (p: Problem) => `${p.code}${JSON.stringify(p.details)}`;
  const unique = problems.filter((p, i) => problems.findIndex((q) => key(q) === key(p)) === i);
  const at = unique.map((p) => placed(p, { row }));
  return {
    state: 'error',
    errors: at.map((p) => p.message),
    problems: at,
    detail: unique.map((p) => p.message).join('；'),
  };
}

export function previewOf(row: number, cells: string[], o: Exclude<RowOutcome, { state: 'empty' }>): PreviewRow {
  return o.state === 'ok' ? { row, cells, state: 'ok' } : { row, cells, state: o.state, reason: o.detail };
}

/** Every rule of one sheet row, shared by the whole-file reader below and the streamed one (importFile.ts). */
export class PaymentRowReader {
  private readonly columns: readonly SheetColumn[] = [...SHEET_COLUMNS];
  private readonly col: Array<number | undefined>;
  private readonly byKey: Map<string, number>;
  private readonly matchStore: (text: string) => number | null;
  private readonly fallbackStore: number;
  /** flat: a million-row file costs tens of megabytes here, not hundreds */
  private readonly seen = new PaymentKeyIndex();
  /** the row being read, and one object telling its columns */
  private line: Cell[] = [];
  private readonly reading: RowReading;

  constructor(
    header: Cell[],
    private readonly opts: Pick<ParseOptions, 'stores' | 'userStoreId' | 'allowDuplicates' | 'now'>,
    date1904: boolean,
  ) {
    this.col = mapHeader(header, this.columns);
    this.byKey = new Map(this.columns.map((c, k) => [c.key, k]));
    this.matchStore = storeMatcher(opts.stores);
    this.fallbackStore = submissionStoreId({ store_id: opts.userStoreId ?? null }, null);
    this.reading = {
      cell: (key) => this.at(this.line, this.byKey.get(key)),
      date1904,
      matchStore: this.matchStore,
      fallbackStore: this.fallbackStore,
      now: opts.now ?? Date.now(),
      errors: [],
      payment: {},
    };
  }

  displayCells(line: Cell[]): string[] {
    return this.col.map((i) => cellText(i === undefined ? undefined : line[i]));
  }

  private at(line: Cell[], k: number | undefined): Cell {
    const i = k === undefined ? undefined : this.col[k];
    return i === undefined ? undefined : line[i];
  }

  read(line: Cell[], rowNo: number): RowOutcome {
    if (line.every(isEmpty)) return { state: 'empty' };
    const { columns } = this;
    const errors: Problem[] = [];
    this.line = line;
    try {
      for (let k = 0; k < columns.length; k++) {
        const skip = columns[k].skipWhenEmpty;
        if (skip !== undefined && this.col[k] !== undefined && isEmpty(this.at(line, k))) {
          const why = problem(skip as 'import_no_business_date');
          return { state: 'skipped', reason: placed(why, { row: rowNo }).message, detail: why.message };
        }
      }
      if (line.some((c) => c?.t === 'e')) throw new Error('error cell');

      const payment: ParsedPayment = {
        row: rowNo,
        last_five: '',
        paid_at: 0,
        amount: 0,
        note: '',
        store_id: 0,
        status: '未確認',
        method: DEFAULT_METHOD,
        method_detail: null,
        employee: false,
      };
      const reading = this.reading;
      reading.errors = errors;
      reading.payment = payment as unknown as Record<string, unknown>;
      // in the sheet's order, so the errors come in that order too
      for (let k = 0; k < columns.length; k++) columns[k].read?.(this.at(line, k), reading);

      if (errors.length) return errorOutcome(rowNo, errors);
      const first = this.seen.get(payment);
      if (first !== undefined && !this.opts.allowDuplicates) {
        const why = problem('import_duplicate_in_file', { earlier_row: first });
        return {
          state: 'duplicate',
          reason: placed(why, { row: rowNo }).message,
          detail: why.message,
          duplicateOf: first,
        };
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
  const grid = sheetGrid(wb.Sheets[sheetName], maxRows) as Cell[][];
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
    else if (outcome.state === 'duplicate')
      skipped.push({ row: rowNo, reason: outcome.reason, duplicateOf: outcome.duplicateOf });
    else if (outcome.state === 'error') problems.push(...outcome.problems);
    // the API takes the time as ISO text
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
