/** Export files and the import sample, for the CLI and the API alike. */
import { ForbiddenError, NotFoundError, ValidationError, problem } from '../errors.js';
import { MSG } from '../messages.js';
import { can, storeScope } from '../permissions.js';
import { SAMPLE_FILE_NAME } from './sheetFile.js';
import { buildSampleWorkbook, exportFileName, storeNamer, streamExportCsv, type StoreRef } from './writeSheet.js';
import { fieldJson, PAYMENT_FIELDS, type PagedPayment } from './columns.js';
import { streamExportWorkbook } from './xlsxStream.js';
import { readContext, type AppContext, type ServiceContext } from '../context.js';
import { redeemTicket, signTicket, TICKET_TTL_SECONDS } from '../users/auth.js';
import { requirePermission } from '../guard.js';
import { storeDirectory } from '../stores/service.js';
import { filteredPaymentsQuery, type AppliedPaymentFilter } from './list.js';
import { STATUSES } from '../paymentStatuses.js';
import { PAYMENT_METHODS } from '../paymentMethods.js';
import type { AuditRow } from '../audit/service.js';
import { recordAudit } from '../audit/service.js';
import { paymentPages, type PaymentPage } from './exportPages.js';
import { lockForTransaction } from '../db/locks.js';

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
  /** with `auditOnFinish`, writes the audit entry: call it once the file is in place */
  finished?: () => Promise<void>;
}

/** "Export all" needs manage_payments however the filter is written: leaving out none of the caller's payments is all. */
export async function requireExportPermission(ctx: ServiceContext, applied: AppliedPaymentFilter): Promise<void> {
  if (applied.empty || can(ctx.actor, 'manage_payments'))
    return requirePermission(ctx.actor, applied.empty ? 'manage_payments' : 'view_payments');
  requirePermission(ctx.actor, 'view_payments');
  const scope = storeScope(ctx.actor);
  const allStores = !applied.storeIds || (!scope.all && scope.ids.every((id) => applied.storeIds!.includes(id)));
  const allStatuses = !applied.statuses || STATUSES.every((st) => applied.statuses!.includes(st));
  const allMethods = !applied.methods || PAYMENT_METHODS.every((m) => applied.methods!.includes(m));
  const narrowed = Boolean(
    applied.selected !== undefined ||
      applied.lastFive?.length ||
      applied.search ||
      !allMethods ||
      applied.employee !== undefined,
  );
  if (!allStores || !allStatuses || narrowed) return;
  if (applied.from || applied.to) {
    const span = (await filteredPaymentsQuery(ctx, {})
      .query.clone()
      .clearSelect()
      .clearOrder()
      .min({ lo: 'paid_at' })
      .max({ hi: 'paid_at' })
      .first()) as { lo: number | string | null; hi: number | string | null } | undefined;
    if (span?.lo === null || span?.lo === undefined) return;
    const inside = async (at: number) => {
      const q = filteredPaymentsQuery(ctx, { paid_at_gte: applied.from, paid_at_lte: applied.to })
        .query.clone()
        .clearSelect()
        .clearOrder();
      return Boolean(await q.where('paid_at', at).first('uuid'));
    };
    const bothIn = (await inside(Number(span.lo))) && (await inside(Number(span.hi)));
    if (!bothIn) return;
    throw new ForbiddenError(problem('export_is_all'));
  }
  requirePermission(ctx.actor, 'manage_payments');
}

/** How far back a user's exports count together (the pieces rule), and how many at most. */
const EXPORT_UNION_WINDOW_MS = 24 * 60 * 60 * 1000;
const EXPORT_UNION_MAX = 50;

/**
 * "Export all" cannot be had in pieces: with the user's exports of the last 24 hours (audit log) this one must
 * leave some payment unselected. Over 50 in that window are refused, or old pieces would fall out of the count.
 */
