/**
 * Reads a bank statement (存款交易明細) as the banks export it: bytes and a file name in, the
 * transaction lines out, no database and no file system, so the CLI, the server and the browser
 * run this same code. No bank is hard-coded: the header row is found among the first rows by the
 * words of its columns, and each column is mapped to a role.
 */
import * as XLSX from 'xlsx';
import { ValidationError } from '../errors.js';
import { MSG } from '../messages.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../excel/columns.js';
import { readWorkbook } from '../excel/parse.js';
import { serialToInstant } from '../excel/serial.js';
import { formatTaipei, taipeiDate, taipeiPartsToInstant, MIN_INSTANT, MAX_INSTANT } from '../time.js';
import type { StatementLine } from './types.js';

export type ColumnRole = 'date' | 'posting' | 'time' | 'credit' | 'debit' | 'amount' | 'balance' | 'summary' | 'note' | 'counterparty';
export type StatementEncoding = 'utf-8' | 'big5' | 'xlsx' | 'xls';

/** Header words of each role, whitespace removed. A date column may also hold the time. */
export const STATEMENT_HEADERS: Record<ColumnRole, readonly string[]> = {
  date: ['交易日期', '日期', '交易日', '交易日期時間', '交易日時間', '日期時間'],
  posting: ['帳務日期', '記帳日', '記帳日期', '入帳日期'],
  time: ['交易時間', '時間'],
  credit: ['存入', '存入金額', '存', '轉入', '收入', '轉入金額', '存款'],
  debit: ['支出', '支出金額', '提', '轉出', '轉出金額', '提款'],
  amount: ['金額', '交易金額'],
  balance: ['餘額', '結餘', '帳戶餘額', '即時餘額', '結存'],
  summary: ['摘要', '說明'],
  note: ['備註', '附註', '註記', '存摺備註', '轉帳留言', '交易備註'],
  counterparty: ['轉出入帳號', '對方帳號', '對方銀行代碼/帳號', '帳號', '存摺備註對方銀行代碼/帳號', '對方銀行/帳號', '轉出入帳號/戶名'],
};

/** Rows searched for the header, title rows included. */
export const HEADER_SEARCH_ROWS = 20;

export interface ReadStatement {
  file: string;
  encoding: StatementEncoding;
  /** role → the header text as written in the file (several note columns joined with 、) */
  columns: Partial<Record<ColumnRole, string>>;
  /** the header's row number */
  headerRow: number;
  lines: StatementLine[];
  /** lines with money in */
  credits: number;
  /** first and last Taiwan date the lines cover, `YYYY-MM-DD` (null when there are no lines) */
  from: string | null;
  to: string | null;
  /** rows where the running balance does not follow from the line before (a missing row, a wrong order) */
  balance_breaks: number;
  breakRows: number[];
}

/** The message names the file and, for a bad cell, the row; it is the error's own message too, so every edge shows it. */
const fail = (file: string, message: string, row?: number) => {
  const text = row === undefined ? MSG.statementFileError(file, message) : MSG.statementRowError(file, row, message);
  return new ValidationError([{ field: 'file', message: text }], text);
};

const norm = (s: string) => s.replace(/[\s\u3000]+/g, '').replace(/[：:]$/, '');

