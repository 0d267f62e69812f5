/**
 * Reads a bank statement as banks export it, no database nor file system. No bank is hard-coded:
 * the header row is found by the words of its columns, each column mapped to a role.
 */
import * as XLSX from 'xlsx';
import { fieldErrorOf, placed, problem, ValidationError, type Problem } from '../errors.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../payments/sheetFile.js';
import { cellsOf, readWorkbook, sheetGrid, type SheetCellObject } from '../spreadsheets/workbook.js';
import { serialToInstant } from '../spreadsheets/serial.js';
import { formatTaipei, taipeiDate, MIN_INSTANT, MAX_INSTANT } from '../time.js';
import { parseWholeAmount } from '../spreadsheets/amounts.js';
import { cleanCell } from '../spreadsheets/cells.js';
import { parseCsv } from '../spreadsheets/csv.js';
import { looksLikeDate, parseClock, parseDateTime, partsToInstant } from '../spreadsheets/dates.js';
import { decodeText } from '../spreadsheets/decode.js';
import { sniffKind } from '../spreadsheets/sniff.js';
import { payerOf } from './payer.js';
import type { StatementLine } from './types.js';

export type ColumnRole =
  | 'date'
  | 'posting'
  | 'time'
  | 'credit'
  | 'debit'
  | 'amount'
  | 'balance'
  | 'summary'
  | 'note'
  | 'counterparty';
export type StatementEncoding = 'utf-8' | 'big5' | 'xlsx' | 'xls';

/** Header words of each role, whitespace removed. */
const STATEMENT_HEADERS: Record<ColumnRole, readonly string[]> = {
  date: ['交易日期', '日期', '交易日', '交易日期時間', '交易日時間', '日期時間'],
  posting: ['帳務日期', '記帳日', '記帳日期', '入帳日期'],
  time: ['交易時間', '時間'],
  credit: ['存入', '存入金額', '存', '轉入', '收入', '轉入金額', '存款'],
  debit: ['支出', '支出金額', '提', '轉出', '轉出金額', '提款'],
  amount: ['金額', '交易金額'],
  balance: ['餘額', '結餘', '帳戶餘額', '即時餘額', '結存'],
  summary: ['摘要', '說明'],
  note: ['備註', '附註', '註記', '存摺備註', '轉帳留言', '交易備註'],
  counterparty: [
    '轉出入帳號',
    '對方帳號',
    '對方銀行代碼/帳號',
    '帳號',
    '存摺備註對方銀行代碼/帳號',
    '對方銀行/帳號',
    '轉出入帳號/戶名',
  ],
};

const HEADER_SEARCH_ROWS = 20;

export interface ReadStatement {
  file: string;
  encoding: StatementEncoding;
  /** role → the header text as written (note columns joined with 、) */
  columns: Partial<Record<ColumnRole, string>>;
  headerRow: number;
  /** the statement's own account, from a title row above the header */
  account: string | null;
  lines: StatementLine[];
  credits: number;
  /** rows after the header skipped as no transaction (blank rows not counted) */
  skipped: number;
  from: string | null;
  to: string | null;
  /** rows whose running balance does not follow from the line before (a missing row, a wrong order) */
  balance_breaks: number;
  breakRows: number[];
}

/** The message names the file and the row; it is the error's own message too, so every edge shows it. */
const fail = (file: string, p: Problem, row?: number) => {
  const at = placed(p, row === undefined ? { file } : { file, row });
  return new ValidationError([fieldErrorOf('file', at)], at);
};

const norm = (s: string) => s.replace(/[\s\u3000]+/g, '').replace(/[：:]$/, '');

const roleOf = (() => {
  const map = new Map<string, ColumnRole>();
  for (const [role, words] of Object.entries(STATEMENT_HEADERS) as Array<[ColumnRole, readonly string[]]>)
    for (const w of words) map.set(w, role);
  return (text: string): ColumnRole | undefined => {
    const t = norm(text);
    const exact = map.get(t);
    if (exact) return exact;
    if (/對方.*帳號|轉出入帳號/.test(t)) return 'counterparty';
    return undefined;
  };
})();

interface HeaderMap {
  row: number;
  cols: Partial<Record<Exclude<ColumnRole, 'note'>, number>>;
  notes: number[];
  texts: Partial<Record<ColumnRole, string>>;
}

