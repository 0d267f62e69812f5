/** Export files and the import sample, for the CLI and the API alike. */
import { NotFoundError } from '../../errors.js';
import { MSG } from '../../messages.js';
import { can, storeScope } from '../../permissions.js';
import { toPayment, type PaymentRow } from '../../db/rows.js';
import { SAMPLE_FILE_NAME } from '../../excel/columns.js';
import { buildExportCsv, buildExportWorkbook, buildSampleWorkbook, exportFileName } from '../../excel/write.js';
import { storeLabel } from '../../labels.js';
import type { ServiceContext } from '../context.js';
import { requirePermission } from '../guard.js';
import { storeDirectory } from '../stores.js';
import { filteredPaymentsQuery, type AppliedPaymentFilter } from './list.js';
import { STATUSES } from '../../statuses.js';

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

/**
 * The payments a filter selects, as a file. With no filter it is "export all" (manage_payments);
 * with one, "export filtered" (view_payments). Either way only the caller's stores are in it.
 */
export async function exportPayments(
  ctx: ServiceContext,
  opts: { filter?: Record<string, unknown>; format?: ExportFormat; now?: number } = {},
): Promise<ExportFile> {
  const format = opts.format ?? 'xlsx';
  const { query, applied } = filteredPaymentsQuery(ctx, opts.filter ?? {});
  await requireExportPermission(ctx, applied);
  const rows = (await (format === 'json' ? query : query.clearSelect().select('last_five', 'paid_at', 'amount', 'note', 'store_id', 'status'))
    .orderBy('paid_at', 'desc')
    .orderBy('uuid', 'desc')) as PaymentRow[];
  if (rows.length === 0) throw new NotFoundError(MSG.exportNoData);
  const stores = await storeDirectory(ctx);
  // The sheet needs only these, with times as numbers: no round trip through ISO text.
  const cells = rows.map((r) => ({ last_five: r.last_five, paid_at: Number(r.paid_at), amount: Number(r.amount), note: r.note, store_id: Number(r.store_id), status: r.status }));
  const storeNames = applied.storeIds?.map((id) => stores.find((s) => s.id === id)?.name ?? MSG.unknownStore);
  const fileName = exportFileName(
    applied.empty ? null : { ...applied, storeNames },
    opts.now ?? Date.now(),
    format,
  );
  let body: Uint8Array | string;
  if (format === 'xlsx') body = buildExportWorkbook(cells, stores);
  else if (format === 'csv') body = buildExportCsv(cells, stores);
  else {
    const label = new Map(stores.map((s) => [s.id, storeLabel(s)]));
    body = `${JSON.stringify(rows.map(toPayment).map((p) => ({ ...p, store: label.get(p.store_id) ?? MSG.unknownStore })), null, 2)}\n`;
  }
  return { fileName, contentType: CONTENT_TYPES[format], body, count: rows.length };
}

/** The import sample `匯款記錄_匯入範例.xlsx`, naming stores the caller may import into (manage_payments). */
export async function sampleFile(ctx: ServiceContext): Promise<ExportFile> {
  requirePermission(ctx.actor, 'manage_payments');
  const scope = storeScope(ctx.actor);
  const stores = (await storeDirectory(ctx)).filter((s) => scope.all || scope.ids.includes(s.id));
  return { fileName: SAMPLE_FILE_NAME, contentType: CONTENT_TYPES.xlsx, body: buildSampleWorkbook(stores), count: 4 };
}
