/**
 * Reads an .xlsx sheet row by row without loading it (Node only), since SheetJS reads whole files only.
 * Cells come out shaped as SheetJS's, so one set of row rules reads both.
 */
import * as XLSX from 'xlsx';
import { fieldErrorOf, problem, ValidationError } from '../errors.js';
import { MAX_SHEET_COLUMNS } from '../limits.js';
import type { SheetCell } from './cells.js';
import { attr, scanXml, type XmlHandler } from './xmlScan.js';
import {
  inflateBudget,
  readZipDirectory,
  readZipEntry,
  ZipReadError,
  type InflateBudget,
  type ZipEntry,
} from './zipRead.js';

/** Shared strings are held in memory while the sheet is read, so they are bounded. */
const MAX_SHARED_STRINGS = 4_000_000;
const MAX_SHARED_CHARS = 120_000_000;

export class SharedStringsTooLarge extends Error {}

export interface SheetRow {
  row: number;
  cells: SheetCell[];
}

interface XlsxStream {
  sheetName: string;
  date1904: boolean;
  rows(): AsyncGenerator<SheetRow[]>;
}

const UNESCAPE = /_x([0-9a-fA-F]{4})_/g;
/** Excel's `_xHHHH_` escapes for characters XML cannot hold, as SheetJS reads them. */
const unescapeExcel = (s: string) =>
  s.indexOf('_x') < 0 ? s : s.replace(UNESCAPE, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Its display text (`w`) is formatted only when asked for (a preview, a message). */
class NumberCell {
  readonly t = 'n' as const;
  constructor(
    readonly v: number,
    private readonly format: string,
    private readonly date1904: boolean,
  ) {}
  get w(): string {
    try {
      return XLSX.SSF.format(this.format, this.v, { date1904: this.date1904 });
    } catch {
      return String(this.v);
    }
  }
}

const stringCell = (v: string): SheetCell => ({ t: 's', v, w: v });

const tooWide = (range: string) =>
  new ValidationError([fieldErrorOf('file', problem('import_too_many_columns', { range, limit: MAX_SHEET_COLUMNS }))]);

function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

async function drain(chunks: AsyncIterable<Buffer>, h: XmlHandler): Promise<void> {
  for await (const _ of scanXml(chunks, h, () => undefined));
}

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

/** Opens the sheet named `sheetName`, else the first. */
export async function openXlsxStream(
  path: string,
  sheetName: string,
  budget: InflateBudget = inflateBudget(),
): Promise<XlsxStream> {
  const entries = await readZipDirectory(path);
  const entry = (name: string): ZipEntry | undefined => entries.get(name);
  const read = (e: ZipEntry) => readZipEntry(path, e, budget);

  const wbEntry = entry('xl/workbook.xml') ?? [...entries.values()].find((e) => /(^|\/)workbook\.xml$/.test(e.name));
  if (!wbEntry) throw new ZipReadError('corrupt', 'no workbook');
  const wbPath = wbEntry.name.replace(/^\/+/, '');
  const sheets: Array<{ name: string; rid: string }> = [];
  let date1904 = false;
  await drain(read(wbEntry), {
    open(name, raw) {
      if (name === 'sheet') sheets.push({ name: attr(raw, 'name') ?? '', rid: attr(raw, 'id') ?? '' });
      else if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attr(raw, 'date1904') ?? '');
    },
    close() {},
    text() {},
  });
  const rels = new Map<string, { type: string; target: string }>();
  const relsEntry = entry(wbPath.replace(/([^/]+)$/, '_rels/$1.rels'));
  if (relsEntry) {
    await drain(read(relsEntry), {
      open(name, raw) {
        if (name === 'Relationship')
          rels.set(attr(raw, 'Id') ?? '', {
            type: attr(raw, 'Type') ?? '',
            target: resolveTarget(wbPath, attr(raw, 'Target') ?? ''),
          });
      },
      close() {},
      text() {},
    });
  }
  const byType = (suffix: string) => [...rels.values()].find((r) => r.type.endsWith(suffix))?.target;
  const chosen = sheets.find((s) => s.name === sheetName) ?? sheets[0];
  if (!chosen) throw new ZipReadError('corrupt', 'no sheet');
  const sheetEntry = entry(rels.get(chosen.rid)?.target ?? '') ?? entry('xl/worksheets/sheet1.xml');
  if (!sheetEntry) throw new ZipReadError('corrupt', 'sheet entry missing');

  const formats = await readStyles(entry(byType('/styles') ?? 'xl/styles.xml'), read);
  const shared = await readSharedStrings(entry(byType('/sharedStrings') ?? 'xl/sharedStrings.xml'), read);

  return {
    sheetName: chosen.name,
    date1904,
    rows: () => sheetRows(read(sheetEntry), formats, shared, date1904),
  };
}

