import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { MAX_SHEET_COLUMNS } from '../limits.js';
import { MSG } from '../messages.js';
import { cellsOf, readWorkbook, sheetGrid } from './workbook.js';

/** A workbook of these cells (address → value), written by SheetJS and read back as every reader reads it. */
function sheetOf(cells: Record<string, string | number>, ref?: string): XLSX.WorkSheet {
  const ws: XLSX.WorkSheet = {};
  for (const [a, v] of Object.entries(cells)) ws[a] = typeof v === 'number' ? { t: 'n', v } : { t: 's', v };
  ws['!ref'] = ref ?? XLSX.utils.encode_range(XLSX.utils.decode_range(`A1:${Object.keys(cells).sort().pop()}`));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'S');
  const book = readWorkbook(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer, { maxRows: 100 });
  return book.Sheets.S;
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).errors[0].message;
  }
  return 'not refused';
};

describe('sheetGrid', () => {
  it('gives the cells a sheet has, holes where it has none', () => {
    const grid = sheetGrid(sheetOf({ A1: '日期', C1: '金額', C3: 1500 }), 100);
    const seen: string[] = [];
    grid.forEach((row, r) => cellsOf(row, (cell, c) => seen.push(`${r}:${c}=${cell.v}`)));
    expect(seen).toEqual(['0:0=日期', '0:2=金額', '2:2=1500']);
  });

  it('refuses a range declared wider than the limit, whatever it holds', () => {
    expect(refusal(() => sheetGrid(sheetOf({ A1: 'x' }, 'A1:XFD2'), 100))).toBe(
      MSG.importTooManyColumns('A1:XFD2', MAX_SHEET_COLUMNS),
    );
  });

  it('refuses a cell past the last column allowed, and takes one in it', () => {
    expect(refusal(() => sheetGrid(sheetOf({ A1: 'x', BM2: 'y' }), 100))).toBe(
      MSG.importTooManyColumns('A1:BM2', MAX_SHEET_COLUMNS),
    );
    expect(sheetGrid(sheetOf({ A1: 'x', BL2: 'y' }), 100)[1]).toHaveLength(MAX_SHEET_COLUMNS);
  });

  it('refuses a range declared longer than the row limit, before reading its rows', () => {
    expect(refusal(() => sheetGrid(sheetOf({ A1: 'x' }, 'A1:C5000'), 100))).toBe(MSG.importTooManyRows(100));
  });
});