const roleOf = (() => {
  const map = new Map<string, ColumnRole>();
  for (const [role, words] of Object.entries(STATEMENT_HEADERS) as Array<[ColumnRole, readonly string[]]>) for (const w of words) map.set(w, role);
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

// ---- cells to values ---------------------------------------------------------------------

/** Strips what banks wrap values in: `="…"`, quotes, tabs, full-width spaces; full-width digits become ASCII. */
export function cleanCell(raw: string): string {
  let s = raw.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  s = s.replace(/[\t\u3000\u00a0]/g, ' ').trim();
  const formula = /^="(.*)"$/s.exec(s);
  if (formula) s = formula[1].trim();
  if (s.length >= 2 && s.startsWith("'")) s = s.slice(1).trim();
  return s;
}

/** An amount as banks write it (`1,500`, `$1,500`, `NT$1,500`, `-$1,234`, `1500.00`); null when empty, NaN when unreadable. */
export function parseStatementAmount(raw: string): number | null {
  let s = cleanCell(raw).replace(/\s+/g, '');
  if (s === '' || s === '-' || s === '--') return null;
  let negative = false;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    negative = true;
    s = paren[1];
  }
  if (s.startsWith('-') || s.startsWith('－')) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  s = s.replace(/^(NT\$|NTD|NT|\$|＄)/i, '').replace(/[,，]/g, '');
  if (s.endsWith('元')) s = s.slice(0, -1);
  if (!/^\d+(\.\d+)?$/.test(s)) return NaN;
  const n = Number(s);
  if (!Number.isInteger(n) || !Number.isSafeInteger(n)) return NaN;
  return negative ? -n : n;
}

interface DayParts {
  year: number;
  month: number;
  day: number;
}
interface ClockParts {
  hour: number;
  minute: number;
  second: number;
}

const year = (y: string) => {
  const n = Number(y);
  return y.length === 4 ? n : n + 1911; // ROC (民國) years have 2 or 3 digits
};

/** A date, with its time when the same cell holds one: Gregorian or ROC. */
export function parseStatementDate(raw: string): { date: DayParts; time: ClockParts | null } | null {
  const s = cleanCell(raw);
  let m = /^(\d{2,4})[/\-.年](\d{1,2})[/\-.月](\d{1,2})日?(?:[ T]+(.+))?$/.exec(s);
  let rest: string | undefined;
  let date: DayParts | null = null;
  if (m) {
    date = { year: year(m[1]), month: +m[2], day: +m[3] };
    rest = m[4];
  } else if ((m = /^(\d{4})(\d{2})(\d{2})(?:[ T]+(.+))?$/.exec(s))) {
    date = { year: +m[1], month: +m[2], day: +m[3] };
    rest = m[4];
  } else if ((m = /^(\d{3})(\d{2})(\d{2})(?:[ T]+(.+))?$/.exec(s))) {
    date = { year: +m[1] + 1911, month: +m[2], day: +m[3] };
    rest = m[4];
  }
  if (!date) return null;
  let time: ClockParts | null = null;
  if (rest !== undefined) {
    time = parseStatementTime(rest);
    if (!time) return null;
  }
  if (taipeiPartsToInstant({ ...date, hour: 0, minute: 0, second: 0 }) === null) return null;
  return { date, time };
}

/** A time of day: `14:03:22`, `14:03`, `140322`, `1403`. */
export function parseStatementTime(raw: string): ClockParts | null {
  const s = cleanCell(raw);
  let m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/.exec(s);
  if (!m) m = /^(\d{2})(\d{2})(\d{2})?$/.exec(s);
  if (!m) return null;
  const t = { hour: +m[1], minute: +m[2], second: m[3] ? +m[3] : 0 };
  return t.hour <= 23 && t.minute <= 59 && t.second <= 59 ? t : null;
}

/**
 * The counterparty's trailing visible digits, at most five (what a report's last five is
 * compared with): masks (`*`, `X`, `＊`) and bank codes come before them. '' when none show.
 */
export function visibleDigits(counterparty: string): string {
  const s = cleanCell(counterparty).replace(/[\s-]/g, '');
  const m = /(\d+)$/.exec(s);
  return m ? m[1].slice(-5) : '';
}

// ---- bytes to rows -----------------------------------------------------------------------

function isZip(b: Uint8Array) {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 0x03 || b[2] === 0x05);
}
function isOle(b: Uint8Array) {
  const sig = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return b.length >= 8 && sig.every((x, i) => b[i] === x);
}

/** UTF-8 (with or without BOM) when the bytes are valid UTF-8, else Big5 (cp950), as Taiwanese banks write it. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'big5' } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('big5').decode(bytes), encoding: 'big5' };
  }
}

/** RFC 4180 CSV (quotes, doubled quotes, newlines inside quotes); the separator is a comma, or a tab when the file uses tabs. */
export function parseCsv(text: string): string[][] {
  const head = text.slice(0, 4000);
  const sep = (head.match(/\t/g)?.length ?? 0) > (head.match(/,/g)?.length ?? 0) ? '\t' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === '"' && cell.trim() === '=') {
      // ="0001234": keep the text as written, marks included, for cleanCell.
      const end = text.indexOf('"', i + 1);
      if (end < 0) {
        cell += ch;
        continue;
      }
      cell = `="${text.slice(i + 1, end)}"`;
      i = end;
    } else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A sheet cell as text: dates and times written out as a bank's CSV would write them. */