function mapHeader(cells: string[], row: number): HeaderMap | null {
  const cols: HeaderMap['cols'] = {};
  const notes: number[] = [];
  const texts: HeaderMap['texts'] = {};
  cells.forEach((c, i) => {
    const role = roleOf(c);
    if (!role) return;
    if (role === 'note') {
      notes.push(i);
      texts.note = texts.note ? `${texts.note}、${c.trim()}` : c.trim();
    } else if (cols[role] === undefined) {
      cols[role] = i;
      texts[role] = c.trim();
    }
  });
  // A posting date alone serves as the date.
  if (cols.date === undefined && cols.posting !== undefined) {
    cols.date = cols.posting;
    texts.date = texts.posting;
    delete cols.posting;
    delete texts.posting;
  }
  const hasDate = cols.date !== undefined || cols.time !== undefined;
  const hasMoney = cols.credit !== undefined || cols.amount !== undefined;
  return hasDate && hasMoney ? { row, cols, notes, texts } : null;
}

/** null when empty, NaN when unreadable */
const parseStatementAmount = (raw: string): number | null => parseWholeAmount(cleanCell(raw));

const parseStatementDate = (raw: string) => parseDateTime(cleanCell(raw));

const parseStatementTime = (raw: string) => parseClock(cleanCell(raw), { compact: true });

/** The counterparty's trailing visible digits, at most five ('' when none show). */
export function visibleDigits(counterparty: string): string {
  return payerOf(counterparty).digits;
}

/** The account a title row above the header names (`帳號：0123-456-789012`), as written. */
function titleAccount(rows: readonly string[][]): string | null {
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const cell = cleanCell(row[i] ?? '');
      const m = /^(?:存款|帳戶|活存|活期|本行|查詢|交易)?帳(?:號|戶)\s*[:：]?\s*(.*)$/.exec(cell);
      if (!m) continue;
      let value = m[1];
      if (!value)
        value =
          row
            .slice(i + 1)
            .map((c) => cleanCell(c ?? ''))
            .find((c) => Boolean(c)) ?? '';
      const token = /^[\d*＊Xx][\d*＊Xx\s-]*/.exec(value.trim());
      // dashes kept as the passbook shows them (accounts are compared without them), masks as `*`
      const account = token
        ? token[0]
            .replace(/\s+/g, '')
            .replace(/[＊Xx]/g, '*')
            .replace(/-+$/, '')
        : '';
      if ((account.match(/\d/g)?.length ?? 0) >= 6) return account;
    }
  }
  return null;
}

/** A day's subtotal written in the date cell: `2026/11/30 小計`. */
const SUBTOTAL_AFTER_DATE = /(?:合計|小計|總計)\s*[:：]?$/;

/** First words of a row about the file, never a transaction: totals, counts, disclaimers. */
const SUMMARY_CELL =
  /^(?:(?:本日|本頁|本月|本期|總)?(?:合計|小計|總計|累計)|(?:資料|總|交易)?筆數|共\s*\d+\s*筆|以上資料|資料截至|資料日期|查詢(?:期間|日期|時間)|列印(?:日期|時間)|製表)/;

