/** Export files and the import sample, for the CLI and the API alike. */
import { NotFoundError, ValidationError } from '../../errors.js';
import { MSG } from '../../messages.js';
import { can, storeScope } from '../../permissions.js';
import { toPayment, type PaymentRow } from '../../db/rows.js';
import { SAMPLE_FILE_NAME } from '../../excel/columns.js';
import { buildSampleWorkbook, exportFileName, streamExportCsv, type ExportPayment } from '../../excel/write.js';
import { streamExportWorkbook } from '../../excel/xlsxStream.js';
import { storeLabel } from '../../labels.js';
import { readContext, type AppContext, type ServiceContext } from '../context.js';
import { redeemTicket, signTicket, TICKET_TTL_SECONDS } from '../auth.js';
import { requirePermission } from '../guard.js';
import { storeDirectory } from '../stores.js';
import { filteredPaymentsQuery, type AppliedPaymentFilter } from './list.js';
import { STATUSES, type PaymentStatus } from '../../statuses.js';

export type ExportFormat = 'xlsx' | 'csv' | 'json';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Uint8Array | string;
  count: number;
}

/**
 * "Export all" needs manage_payments, whatever the filter looks like (issue 10, item 21). A
 * filter is "all" when by its form it leaves out nothing of the caller's stores: every store of
 * the scope (or none named), every status (or none), no id, digits or search, and dates that
 * are open or reach past the caller's first and last payment.
 */
export async function requireExportPermission(ctx: ServiceContext, applied: AppliedPaymentFilter): Promise<void> {
  if (applied.empty || can(ctx.actor, 'manage_payments')) return requirePermission(ctx.actor, applied.empty ? 'manage_payments' : 'view_payments');
  requirePermission(ctx.actor, 'view_payments');
  const scope = storeScope(ctx.actor);
  const allStores = !applied.storeIds || (!scope.all && scope.ids.every((id) => applied.storeIds!.includes(id)));
  const allStatuses = !applied.statuses || STATUSES.every((st) => applied.statuses!.includes(st));
  const narrowed = Boolean(applied.selected !== undefined || applied.lastFive?.length || applied.search);
  if (!allStores || !allStatuses || narrowed) return;
  if (applied.from || applied.to) {
    const span = (await filteredPaymentsQuery(ctx, {}).query.clone().clearSelect().clearOrder().min({ lo: 'paid_at' }).max({ hi: 'paid_at' }).first()) as
      | { lo: number | string | null; hi: number | string | null }
      | undefined;
    if (span?.lo === null || span?.lo === undefined) return;
    const inside = async (at: number) => {
      const q = filteredPaymentsQuery(ctx, { paid_at_gte: applied.from, paid_at_lte: applied.to }).query.clone().clearSelect().clearOrder();
      return Boolean(await q.where('paid_at', at).first('uuid'));
    };
    // Both the first and the last payment fall inside the dates: nothing is left out.
    const bothIn = (await inside(Number(span.lo))) && (await inside(Number(span.hi)));
    if (!bothIn) return;
  }
  requirePermission(ctx.actor, 'manage_payments');
}

/** An export as a stream: the bytes come as they are read from the database, never held whole. */
export interface ExportStream {
  fileName: string;
  contentType: string;
  body: AsyncIterable<Uint8Array | string>;
  /** the payments the filter selected when the export began (the header of an HTTP download) */
  count: number;
  /** the payments written, known once `body` has been read to its end */
  written(): number;
}

/** rows per page read from the database: enough to keep the database busy, small in memory */
export const EXPORT_BATCH = 10_000;

/**
 * The sheet's columns packed into one text per row, split in `unpackSheetRow`. The SQLite driver
 * builds each row's object property by property, which cost more than all the formatting: one text
 * column per row reads in about a third of the time. Every field but the note is digits, a uuid or
 * a status, none holding a comma, so the note goes last and keeps whatever it holds.
 */
const PACKED_SHEET_ROW = "paid_at || ',' || uuid || ',' || last_five || ',' || amount || ',' || store_id || ',' || status || ',' || note as r";
type SheetRow = ExportPayment & { paid_at: number; uuid: string };