async function readStyles(e: ZipEntry | undefined, read: (e: ZipEntry) => AsyncGenerator<Buffer>): Promise<string[]> {
  if (!e) return [];
  const table = XLSX.SSF.get_table() as Record<number, string>;
  const custom = new Map<number, string>();
  const xfs: number[] = [];
  let inCellXfs = false;
  await drain(read(e), {
    open(name, raw) {
      if (name === 'numFmt') custom.set(Number(attr(raw, 'numFmtId')), attr(raw, 'formatCode') ?? 'General');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfs.push(Number(attr(raw, 'numFmtId') ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
    text() {},
  });
  return xfs.map((id) => custom.get(id) ?? table[id] ?? 'General');
}

async function readSharedStrings(
  e: ZipEntry | undefined,
  read: (e: ZipEntry) => AsyncGenerator<Buffer>,
): Promise<string[]> {
  if (!e) return [];
  const strings: string[] = [];
  let chars = 0;
  let current: string | null = null;
  let inT = false;
  let phonetic = 0;
  await drain(read(e), {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inT = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && current !== null) {
        chars += current.length;
        if (strings.length >= MAX_SHARED_STRINGS || chars > MAX_SHARED_CHARS) throw new SharedStringsTooLarge();
        strings.push(unescapeExcel(current));
        current = null;
      }
    },
    text(v) {
      if (inT && phonetic === 0 && current !== null) current += v;
    },
  });
  return strings;
}

async function* sheetRows(
  chunks: AsyncGenerator<Buffer>,
  formats: string[],
  shared: string[],
  date1904: boolean,
): AsyncGenerator<SheetRow[]> {
  const sheet = new SheetHandler(formats, shared, date1904);
  for await (const batch of scanXml(chunks, sheet, () => sheet.take())) if (batch.length) yield batch;
}

/** A sheet's XML read into rows as it is scanned; completed rows are taken in batches. */
class SheetHandler implements XmlHandler {
  private batch: SheetRow[] = [];
  private rowNo = 0;
  private cells: SheetCell[] = [];
  private col = -1;
  private type = '';
  private style = 0;
  private value: string | null = null;
  private formula = false;
  /** inside a <v>, or an inline string's <t> */
  private capture = false;
  /** inside phonetic runs (rPh), whose text is not the cell's */
  private phonetic = 0;

  constructor(
    private readonly formats: string[],
    private readonly shared: string[],
    private readonly date1904: boolean,
  ) {}

  take(): SheetRow[] {
    const batch = this.batch;
    if (batch.length) this.batch = [];
    return batch;
  }

  open(name: string, raw: string): void {
    switch (name) {
      case 'row':
        this.openRow(raw);
        break;
      case 'dimension':
        checkDimension(raw);
        break;
      case 'c':
        this.openCell(raw);
        break;
      case 'f':
        this.formula = true;
        break;
      case 'v':
        this.value = '';
        this.capture = true;
        break;
      case 't':
        if (this.type === 'inlineStr' && this.phonetic === 0) {
          this.value ??= '';
          this.capture = true;
        }
        break;
      case 'rPh':
        this.phonetic++;
        break;
    }
  }

  close(name: string): void {
    switch (name) {
      case 'v':
      case 't':
        this.capture = false;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'c':
        this.closeCell();
        break;
      case 'row':
        this.batch.push({ row: this.rowNo, cells: this.cells });
        this.cells = [];
        break;
    }
  }

  text(v: string): void {
    if (this.capture) this.value += v;
  }

  private openRow(raw: string): void {
    const r = attr(raw, 'r');
    this.rowNo = r ? Number(r) : this.rowNo + 1;
    this.cells = [];
    this.col = -1;
  }

  private openCell(raw: string): void {
    const ref = attr(raw, 'r');
    this.col = ref ? columnIndex(ref) : this.col + 1;
    // a row is an array up to its last cell: a cell in column XFD would make every row 16 384 long
    if (this.col >= MAX_SHEET_COLUMNS) throw tooWide(`A1:${ref ?? XLSX.utils.encode_col(this.col)}`);
    this.type = attr(raw, 't') ?? 'n';
    const s = attr(raw, 's');
    this.style = s ? Number(s) : 0;
    this.value = null;
    this.formula = false;
  }

  private closeCell(): void {
    if (this.col < 0) return;
    if (this.value !== null)
      this.cells[this.col] = cellOf(
        this.type,
        this.value,
        this.formats[this.style] ?? 'General',
        this.shared,
        this.date1904,
      );
    // a formula without its cached value: an error cell, as SheetJS reads it
    else if (this.formula) this.cells[this.col] = { t: 'e', v: 0, w: '' };
  }
}

/** A declared range wider than any import is refused. */
function checkDimension(raw: string): void {
  const ref = attr(raw, 'ref') ?? '';
  if (columnIndex(ref.split(':').pop() ?? '') >= MAX_SHEET_COLUMNS) throw tooWide(ref);
}

function cellOf(type: string, value: string, format: string, shared: string[], date1904: boolean): SheetCell {
  switch (type) {
    case 'n': {
      if (value.trim() === '') return { t: 'z' };
      const n = Number(value);
      return Number.isFinite(n) ? new NumberCell(n, format, date1904) : { t: 'e', v: 0, w: value };
    }
    case 's': {
      const s = shared[Number(value)];
      return s === undefined ? { t: 'z' } : stringCell(s);
    }
    case 'str':
    case 'inlineStr':
    case 'd':
      return stringCell(unescapeExcel(value));
    case 'b':
      return { t: 'b', v: value === '1' || value === 'true', w: value === '1' || value === 'true' ? 'TRUE' : 'FALSE' };
    case 'e':
      return { t: 'e', v: 0, w: value };
    default:
      return stringCell(value);
  }
}
