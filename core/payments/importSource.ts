/** An import file read from disk in batches of judged rows: .xlsx and CSV streamed, .xls whole (BIFF cannot stream). */
import { open, readFile } from 'node:fs/promises';
import type { WorkSheet } from 'xlsx';
import { fieldErrorOf, problem, ValidationError, type Problem } from '../errors.js';
import { MAX_STREAM_IMPORT_ROWS } from '../limits.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, SHEET_NAME } from './sheetFile.js';
import { readCsvRows } from '../spreadsheets/csvRead.js';
import { mapHeader, PaymentRowReader, type ParseOptions, type RowOutcome } from './readSheet.js';
import type { SheetCell } from '../spreadsheets/cells.js';
import { readWorkbook, sheetGrid } from '../spreadsheets/workbook.js';
import { openXlsxStream, SharedStringsTooLarge, type SheetRow } from '../spreadsheets/xlsxRead.js';
import { ZipReadError } from '../spreadsheets/zipRead.js';
import { formulaText } from '../spreadsheets/csv.js';
import { isOle, isTextName, isZip } from '../spreadsheets/sniff.js';

/** Excel's 1 048 576 rows of our export weigh about 40 MB as .xlsx, 75 MB as CSV; long notes several times that. */
export const MAX_STREAM_IMPORT_BYTES = 512 * 1024 * 1024;

export type ImportFormat = 'xlsx' | 'xls' | 'csv';

interface SourceRow {
  row: number;
  outcome: Exclude<RowOutcome, { state: 'empty' }>;
  display(): string[];
}

interface PaymentsSource {
  format: ImportFormat;
  sheetName: string;
  /** throws a ValidationError('file', …) for a refused file */
  batches(): AsyncGenerator<SourceRow[]>;
}

export interface SourceOptions extends Pick<ParseOptions, 'stores' | 'userStoreId' | 'allowDuplicates'> {
  /** as the user gave it: its extension tells a CSV */
  name?: string;
  maxRows?: number;
  maxBytes?: number;
}

const fileError = (p: Problem) => new ValidationError([fieldErrorOf('file', p)]);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function sniff(path: string): Promise<{ head: Buffer; size: number }> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    throw fileError(problem('import_read_failed'));
  }
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(8);
    await fh.read(head, 0, 8, 0);
    return { head, size };
  } finally {
    await fh.close();
  }
}

function translate(err: unknown): unknown {
  if (process.env.REMIT_DEBUG_IMPORT) console.error(err);
  if (err instanceof ValidationError) return err;
  if (err instanceof ZipReadError)
    return fileError(err.kind === 'bomb' ? problem('import_zip_bomb') : problem('import_parse_failed'));
  if (err instanceof SharedStringsTooLarge) return fileError(problem('import_too_many_texts'));
  return fileError(problem('import_parse_failed'));
}

/** `="01234"` is the text 01234, as a spreadsheet program shows it. */
const textCell = (raw: string): SheetCell | undefined => {
  const s = formulaText(raw.trim());
  return s === '' ? undefined : { t: 's', v: s, w: s };
};

/** Too long says the way out, .xlsx. */
function xlsGrid(sheet: WorkSheet): SheetCell[][] {
  try {
    return sheetGrid(sheet, MAX_IMPORT_ROWS) as SheetCell[][];
  } catch (err) {
    if (err instanceof ValidationError && err.errors[0]?.code === 'import_too_many_rows') {
      throw fileError(problem('import_xls_too_large', { limit_mb: mb(MAX_IMPORT_BYTES), limit_rows: MAX_IMPORT_ROWS }));
    }
    throw err;
  }
}

export async function openPaymentsFile(path: string, opts: SourceOptions): Promise<PaymentsSource> {
  const { head, size } = await sniff(path);
  const name = (opts.name ?? path).toLowerCase();
  const maxRows = opts.maxRows ?? MAX_STREAM_IMPORT_ROWS;
  const maxBytes = opts.maxBytes ?? MAX_STREAM_IMPORT_BYTES;

  if (isOle(head)) {
    // BIFF cannot be streamed: the whole-file reader, within its limits
    if (size > MAX_IMPORT_BYTES)
      throw fileError(problem('import_xls_too_large', { limit_mb: mb(MAX_IMPORT_BYTES), limit_rows: MAX_IMPORT_ROWS }));
    const wb = readWorkbook(new Uint8Array(await readFile(path)), { maxRows: MAX_IMPORT_ROWS });
    const sheetName = wb.SheetNames.includes(SHEET_NAME) ? SHEET_NAME : wb.SheetNames[0];
    if (!sheetName) throw fileError(problem('import_no_sheet'));
    const grid = xlsGrid(wb.Sheets[sheetName]);
    const rows = async function* (): AsyncGenerator<SheetRow[]> {
      // the grid is sparse: an empty row is a hole
      for (let r = 0; r < grid.length; r += 5000) {
        const batch: SheetRow[] = [];
        for (let k = r; k < Math.min(grid.length, r + 5000); k++) batch.push({ row: k + 1, cells: grid[k] ?? [] });
        yield batch;
      }
    };
    return judged(
      'xls',
      sheetName,
      rows,
      Boolean(wb.Workbook?.WBProps?.date1904),
      { ...opts, maxRows: Math.min(maxRows, MAX_IMPORT_ROWS) },
      true,
    );
  }
  if (size > maxBytes) throw fileError(problem('import_file_too_large', { limit_mb: mb(maxBytes) }));
  if (isZip(head)) {
    let book;
    try {
      book = await openXlsxStream(path, SHEET_NAME);
    } catch (err) {
      throw translate(err);
    }
    return judged('xlsx', book.sheetName, () => book.rows(), book.date1904, { ...opts, maxRows });
  }
  if (isTextName(name)) {
    const rows = async function* (): AsyncGenerator<SheetRow[]> {
      let n = 0;
      for await (const batch of readCsvRows(path))
        yield batch.map((cells) => ({ row: ++n, cells: cells.map(textCell) as SheetCell[] }));
    };
    return judged('csv', 'CSV', rows, false, { ...opts, maxRows });
  }
  throw fileError(/\.xlsx?$/.test(name) ? problem('import_not_spreadsheet') : problem('import_not_import_file'));
}

function judged(
  format: ImportFormat,
  sheetName: string,
  rows: () => AsyncGenerator<SheetRow[]>,
  date1904: boolean,
  opts: SourceOptions & { maxRows: number },
  xls = false,
): PaymentsSource {
  return {
    format,
    sheetName,
    async *batches() {
      let reader: PaymentRowReader | null = null;
      let total = 0;
      try {
        for await (const batch of rows()) {
          const out: SourceRow[] = [];
          for (const { row, cells } of batch) {
            // a sheet whose first row is below row 1 has no header
            reader ??= new PaymentRowReader(row === 1 ? cells : [], opts, date1904);
            if (row === 1) continue;
            const outcome = reader.read(cells, row);
            if (outcome.state === 'empty') continue;
            if (++total > opts.maxRows) {
              throw fileError(
                xls
                  ? problem('import_xls_too_large', { limit_mb: mb(MAX_IMPORT_BYTES), limit_rows: MAX_IMPORT_ROWS })
                  : problem('import_too_many_rows', { limit: opts.maxRows }),
              );
            }
            const r = reader;
            out.push({ row, outcome, display: () => r.displayCells(cells) });
          }
          if (out.length) yield out;
        }
      } catch (err) {
        throw translate(err);
      }
      if (!reader) mapHeader([]); // says which columns are missing
      if (total === 0) throw fileError(problem('import_no_rows'));
    },
  };
}
