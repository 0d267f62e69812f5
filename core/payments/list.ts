/** Reading payments: the filter the list, the export and the statistics share, the list, one payment. */
import type { Knex } from 'knex';
import { ForbiddenError, NotFoundError, ValidationError, problem } from '../errors.js';
import { assertFilterFields, filterIds, filterStrings, likeEscape, runList, type ListQuery } from '../listQuery.js';
import { inScope, scopedStoreIds } from '../permissions.js';
import { isStatus, type PaymentStatus } from '../paymentStatuses.js';
import { isPaymentMethod, type PaymentMethod } from '../paymentMethods.js';
import { isSource, type PaymentSource } from '../paymentSources.js';
import { instantRange, isWholeDays } from '../dateRange.js';
import { taipeiDayNumber } from '../time.js';
import { toPayment, type PaymentRow } from './rows.js';
import { isPostgres } from '../db/connect.js';
import type { ListedPayment, ListResult, Payment } from '../types.js';
import { toId } from '../validation.js';
import { readContext, type ServiceContext, type Db } from '../context.js';
import { requirePermission } from '../guard.js';
import { findStore } from '../stores/service.js';

const SORTABLE = {
  id: 'uuid',
  uuid: 'uuid',
  paid_at: 'paid_at',
  amount: 'amount',
  status: 'status',
  store_id: 'store_id',
  last_five: 'last_five',
  method: 'method',
  created_at: 'created_at',
  updated_at: 'updated_at',
};
// received_gte/_lte: when a payment arrived (created_at), to find a flood through a public link
const FILTERS = [
  'id',
  'status',
  'store_id',
  'paid_at_gte',
  'paid_at_lte',
  'q',
  'last_five',
  'method',
  'employee',
  'source',
  'received_gte',
  'received_lte',
] as const;

/** What a payment filter selected, for export file names and the export-all rule. */
export interface AppliedPaymentFilter {
  storeIds?: number[];
  statuses?: PaymentStatus[];
  sources?: PaymentSource[];
  from?: string;
  to?: string;
  search?: string;
  lastFive?: string[];
  methods?: PaymentMethod[];
  /** true: 員工購物 only; false: none of them */
  employee?: boolean;
  selected?: number;
  /** true when the caller asked for nothing narrower than everything they may see */
  empty: boolean;
}

/** The payments a filter selects within the caller's stores, as a query not yet run. */
export function filteredPaymentsQuery(
  ctx: ServiceContext,
  f: Record<string, unknown>,
): { query: Knex.QueryBuilder; applied: AppliedPaymentFilter; dailyCount?: () => Promise<number> } {
  assertFilterFields(f, FILTERS);
  const filter = readPaymentFilter(ctx, f);
  const query = ctx.db<PaymentRow>('payments').select('*');
  narrowPayments(query, filter);
  return { query, applied: appliedOf(filter), dailyCount: dailyCounter(ctx.db, filter) };
}

interface PaymentFilter {
  requestedStores?: number[];
  /** the stores asked for within the caller's scope */
  stores: number[] | 'all';
  statuses?: PaymentStatus[];
  sources?: PaymentSource[];
  ids?: string[];
  lastFive?: string[];
  methods?: PaymentMethod[];
  employee?: boolean;
  /** the paid_at bounds as sent */
  from: unknown;
  to: unknown;
  paid: ReturnType<typeof instantRange>;
  received: ReturnType<typeof instantRange>;
  q?: string;
}

function readPaymentFilter(ctx: ServiceContext, f: Record<string, unknown>): PaymentFilter {
  const requestedStores = filterIds(f, 'store_id');
  return {
    requestedStores,
    stores: scopedStoreIds(ctx.actor, requestedStores),
    statuses: filterStrings(f, 'status', isStatus) as PaymentStatus[] | undefined,
    sources: filterStrings(f, 'source', isSource) as PaymentSource[] | undefined,
    ids: filterStrings(f, 'id', () => true),
    lastFive: filterStrings(f, 'last_five', (s) => /^\d{1,5}$/.test(s)),
    methods: filterStrings(f, 'method', isPaymentMethod) as PaymentMethod[] | undefined,
    employee: filterFlag(f, 'employee'),
    from: f.paid_at_gte,
    to: f.paid_at_lte,
    paid: instantRange(f.paid_at_gte, f.paid_at_lte),
    received: instantRange(f.received_gte, f.received_lte),
    q: searchText(f.q),
  };
}