function unpackSheetRow({ r }: { r: string }): SheetRow {
  let at = 0;
  const field = () => {
    const end = r.indexOf(',', at);
    const text = r.slice(at, end);
    at = end + 1;
    return text;
  };
  const paid_at = Number(field());
  const uuid = field();
  const last_five = field();
  const amount = Number(field());
  const store_id = Number(field());
  const status = field() as PaymentStatus;
  return { paid_at, uuid, last_five, amount, store_id, status, note: r.slice(at) };
}

/**
 * The payments a filter selects, newest first, in keyset pages of `EXPORT_BATCH` rows: each page
 * starts after the last (paid_at, uuid) of the one before, so every page is an index range read,
 * on SQLite and PostgreSQL alike, and memory holds two pages at most. `sheet` reads only the
 * sheet's columns (packed); otherwise every column.
 */
function paymentPages(ctx: ServiceContext, filter: Record<string, unknown>, sheet: true): AsyncGenerator<SheetRow[]>;
function paymentPages(ctx: ServiceContext, filter: Record<string, unknown>, sheet: false): AsyncGenerator<PaymentRow[]>;
async function* paymentPages(ctx: ServiceContext, filter: Record<string, unknown>, sheet: boolean): AsyncGenerator<Array<SheetRow | PaymentRow>> {
  const page = async (after: { paid_at: number; uuid: string } | null) => {
    const { query } = filteredPaymentsQuery(ctx, filter);
    if (sheet) query.clearSelect().select(ctx.db.raw(PACKED_SHEET_ROW));
    if (after) query.whereRaw('(paid_at < ? or (paid_at = ? and uuid < ?))', [after.paid_at, after.paid_at, after.uuid]);
    const rows = (await query.orderBy('paid_at', 'desc').orderBy('uuid', 'desc').limit(EXPORT_BATCH)) as Array<{ r: string } | PaymentRow>;
    return sheet ? (rows as Array<{ r: string }>).map(unpackSheetRow) : (rows as PaymentRow[]);
  };
  // The next page is asked for before this one is written, so the database reads while the file is
  // formatted: two pages in memory at most.
  let next: Promise<Array<SheetRow | PaymentRow>> | null = page(null);
  try {
    while (next) {
      const rows = await next;
      next = null;
      if (rows.length === 0) return;
      if (rows.length === EXPORT_BATCH) {
        const last = rows[rows.length - 1];
        next = page({ paid_at: Number(last.paid_at), uuid: last.uuid });
      }
      yield rows;
    }
  } finally {
    // Stopped early (a download cancelled): the page already asked for is awaited, not left dangling.
    await next?.catch(() => undefined);
  }
}

async function* counted<T>(pages: AsyncIterable<T[]>, seen: (n: number) => void): AsyncGenerator<T[]> {
  for await (const page of pages) {
    seen(page.length);
    yield page;
  }
}

async function* mapPages<T>(pages: AsyncIterable<PaymentRow[]>, f: (r: PaymentRow) => T, seen: (n: number) => void): AsyncGenerator<T[]> {
  for await (const page of pages) {
    seen(page.length);
    yield page.map(f);
  }
}

/** The JSON export as it was written whole (an indented array), one payment at a time. */
async function* jsonText(pages: AsyncIterable<Array<Record<string, unknown>>>): AsyncGenerator<string> {
  let first = true;
  for await (const page of pages) {
    let chunk = '';
    for (const p of page) {
      chunk += `${first ? '[\n' : ',\n'}  ${JSON.stringify(p, null, 2).replace(/\n/g, '\n  ')}`;
      first = false;
    }
    yield chunk;
  }
  yield first ? '[]\n' : '\n]\n';
}

/**
 * The payments a filter selects, as a file streamed from the database. With no filter it is
 * "export all" (manage_payments); with one, "export filtered" (view_payments). Either way only
 * the caller's stores are in it. Memory stays flat whatever the row count, in every format.
 */
export async function exportPaymentsStream(
  ctx: ServiceContext,
  opts: { filter?: Record<string, unknown>; format?: ExportFormat; now?: number } = {},
): Promise<ExportStream> {
  ctx = readContext(ctx);
  const format = opts.format ?? 'xlsx';
  const filter = opts.filter ?? {};
  const { fileName, count, stores } = await judgeExport(ctx, filter, format, opts.now);

  let written = 0;
  const seen = (n: number) => (written += n);
  let body: AsyncIterable<Uint8Array | string>;
  if (format === 'xlsx') body = streamExportWorkbook(counted(paymentPages(ctx, filter, true), seen), stores);
  else if (format === 'csv') body = streamExportCsv(counted(paymentPages(ctx, filter, true), seen), stores);
  else {
    const label = new Map(stores.map((s) => [s.id, storeLabel(s)]));
    body = jsonText(mapPages(paymentPages(ctx, filter, false), (r) => {
      const p = toPayment(r);
      return { ...p, store: label.get(p.store_id) ?? MSG.unknownStore };
    }, seen));
  }
  return { fileName, contentType: CONTENT_TYPES[format], body, count, written: () => written };
}