/** A sheet cell as text: dates and times as a bank's CSV writes them. */
function sheetCellText(c: XLSX.CellObject | undefined): string {
  if (!c || c.v === undefined || c.v === null || c.t === 'z') return '';
  // an error cell (#VALUE!) reads as its text: a transaction with one is refused, never read as empty
  if (c.t === 'e') return c.w ?? '#N/A';
  if (c.t === 'n' && typeof c.v === 'number' && c.z && XLSX.SSF.is_date(c.z)) {
    if (c.v < 1) {
      const secs = Math.round(c.v * 86400);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${p(Math.floor(secs / 3600))}:${p(Math.floor(secs / 60) % 60)}:${p(secs % 60)}`;
    }
    const at = serialToInstant(c.v);
    if (at !== null)
      return Number.isInteger(c.v) ? formatTaipei(at, { dateOnly: true }) : formatTaipei(at, { seconds: true });
  }
  if (c.t === 'n') return String(c.v);
  return String(c.v);
}

/** The first sheet's rows as texts (index 0 is row 1, whatever its first used row; a missing cell is a hole). */
function sheetRows(bytes: Uint8Array, file: string): string[][] {
  let grid: SheetCellObject[][];
  try {
    const wb = readWorkbook(bytes, { maxRows: MAX_IMPORT_ROWS });
    const sheet = wb.Sheets[wb.SheetNames[0] ?? ''];
    grid = sheet ? sheetGrid(sheet, MAX_IMPORT_ROWS) : [];
  } catch (err) {
    if (err instanceof ValidationError) throw fail(file, err.errors[0] ?? problem('import_parse_failed'));
    throw err;
  }
  if (grid.length === 0) throw fail(file, problem('import_no_sheet'));
  const rows: string[][] = [];
  for (let r = 0; r < grid.length; r++) {
    const out: string[] = [];
    cellsOf(grid[r], (cell, c) => {
      const text = sheetCellText(cell);
      if (text !== '') out[c] = text;
    });
    rows.push(out);
  }
  return rows;
}

/**
 * Reads a statement, or throws a ValidationError naming the file and row; nothing half-read. Rows
 * that are no transaction are skipped wherever they stand; one that looks like one is read or refused.
 */
export function readStatement(
  data: Uint8Array | ArrayBuffer,
  file: string,
  opts: { maxBytes?: number } = {},
): ReadStatement {
  const { rows, encoding } = statementRows(data, file, opts.maxBytes ?? MAX_IMPORT_BYTES);
  let header: HeaderMap | null = null;
  for (let r = 0; r < Math.min(HEADER_SEARCH_ROWS, rows.length) && !header; r++) header = mapHeader(rows[r], r + 1);
  if (!header) throw fail(file, problem('statement_no_header', { rows: HEADER_SEARCH_ROWS }));
  const lines: StatementLine[] = [];
  let skipped = 0;
  for (let r = header.row; r < rows.length; r++) {
    const line = readRow({ cells: rows[r], rowNo: r + 1, header, file });
    if (line === 'skip') skipped++;
    else if (line !== 'blank') lines.push(line);
  }
  if (lines.length === 0) throw fail(file, problem('statement_no_lines'));
  const breakRows = balanceBreaks(lines);
  let min = Infinity,
    max = -Infinity;
  for (const l of lines) {
    if (l.at < min) min = l.at;
    if (l.at > max) max = l.at;
  }
  return {
    file,
    encoding,
    account: titleAccount(rows.slice(0, header.row - 1)),
    columns: header.texts,
    headerRow: header.row,
    lines,
    credits: lines.filter((l) => l.amount > 0).length,
    skipped,
    from: taipeiDate(min),
    to: taipeiDate(max),
    balance_breaks: breakRows.length,
    breakRows,
  };
}

function statementRows(
  data: Uint8Array | ArrayBuffer,
  file: string,
  maxBytes: number,
): { rows: string[][]; encoding: StatementEncoding } {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length > maxBytes)
    throw fail(file, problem('import_file_too_large', { limit_mb: Math.round((maxBytes / 1024 / 1024) * 10) / 10 }));
  if (bytes.length === 0) throw fail(file, problem('statement_empty'));
  let out: { rows: string[][]; encoding: StatementEncoding };
  const kind = sniffKind(bytes, file);
  if (kind === 'xlsx' || kind === 'xls') out = { rows: sheetRows(bytes, file), encoding: kind };
  else {
    if (kind === 'binary') throw fail(file, problem('statement_not_supported'));
    const decoded = decodeText(bytes);
    out = { rows: parseCsv(decoded.text), encoding: decoded.encoding };
  }
  if (out.rows.length > MAX_IMPORT_ROWS + HEADER_SEARCH_ROWS + 1000)
    throw fail(file, problem('import_too_many_rows', { limit: MAX_IMPORT_ROWS }));
  return out;
}

interface Row {
  cells: string[];
  rowNo: number;
  header: HeaderMap;
  file: string;
}

const cellAt = (cells: string[], i: number | undefined) => (i === undefined ? '' : cleanCell(cells[i] ?? ''));

function moneyAt({ cells, rowNo, header, file }: Row, role: 'credit' | 'debit' | 'amount' | 'balance'): number | null {
  const text = cellAt(cells, header.cols[role]);
  const v = parseStatementAmount(text);
  if (Number.isNaN(v))
    throw fail(file, problem('statement_bad_amount', { column: header.texts[role] ?? '', value: text }), rowNo);
  return v;
}

function readRow(row: Row): StatementLine | 'skip' | 'blank' {
  const { cells, rowNo, header } = row;
  const { cols, notes } = header;
  const first = cells.findIndex((c) => cleanCell(c ?? '') !== '');
  if (first < 0) return 'blank';
  const dateText = cellAt(cells, cols.date);
  if (
    SUMMARY_CELL.test(cleanCell(cells[first])) ||
    SUMMARY_CELL.test(cellAt(cells, cols.summary)) ||
    SUBTOTAL_AFTER_DATE.test(dateText)
  )
    return 'skip';
  const when = rowInstant(row, dateText, cellAt(cells, cols.time));
  if (!when) return 'skip';
  const amount = rowAmount(row);
  // a date but no money (a balance brought forward) is no transaction
  if (amount === null) return 'skip';
  const counterparty = cellAt(cells, cols.counterparty);
  const noteTexts = notes.map((i) => cleanCell(cells[i] ?? '')).filter(Boolean);
  const summary = cellAt(cells, cols.summary);
  const { payer, digits } = payerOf(counterparty, [...noteTexts, summary]);
  return {
    row: rowNo,
    at: when.at,
    hasTime: when.hasTime,
    amount,
    balance: cols.balance === undefined ? null : moneyAt(row, 'balance'),
    summary,
    note: noteTexts.join(' '),
    counterparty,
    digits,
    payer,
  };
}

/** The row's instant; null when it holds no date and does not look like a transaction (else it is refused). */
function rowInstant(row: Row, dateText: string, timeText: string): { at: number; hasTime: boolean } | null {
  const { rowNo, file } = row;
  // the time column may hold the whole date-time (台北富邦 交易時間)
  let parsed = timeText && looksLikeDate(timeText) ? parseStatementDate(timeText) : null;
  if (!parsed) {
    const d = dateText ? parseStatementDate(dateText) : null;
    if (!d) {
      if (looksLikeTransaction(row, dateText, timeText))
        throw fail(file, problem('statement_bad_date', { value: dateText }), rowNo);
      return null;
    }
    let time = d.time;
    if (timeText && !time) {
      time = parseStatementTime(timeText);
      if (!time) throw fail(file, problem('statement_bad_time', { value: timeText }), rowNo);
    }
    parsed = { date: d.date, time };
  }
  const instant = partsToInstant(parsed.date, parsed.time);
  if (instant === null || instant < MIN_INSTANT || instant >= MAX_INSTANT)
    throw fail(file, problem('statement_bad_date', { value: dateText || timeText }), rowNo);
  return { at: instant, hasTime: parsed.time !== null };
}

/** A date-like cell, or a time and an amount. */
function looksLikeTransaction({ cells, header: { cols } }: Row, dateText: string, timeText: string): boolean {
  const clock = timeText ? parseStatementTime(timeText) : null;
  const hasAmount = (['credit', 'debit', 'amount'] as const).some((role) => {
    const v = cols[role] === undefined ? null : parseStatementAmount(cellAt(cells, cols[role]));
    return v !== null && !Number.isNaN(v);
  });
  return Boolean(looksLikeDate(dateText) || looksLikeDate(timeText) || (clock && hasAmount));
}

/** Money in positive, out negative; null when the row has none. */
function rowAmount(row: Row): number | null {
  const { cols } = row.header;
  if (cols.credit === undefined && cols.debit === undefined) return moneyAt(row, 'amount') || null;
  const credit = moneyAt(row, 'credit');
  const debit = moneyAt(row, 'debit');
  const c = credit ? Math.abs(credit) : 0;
  const d = debit ? Math.abs(debit) : 0;
  if (c && d) throw fail(row.file, problem('statement_both_sides'), row.rowNo);
  const amount = c ? c : d ? -d : null;
  if (amount === null && cols.amount !== undefined) return moneyAt(row, 'amount') || null;
  return amount;
}

/** Rows whose balance does not follow from the line before: oldest or newest first, as the dates say. */
function balanceBreaks(lines: StatementLine[]): number[] {
  const withBalance = lines.filter((l) => l.balance !== null);
  if (withBalance.length < 2) return [];
  const newestFirst = withBalance[0].at > withBalance[withBalance.length - 1].at;
  const out: number[] = [];
  for (let i = 1; i < withBalance.length; i++) {
    const prev = withBalance[i - 1],
      cur = withBalance[i];
    const ok = newestFirst ? cur.balance! + prev.amount === prev.balance : prev.balance! + cur.amount === cur.balance;
    if (!ok) out.push(cur.row);
  }
  return out;
}