function searchText(q: unknown): string | undefined {
  if (typeof q === 'string' && q.trim()) return q.trim();
  if (q !== undefined && q !== null && typeof q !== 'string')
    throw ValidationError.single('filter', 'bad_list_param', { param: 'filter.q' });
  return undefined;
}

const byReceipt = (p: PaymentFilter) => p.received.gte !== undefined || p.received.lt !== undefined;

function narrowPayments(query: Knex.QueryBuilder, p: PaymentFilter): void {
  if (p.stores !== 'all') query.whereIn('store_id', p.stores);
  if (p.statuses) query.whereIn('status', p.statuses);
  if (p.sources) query.whereIn('source', p.sources);
  if (p.ids) query.whereIn('uuid', p.ids);
  if (p.lastFive) query.whereIn('last_five', p.lastFive);
  if (p.methods) query.whereIn('method', p.methods);
  if (p.employee !== undefined) query.where('employee', p.employee);
  if (p.paid.gte !== undefined) query.where('paid_at', '>=', p.paid.gte);
  if (p.paid.lt !== undefined) query.where('paid_at', '<', p.paid.lt);
  if (p.received.gte !== undefined) query.where('created_at', '>=', p.received.gte);
  if (p.received.lt !== undefined) query.where('created_at', '<', p.received.lt);
  if (p.q !== undefined) searchPayments(query, p.q);
}

/** When the filter allows, a sum over payment_daily (kept by triggers): fast at a million payments and during an import. */
function dailyCounter(db: Db, p: PaymentFilter): (() => Promise<number>) | undefined {
  const byDays =
    !p.ids &&
    !p.lastFive &&
    p.employee === undefined &&
    !p.sources &&
    !byReceipt(p) &&
    p.q === undefined &&
    isWholeDays(p.from) &&
    isWholeDays(p.to);
  if (!byDays) return undefined;
  return async () => {
    const sum = db('payment_daily').sum({ n: 'n' });
    if (p.stores !== 'all') sum.whereIn('store_id', p.stores);
    if (p.statuses) sum.whereIn('status', p.statuses);
    if (p.methods) sum.whereIn('method', p.methods);
    if (p.paid.gte !== undefined) sum.where('day', '>=', taipeiDayNumber(p.paid.gte));
    if (p.paid.lt !== undefined) sum.where('day', '<', taipeiDayNumber(p.paid.lt));
    const row = (await sum.first()) as { n: number | string | null } | undefined;
    return Number(row?.n ?? 0);
  };
}

function appliedOf(p: PaymentFilter): AppliedPaymentFilter {
  const { from, to, q } = p;
  return {
    storeIds: p.requestedStores,
    statuses: p.statuses,
    from: typeof from === 'string' && from ? from : undefined,
    to: typeof to === 'string' && to ? to : undefined,
    search: q,
    lastFive: p.lastFive,
    methods: p.methods,
    employee: p.employee,
    selected: p.ids?.length,
    sources: p.sources,
    empty:
      !p.requestedStores &&
      !p.statuses &&
      !p.sources &&
      !p.ids &&
      !p.lastFive &&
      !p.methods &&
      p.employee === undefined &&
      !byReceipt(p) &&
      !from &&
      !to &&
      !q,
  };
}

function filterFlag(f: Record<string, unknown>, key: string): boolean | undefined {
  const v = f[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'boolean') throw ValidationError.single('filter', 'bad_list_param', { param: `filter.${key}` });
  return v;
}

