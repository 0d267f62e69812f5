/** The day book for the accountant: a store's entries, cash out and closes over a range, as .xlsx or CSV. */
import * as XLSX from 'xlsx';
import { csvCell, csvDigitsField } from '../spreadsheets/csvWrite.js';
import { CLOSE_STATUS_LABELS } from '../labels.js';
import { actorNameText } from '../audit/text.js';
import { compactTimestamp, formatTaipei } from '../time.js';
import { CONTENT_TYPES, judgeExportPieces, requireExportPermission, type ExportFile } from '../payments/export.js';
import { filteredPaymentsQuery } from '../payments/list.js';
import { METHOD_ORDER } from './rules.js';
import { dayBookRange, type DayBookRange } from './service.js';
import { readContext, type ServiceContext } from '../context.js';

const DAYBOOK_SHEET = '日記帳';

/** An entry, or a day's close (or its absence). */
interface BookRow {
  date: string;
  time: string;
  kind: string;
  method: string;
  employee: string;
  last_five: string;
  category: string;
  amount: number | null;
  cash: number | null;
  running: number | null;
  status: string;
  note: string;
}

/** `digits`: digits that must stay text (a last five such as 01234). */
const COLUMNS: Array<{ key: keyof BookRow; header: string; width: number; number?: true; digits?: true }> = [
  { key: 'date', header: '營業日期', width: 12 },
  { key: 'time', header: '時間', width: 18 },
  { key: 'kind', header: '類別', width: 8 },
  { key: 'method', header: '付款方式／支出類型', width: 14 },
  { key: 'employee', header: '員工購物', width: 8 },
  { key: 'last_five', header: '帳號後五碼', width: 10, digits: true },
  { key: 'category', header: '項目', width: 12 },
  { key: 'amount', header: '金額', width: 12, number: true },
  { key: 'cash', header: '現金增減', width: 12, number: true },
  { key: 'running', header: '現金結餘', width: 12, number: true },
  { key: 'status', header: '狀態', width: 12 },
  { key: 'note', header: '備註', width: 40 },
];

/** Each day's opening, entries in time order, then its close. */
function dayBookRows(book: DayBookRange): BookRow[] {
  const rows: BookRow[] = [];
  for (const day of book.days) {
    const f = day.figures;
    rows.push({
      date: day.date,
      time: '',
      kind: '開帳',
      method: '現金',
      employee: '',
      last_five: '',
      category:
        day.opening_from === 'stated' ? '首次日結填寫' : day.opening_from ? `沿用 ${day.opening_from} 點收` : '',
      amount: f.opening,
      cash: null,
      running: f.opening,
      status: '',
      note: '',
    });
    for (const l of day.lines) {
      rows.push({
        date: day.date,
        time: formatTaipei(Date.parse(l.at), { seconds: true }),
        kind: l.type === 'payment' ? '收入' : '支出',
        method: l.method_detail ? `${l.method}（${l.method_detail}）` : l.method,
        employee: l.employee ? '是' : '',
        last_five: l.last_five ?? '',
        category: l.category ?? '',
        amount: l.amount,
        cash: l.cash,
        running: l.running,
        status: l.status ?? (l.after_close ? '結帳後新增' : ''),
        note: l.note,
      });
    }
    const c = day.close;
    const byMethod = METHOD_ORDER.map((m) => `${m} ${f.by_method[m] ?? 0}`).join('，');
    rows.push({
      date: day.date,
      time: c ? formatTaipei(Date.parse(c.closed_at), { seconds: true }) : '',
      kind: '日結',
      method: '',
      employee: '',
      last_five: '',
      category: c ? `點收 ${actorNameText(c.closed_by)}` : '',
      amount: c ? c.counted : null,
      cash: c ? c.difference : null,
      running: c ? c.counted : f.expected,
      status: CLOSE_STATUS_LABELS[day.status],
      note: c
        ? `開帳 ${c.opening}，現金收入 ${c.cash_in}，現金支出 ${c.cash_out}，應有 ${c.expected}，點收 ${c.counted}，短溢 ${c.difference}；${byMethod}${c.late_changes ? `；結帳後異動 ${c.late_changes} 筆` : ''}${c.note ? `；${c.note}` : ''}`
        : `應有 ${f.expected ?? '—'}；${byMethod}`,
    });
  }
  return rows;
}

function dayBookCsv(book: DayBookRange): string {
  const lines = [COLUMNS.map((c) => csvCell(c.header)).join(',')];
  // ="01234", which a spreadsheet shows as 01234 and not as the number 1234
  const cell = (c: (typeof COLUMNS)[number], v: BookRow[keyof BookRow]) =>
    c.digits && typeof v === 'string' && v ? csvDigitsField(v) : csvCell(v);
  for (const r of dayBookRows(book)) lines.push(COLUMNS.map((c) => cell(c, r[c.key])).join(','));
  // a BOM, so Excel reads the Chinese as UTF-8
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function dayBookWorkbook(book: DayBookRange): Uint8Array {
  const rows: XLSX.CellObject[][] = [COLUMNS.map((c) => ({ t: 's', v: c.header }))];
  for (const r of dayBookRows(book)) {
    rows.push(
      COLUMNS.map((c): XLSX.CellObject => {
        const v = r[c.key];
        if (v === null || v === '') return { t: 'z' };
        return c.number ? { t: 'n', v: v as number, z: '#,##0' } : { t: 's', v: String(v) };
      }),
    );
  }
  const ws: XLSX.WorkSheet = { '!data': rows } as XLSX.WorkSheet;
  ws['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: rows.length - 1, c: COLUMNS.length - 1 } });
  ws['!cols'] = COLUMNS.map((c) => ({ wch: c.width }));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, DAYBOOK_SHEET);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Uint8Array;
}

/** The day book file; it holds the store's payments, so every rule of a payments export applies, audit included. */
export async function exportDayBook(
  ctx: ServiceContext,
  params: { store_id?: unknown; from?: unknown; to?: unknown; format?: unknown },
  opts: { auditOnFinish?: boolean } = {},
): Promise<ExportFile> {
  const book = await dayBookRange(ctx, params);
  const format = params.format === 'csv' ? 'csv' : 'xlsx';
  const count = book.days.reduce((n, d) => n + d.lines.length, 0);
  const read = readContext(ctx);
  const filter = { store_id: [book.store.id], paid_at_gte: book.from, paid_at_lte: book.to };
  const { applied } = filteredPaymentsQuery(read, filter);
  await requireExportPermission(read, applied);
  const now = Date.now();
  // the entry now, or (auditOnFinish) once the caller has the file in place; the pieces rule either way
  const record = () => judgeExportPieces(read, filter, applied, now, { ctx, after: { format, count, daybook: true } });
  if (opts.auditOnFinish) await judgeExportPieces(read, filter, applied, now);
  else await record();
  const finished = opts.auditOnFinish ? record : async () => {};
  const fileName = `${DAYBOOK_SHEET}_${book.store.code}_${book.from.replace(/-/g, '')}-${book.to.replace(/-/g, '')}_${compactTimestamp(Date.now())}.${format}`;
  return {
    fileName,
    contentType: CONTENT_TYPES[format],
    body: format === 'csv' ? dayBookCsv(book) : dayBookWorkbook(book),
    count,
    finished,
  };
}