async function requireUnionNotAll(ctx: ServiceContext, filter: Record<string, unknown>, now: number): Promise<void> {
  const rows = (await ctx
    .db<AuditRow>('audit_log')
    .where({ action: 'export', actor_id: ctx.actor.id })
    .where('at', '>=', now - EXPORT_UNION_WINDOW_MS)
    .orderBy('id', 'desc')
    .limit(EXPORT_UNION_MAX + 1)
    .select('after')) as Array<Pick<AuditRow, 'after'>>;
  if (rows.length > EXPORT_UNION_MAX)
    throw new ForbiddenError(problem('export_too_often', { limit: EXPORT_UNION_MAX }));
  const left = filteredPaymentsQuery(ctx, {}).query.clearSelect().clearOrder();
  // no payment yet: nothing to give away whole (a new store's day book)
  if (!(await left.clone().first('uuid'))) return;
  const filters = [filter];
  for (const r of rows) {
    try {
      const f = (JSON.parse(r.after ?? 'null') as { filter?: unknown } | null)?.filter;
      if (f && typeof f === 'object' && !Array.isArray(f)) filters.push(f as Record<string, unknown>);
    } catch {
      /* an entry that is not JSON names no filter */
    }
  }
  for (const f of filters) {
    let picked;
    try {
      picked = filteredPaymentsQuery(ctx, f).query.clearSelect().clearOrder().select('uuid');
    } catch {
      continue; // a filter no longer valid (a store since deleted) selects nothing now
    }
    left.whereNotIn('uuid', picked);
  }
  if (await left.first('uuid')) return;
  // alone, or with earlier pieces: what it selects is every payment
  throw new ForbiddenError(problem(rows.length ? 'export_union_is_all' : 'export_is_all'));
}

/** The pieces rule and, with `record`, the audit entry: every export of payments, the day book's too, comes here. */
export async function judgeExportPieces(
  ctx: ServiceContext,
  filter: Record<string, unknown>,
  applied: AppliedPaymentFilter,
  now: number,
  record?: { ctx: ServiceContext; after: Record<string, unknown> },
): Promise<void> {
  const unionRuled = !can(ctx.actor, 'manage_payments');
  if (!record) {
    if (unionRuled) await requireUnionNotAll(ctx, filter, now);
    return;
  }
  const scope = storeScope(ctx.actor);
  const covered =
    applied.storeIds?.filter((id) => scope.all || scope.ids.includes(id)) ?? (scope.all ? null : scope.ids);
  const after = {
    filter,
    ...record.after,
    ...(covered ? { stores: covered } : {}),
    ...(covered?.length === 1 ? { store_id: covered[0] } : {}),
  };
  const write = (db: ServiceContext['db']) =>
    recordAudit(db, record.ctx, { action: 'export', entity: 'payment', after });
  if (!unionRuled) return write(record.ctx.db);
  // one user's exports take turns, so two halves sent at once on two instances are judged in turn
  await record.ctx.db.transaction(async (trx) => {
    await lockForTransaction(trx, `export|${ctx.actor.id}`);
    await requireUnionNotAll({ ...ctx, db: trx }, filter, now);
    await write(trx);
  });
}

/** An export as a stream: the bytes come as they are read from the database, never held whole. */
export interface ExportStream {
  fileName: string;
  contentType: string;
  body: AsyncIterable<Uint8Array | string>;
  /** the payments selected when the export began */
  count: number;
  /** known once `body` has been read to its end */
  written(): number;
  /** with `auditOnFinish`, audits once the file is in place, so a file broken halfway is not recorded */
  finished(): Promise<void>;
}

async function* counted<T extends { length: number }>(
  pages: AsyncIterable<T>,
  seen: (n: number) => void,
): AsyncGenerator<T> {
  for await (const page of pages) {
    seen(page.length);
    yield page;
  }
}

/** The JSON export, an indented array of payments with store names, written a page at a time. */
async function* jsonText(pages: AsyncIterable<PaymentPage>, stores: readonly StoreRef[]): AsyncGenerator<string> {
  const ctx = { storeName: storeNamer(stores) };
  const values = PAYMENT_FIELDS.map((f) => fieldJson(f, ctx));
  // compiled to one expression from the list: as fast as a payment written out by hand, faster than a loop
  const members = PAYMENT_FIELDS.map(
    (f, i) => `${JSON.stringify(`${i ? ',\n' : ''}    ${JSON.stringify(f.name)}: `)} + v[${i}](p)`,
  );
  const payment = new Function(
    'v',
    `return function payment(p) { return '  {\\n' + ${members.join(' + ')} + '\\n  }'; };`,
  )(values) as (p: PagedPayment) => string;
  let first = true;
  for await (const page of pages) {
    let chunk = '';
    for (const p of page) {
      chunk += (first ? '[\n' : ',\n') + payment(p);
      first = false;
    }
    yield chunk;
  }
  yield first ? '[]\n' : '\n]\n';
}