/**
 * The search box: a last five starting with the text, an amount equal to it (`NT$1,200`), or a note
 * containing it. The last-five test is a range, not a LIKE, so an index serves it whatever the collation.
 */
function searchPayments(query: Knex.QueryBuilder, q: string): void {
  const amountText = q.replace(/^NT\$|^\$/i, '').replace(/[,，]/g, '');
  const amount = /^[1-9]\d{0,14}$/.test(amountText) ? Number(amountText) : null;
  query.where((w) => {
    if (/^\d{1,5}$/.test(q)) w.orWhereBetween('last_five', [q.padEnd(5, '0'), q.padEnd(5, '9')]);
    if (amount !== null && Number.isSafeInteger(amount)) w.orWhere('amount', amount);
    w.orWhereRaw("lower(note) like ? escape '\\'", [`%${likeEscape(q.toLowerCase())}%`]);
  });
}

export const PAYMENT_LIST_SPEC = {
  sortable: SORTABLE,
  defaultSort: ['paid_at', 'DESC'] as [string, 'DESC'],
  tiebreak: 'uuid',
};

/** The payment list of the caller's stores, filtered, sorted and paged in SQL. */
export async function listPayments(
  ctx: ServiceContext,
  query: ListQuery = { filter: {} },
): Promise<ListResult<ListedPayment>> {
  requirePermission(ctx.actor, 'view_payments');
  const reading = readContext(ctx);
  const { query: base, dailyCount } = filteredPaymentsQuery(reading, query.filter);
  // the linked bank line, so a reconciled payment's row can offer 取消對帳
  base.select(
    reading.db.raw('(select line_id from bank_links where bank_links.payment_uuid = payments.uuid) as bank_line_id'),
  );
  base.select(
    reading.db.raw('(select username from users where users.id = payments.created_by) as created_by_username'),
  );
  return runList(
    base,
    query,
    PAYMENT_LIST_SPEC,
    (r: PaymentRow & { bank_line_id: number | null; created_by_username: string | null }) => ({
      ...toPayment(r),
      bank_line_id: r.bank_line_id === null ? null : Number(r.bank_line_id),
      created_by_username: r.created_by_username ?? null,
    }),
    dailyCount,
  );
}

/** One store's payments, refused outside the caller's scope. */
export async function listStorePayments(
  ctx: ServiceContext,
  rawStoreId: unknown,
  query: ListQuery = { filter: {} },
): Promise<ListResult<Payment>> {
  requirePermission(ctx.actor, 'view_payments');
  const storeId = toId(rawStoreId);
  if (storeId === null || !(await findStore(ctx.db, storeId))) throw new NotFoundError(problem('store_not_found'));
  if (!inScope(ctx.actor, storeId)) throw new ForbiddenError(problem('payment_store_forbidden'));
  return listPayments(ctx, { ...query, filter: { ...query.filter, store_id: storeId } });
}

/** One payment by its uuid, refused outside the caller's stores; `lock` is FOR UPDATE on PostgreSQL. */
export async function loadForActor(
  db: Db,
  ctx: ServiceContext,
  id: unknown,
  opts: { lock?: boolean } = {},
): Promise<PaymentRow> {
  // only id-like text reaches the database: PostgreSQL errors (a 500) on a NUL byte in text
  const valid = typeof id === 'string' && /^[\w-]{1,64}$/.test(id);
  const query = () => {
    const q = db<PaymentRow>('payments').where({ uuid: id as string });
    return opts.lock && isPostgres(db) ? q.forUpdate().first() : q.first();
  };
  const row = valid ? await query() : undefined;
  if (!row) throw new NotFoundError(problem('payment_not_found'));
  if (!inScope(ctx.actor, Number(row.store_id))) throw new ForbiddenError(problem('payment_store_forbidden'));
  return row;
}

export async function getPayment(ctx: ServiceContext, id: unknown): Promise<Payment> {
  requirePermission(ctx.actor, 'view_payments');
  return toPayment(await loadForActor(readContext(ctx).db, ctx, id));
}
