/**
 * Opens an Excel workbook from bytes for every spreadsheet reader, bounding its cost before any row is
 * read: file size, zip expansion, sheet size. Sheets are walked by their cells, never their declared
 * range: a 1.5 KB file may declare A1:XFD100000.
 */
import * as XLSX from 'xlsx';
import { fieldErrorOf, problem, ValidationError, type Problem } from '../errors.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, MAX_SHEET_COLUMNS } from '../limits.js';
import { isOle, isZip } from './sniff.js';
import { guardZip } from './zipGuard.js';

export type SheetCellObject = XLSX.CellObject | undefined;

interface WorkbookLimits {
  maxBytes?: number;
  /** data rows allowed; the sheet may hold this many, a header and some blank rows between */
  maxRows?: number;
}

const fileError = (p: Problem) => new ValidationError([fieldErrorOf('file', p)]);

const sheetRowsFor = (maxRows: number) => maxRows + 1 + Math.max(1000, Math.ceil(maxRows / 10));

/** Refuses what is not an Excel file or is too big, before any row is read. */
export function readWorkbook(data: Uint8Array | ArrayBuffer, opts: WorkbookLimits = {}): XLSX.WorkBook {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const maxBytes = opts.maxBytes ?? MAX_IMPORT_BYTES;
  if (bytes.length > maxBytes)
    throw fileError(problem('import_file_too_large', { limit_mb: Math.round((maxBytes / 1024 / 1024) * 10) / 10 }));
  if (!isZip(bytes) && !isOle(bytes)) throw fileError(problem('import_not_spreadsheet'));
  let input = bytes;
  if (isZip(bytes)) {
    // on a copy, since guardZip fills in a streaming writer's zero sizes before SheetJS inflates anything
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
      // a memory guard: a longer sheet is refused by sheetGrid (its '!fullref'), never cut short
      sheetRows: sheetRowsFor(opts.maxRows ?? MAX_IMPORT_ROWS),
    });
  } catch {
    throw fileError(problem('import_parse_failed'));
  }
}

/** A sheet's rows (index 0 is row 1), size-checked; rows and cells may be holes, which `forEach` and `cellsOf` skip. */
export function sheetGrid(sheet: XLSX.WorkSheet, maxRows = MAX_IMPORT_ROWS): SheetCellObject[][] {
  const rowLimit = sheetRowsFor(maxRows);
  const declared = (sheet['!fullref'] as string | undefined) ?? sheet['!ref'];
  if (declared) {
    const { e } = XLSX.utils.decode_range(declared);
    if (e.r + 1 > rowLimit) throw fileError(problem('import_too_many_rows', { limit: maxRows }));
    if (e.c + 1 > MAX_SHEET_COLUMNS)
      throw fileError(problem('import_too_many_columns', { range: declared, limit: MAX_SHEET_COLUMNS }));
  }
  const grid = (sheet['!data'] as SheetCellObject[][] | undefined) ?? [];
  if (grid.length >= rowLimit) throw fileError(problem('import_too_many_rows', { limit: maxRows }));
  // checked per row all the same: a row's length is its last cell, and callers walk rows
  grid.forEach((row) => {
    if (row && row.length > MAX_SHEET_COLUMNS) {
      const range = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: grid.length - 1, c: row.length - 1 } });
      throw fileError(problem('import_too_many_columns', { range, limit: MAX_SHEET_COLUMNS }));
    }
  });
  return grid;
}

export function cellsOf(
  row: readonly SheetCellObject[] | undefined,
  each: (cell: XLSX.CellObject, col: number) => void,
): void {
  row?.forEach((cell, col) => {
    if (cell) each(cell, col);
  });
}