/** The payments a filter selects, streamed from the database in flat memory; only the caller's stores. */
export async function exportPaymentsStream(
  ctx: ServiceContext,
  opts: {
    filter?: Record<string, unknown>;
    format?: ExportFormat;
    now?: number;
    auditOnFinish?: boolean;
    /** a file of the header alone when nothing matches (a nightly export of a quiet day), not 沒有資料可匯出 */
    allowEmpty?: boolean;
  } = {},
): Promise<ExportStream> {
  const writer = ctx;
  ctx = readContext(ctx);
  const format = opts.format ?? 'xlsx';
  const filter = opts.filter ?? {};
  const now = opts.now ?? Date.now();
  const { fileName, count, stores, applied } = await judgeExport(ctx, filter, format, {
    now,
    record: opts.auditOnFinish ? undefined : writer,
    allowEmpty: opts.allowEmpty,
  });
  const read = ctx;
  // the pieces rule is judged again with the entry, in one transaction
  const finished = opts.auditOnFinish
    ? () => judgeExportPieces(read, filter, applied, now, { ctx: writer, after: { format, count: written } })
    : async () => {};

  let written = 0;
  const seen = (n: number) => (written += n);
  let body: AsyncIterable<Uint8Array | string>;
  const pages = counted(paymentPages(ctx, filter, format === 'json'), seen);
  if (format === 'xlsx') body = streamExportWorkbook(pages, stores);
  else if (format === 'csv') body = streamExportCsv(pages, stores);
  else body = jsonText(pages, stores);
  return { fileName, contentType: CONTENT_TYPES[format], body, count, written: () => written, finished };
}

/** Everything an export decides before its first byte; with `record` (not for a ticket) it is audited. */
async function judgeExport(
  ctx: ServiceContext,
  filter: Record<string, unknown>,
  format: ExportFormat,
  { now = Date.now(), record, allowEmpty }: { now?: number; record?: ServiceContext; allowEmpty?: boolean } = {},
) {
  const { query, applied } = filteredPaymentsQuery(ctx, filter);
  await requireExportPermission(ctx, applied);
  const counted = (await query.clearSelect().count({ n: '*' }).first()) as { n: number | string } | undefined;
  const count = Number(counted?.n ?? 0);
  if (count === 0 && !allowEmpty) throw new NotFoundError(problem('export_no_data'));
  await judgeExportPieces(ctx, filter, applied, now, record && { ctx: record, after: { format, count } });
  const stores = await storeDirectory(ctx);
  const storeNames = applied.storeIds?.map((id) => stores.find((s) => s.id === id)?.name ?? MSG.unknownStore);
  return {
    fileName: exportFileName(applied.empty ? null : { ...applied, storeNames }, now, format),
    count,
    stores,
    applied,
  };
}

const EXPORT_TICKET = 'payments-export';
const isFormat = (f: unknown): f is ExportFormat => f === 'xlsx' || f === 'csv' || f === 'json';

/** A download link the browser streams; judged now and again when followed (the ticket holds only who, filter, format). */
export async function exportTicket(
  ctx: ServiceContext,
  opts: { filter?: unknown; format?: unknown },
): Promise<{ ticket: string; fileName: string; count: number; expiresInSeconds: number }> {
  const filter = opts.filter ?? {};
  if (!filter || typeof filter !== 'object' || Array.isArray(filter))
    throw ValidationError.single('filter', 'bad_list_param', { param: 'filter' });
  const format = opts.format ?? 'xlsx';
  if (!isFormat(format)) throw ValidationError.single('format', 'bad_list_param', { param: 'format' });
  const { fileName, count } = await judgeExport(readContext(ctx), filter as Record<string, unknown>, format);
  const ticket = await signTicket(ctx, EXPORT_TICKET, { filter, format });
  return { ticket, fileName, count, expiresInSeconds: TICKET_TTL_SECONDS };
}

/** The export a ticket asked for, as the ticket's user, judged again. */
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
  return {
    fileName: s.fileName,
    contentType: s.contentType,
    body: s.contentType === CONTENT_TYPES.xlsx ? new Uint8Array(bytes) : bytes.toString('utf8'),
    count: s.written(),
  };
}

/** The import sample, naming the caller's stores and takings rows only if they may record them: it imports as it is. */
export async function sampleFile(ctx: ServiceContext): Promise<ExportFile> {
  requirePermission(ctx.actor, 'manage_payments');
  const scope = storeScope(ctx.actor);
  const stores = (await storeDirectory(ctx)).filter((s) => scope.all || scope.ids.includes(s.id));
  const takings = can(ctx.actor, 'record_takings');
  return {
    fileName: SAMPLE_FILE_NAME,
    contentType: CONTENT_TYPES.xlsx,
    body: buildSampleWorkbook(stores, Date.now(), { takings }),
    count: takings ? 7 : 4,
  };
}