function sheetCellText(c: XLSX.CellObject | undefined): string {
  if (!c || c.v === undefined || c.v === null || c.t === 'e' || c.t === 'z') return '';
  if (c.t === 'n' && typeof c.v === 'number' && c.z && XLSX.SSF.is_date(c.z)) {
    if (c.v < 1) {
      const secs = Math.round(c.v * 86400);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${p(Math.floor(secs / 3600))}:${p(Math.floor(secs / 60) % 60)}:${p(secs % 60)}`;
    }
    const at = serialToInstant(c.v);
    if (at !== null) return Number.isInteger(c.v) ? formatTaipei(at, { dateOnly: true }) : formatTaipei(at, { seconds: true });
  }
  if (c.t === 'n') return String(c.v);
  return String(c.v);
}

function sheetRows(bytes: Uint8Array, file: string): string[][] {
  let wb: XLSX.WorkBook;
  try {
    wb = readWorkbook(bytes, { maxRows: MAX_IMPORT_ROWS });
  } catch (err) {
    if (err instanceof ValidationError) throw fail(file, err.errors[0]?.message ?? MSG.importParseFailed);
    throw err;
  }
  const name = wb.SheetNames[0];
  const sheet = name ? wb.Sheets[name] : undefined;
  if (!sheet || !sheet['!ref']) throw fail(file, MSG.importNoSheet);
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const dense = (sheet as unknown as { '!data'?: XLSX.CellObject[][] })['!data'];
  const rows: string[][] = [];
  // Rows as a spreadsheet shows them: index 0 is row 1, whatever the sheet's first used row.
  for (let r = 0; r <= range.e.r; r++) {
    const out: string[] = [];
    for (let c = 0; c <= range.e.c; c++) {
      const cell = dense ? dense[r]?.[c] : (sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined);
      out.push(sheetCellText(cell));
    }
    rows.push(out);
  }
  return rows;
}

// ---- rows to lines -----------------------------------------------------------------------

/**
 * Reads a statement. Throws a ValidationError (field `file`) whose message names the file and,
 * for a bad cell, the row, as a spreadsheet program numbers it; nothing is returned half-read.
 */
export function readStatement(data: Uint8Array | ArrayBuffer, file: string, opts: { maxBytes?: number } = {}): ReadStatement {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const maxBytes = opts.maxBytes ?? MAX_IMPORT_BYTES;
  if (bytes.length > maxBytes) throw fail(file, MSG.importFileTooLarge(Math.round((maxBytes / 1024 / 1024) * 10) / 10));
  if (bytes.length === 0) throw fail(file, MSG.statementEmpty);
  let rows: string[][];
  let encoding: StatementEncoding;
  if (isZip(bytes) || isOle(bytes)) {
    encoding = isZip(bytes) ? 'xlsx' : 'xls';
    rows = sheetRows(bytes, file);
  } else {
    if (!/\.(csv|txt)$/i.test(file) && bytes.subarray(0, 512).includes(0)) throw fail(file, MSG.statementNotSupported);
    const decoded = decodeText(bytes);
    encoding = decoded.encoding;
    rows = parseCsv(decoded.text);
  }
  if (rows.length > MAX_IMPORT_ROWS + HEADER_SEARCH_ROWS + 1000) throw fail(file, MSG.importTooManyRows(MAX_IMPORT_ROWS));

  let header: HeaderMap | null = null;
  for (let r = 0; r < Math.min(HEADER_SEARCH_ROWS, rows.length) && !header; r++) header = mapHeader(rows[r], r + 1);
  if (!header) throw fail(file, MSG.statementNoHeader(HEADER_SEARCH_ROWS));

  const { cols, notes } = header;
  const at = (row: string[], i: number | undefined) => (i === undefined ? '' : cleanCell(row[i] ?? ''));
  const lines: StatementLine[] = [];
  for (let r = header.row; r < rows.length; r++) {
    const cells = rows[r];
    const rowNo = r + 1;
    if (cells.every((c) => cleanCell(c) === '')) continue;
    const dateText = at(cells, cols.date);
    const timeText = at(cells, cols.time);
    // Footer rows (合計, 總計, 資料截至…) carry no date digits in the date column.
    if (!/\d/.test(dateText) && !/\d/.test(timeText)) continue;

    // The time column may hold the whole date-time (台北富邦 交易時間 `YYYY/MM/DD HH:MM:SS`).
    let parsed = timeText && /\d[/\-.]\d|^\d{7,8}\s/.test(timeText) ? parseStatementDate(timeText) : null;
    if (!parsed) {
      if (!dateText) throw fail(file, MSG.statementBadDate(''), rowNo);
      const d = parseStatementDate(dateText);
      if (!d) throw fail(file, MSG.statementBadDate(dateText), rowNo);
      let time = d.time;
      if (timeText && !time) {
        time = parseStatementTime(timeText);
        if (!time) throw fail(file, MSG.statementBadTime(timeText), rowNo);
      }
      parsed = { date: d.date, time };
    }
    const instant = taipeiPartsToInstant({ ...parsed.date, ...(parsed.time ?? { hour: 0, minute: 0, second: 0 }) });
    if (instant === null || instant < MIN_INSTANT || instant >= MAX_INSTANT) throw fail(file, MSG.statementBadDate(dateText || timeText), rowNo);

    const money = (role: 'credit' | 'debit' | 'amount' | 'balance') => {
      const text = at(cells, cols[role]);
      const v = parseStatementAmount(text);
      if (Number.isNaN(v)) throw fail(file, MSG.statementBadAmount(header!.texts[role] ?? '', text), rowNo);
      return v;
    };
    let amount: number | null;
    if (cols.credit !== undefined || cols.debit !== undefined) {
      const credit = money('credit');
      const debit = money('debit');
      const c = credit ? Math.abs(credit) : 0;
      const d = debit ? Math.abs(debit) : 0;
      if (c && d) throw fail(file, MSG.statementBothSides, rowNo);
      amount = c ? c : d ? -d : null;
      if (amount === null && cols.amount !== undefined) amount = money('amount') || null;
    } else amount = money('amount') || null;
    // A row with a date but no money (a balance brought forward) is not a transaction.
    if (amount === null) continue;
    const counterparty = at(cells, cols.counterparty);
    lines.push({
      row: rowNo,
      at: instant,
      hasTime: parsed.time !== null,
      amount,
      balance: cols.balance === undefined ? null : money('balance'),
      summary: at(cells, cols.summary),
      note: notes.map((i) => cleanCell(cells[i] ?? '')).filter(Boolean).join(' '),
      counterparty,
      digits: visibleDigits(counterparty),
      payer: cleanCell(counterparty).replace(/[\s-]/g, ''),
    });
  }
  if (lines.length === 0) throw fail(file, MSG.statementNoLines);

  const breakRows = balanceBreaks(lines);
  let min = Infinity, max = -Infinity;
  for (const l of lines) {
    if (l.at < min) min = l.at;
    if (l.at > max) max = l.at;
  }
  return {
    file,
    encoding,
    columns: header.texts,
    headerRow: header.row,
    lines,
    credits: lines.filter((l) => l.amount > 0).length,
    from: taipeiDate(min),
    to: taipeiDate(max),
    balance_breaks: breakRows.length,
    breakRows,
  };
}

/**
 * Rows whose balance does not follow from the line before it. Statements list oldest first or
 * newest first: the order is taken from the dates, and the check runs in that direction.
 */
export function balanceBreaks(lines: StatementLine[]): number[] {
  const withBalance = lines.filter((l) => l.balance !== null);
  if (withBalance.length < 2) return [];
  const newestFirst = withBalance[0].at > withBalance[withBalance.length - 1].at;
  const out: number[] = [];
  for (let i = 1; i < withBalance.length; i++) {
    const prev = withBalance[i - 1], cur = withBalance[i];
    const ok = newestFirst ? cur.balance! + prev.amount === prev.balance : prev.balance! + cur.amount === cur.balance;
    if (!ok) out.push(cur.row);
  }
  return out;
}