/** Everything an export decides before its first byte: the permission, that there is data, the file's name. */
async function judgeExport(ctx: ServiceContext, filter: Record<string, unknown>, format: ExportFormat, now = Date.now()) {
  const { query, applied } = filteredPaymentsQuery(ctx, filter);
  await requireExportPermission(ctx, applied);
  const counted = (await query.clearSelect().count({ n: '*' }).first()) as { n: number | string } | undefined;
  const count = Number(counted?.n ?? 0);
  if (count === 0) throw new NotFoundError(MSG.exportNoData);
  const stores = await storeDirectory(ctx);
  const storeNames = applied.storeIds?.map((id) => stores.find((s) => s.id === id)?.name ?? MSG.unknownStore);
  return { fileName: exportFileName(applied.empty ? null : { ...applied, storeNames }, now, format), count, stores };
}

const EXPORT_TICKET = 'payments-export';
const isFormat = (f: unknown): f is ExportFormat => f === 'xlsx' || f === 'csv' || f === 'json';

/**
 * A link for the back office to download an export with (issue 14, item 3): the browser follows
 * it and saves the file as it streams, never holding it whole. Everything is judged now (the
 * permission, 沒有資料可匯出, the filter's form), so the page can say so before any download, and
 * judged again when the link is followed: the ticket carries only who asked, the filter and the format.
 */
export async function exportTicket(
  ctx: ServiceContext,
  opts: { filter?: unknown; format?: unknown },
): Promise<{ ticket: string; fileName: string; count: number; expiresInSeconds: number }> {
  const filter = opts.filter ?? {};
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) throw ValidationError.single('filter', MSG.badListParam('filter'));
  const format = opts.format ?? 'xlsx';
  if (!isFormat(format)) throw ValidationError.single('format', MSG.badListParam('format'));
  const { fileName, count } = await judgeExport(readContext(ctx), filter as Record<string, unknown>, format);
  const ticket = await signTicket(ctx, EXPORT_TICKET, { filter, format });
  return { ticket, fileName, count, expiresInSeconds: TICKET_TTL_SECONDS };
}

/** The export a ticket asked for, as the ticket's user, judged again as any export is. */
export async function exportByTicket(app: AppContext, ticket: string, ip: string | null = null): Promise<ExportStream> {
  const { actor, claims } = await redeemTicket(app, ticket, EXPORT_TICKET);
  const format = isFormat(claims.format) ? claims.format : 'xlsx';
  return exportPaymentsStream({ ...app, actor, ip }, { filter: claims.filter as Record<string, unknown>, format });
}

/** The same export held whole, for callers that want bytes (small sets, tests). */
export async function exportPayments(
  ctx: ServiceContext,
  opts: { filter?: Record<string, unknown>; format?: ExportFormat; now?: number } = {},
): Promise<ExportFile> {
  const s = await exportPaymentsStream(ctx, opts);
  const chunks: Buffer[] = [];
  for await (const c of s.body) chunks.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c));
  const bytes = Buffer.concat(chunks);
  return { fileName: s.fileName, contentType: s.contentType, body: s.contentType === CONTENT_TYPES.xlsx ? new Uint8Array(bytes) : bytes.toString('utf8'), count: s.written() };
}

/** The import sample `匯款記錄_匯入範例.xlsx`, naming stores the caller may import into (manage_payments). */
export async function sampleFile(ctx: ServiceContext): Promise<ExportFile> {
  requirePermission(ctx.actor, 'manage_payments');
  const scope = storeScope(ctx.actor);
  const stores = (await storeDirectory(ctx)).filter((s) => scope.all || scope.ids.includes(s.id));
  return { fileName: SAMPLE_FILE_NAME, contentType: CONTENT_TYPES.xlsx, body: buildSampleWorkbook(stores), count: 4 };
}
