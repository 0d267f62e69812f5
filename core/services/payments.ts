import { randomUUID } from 'node:crypto';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors.js';
import { assertFilterFields, filterIds, filterStrings, likeEscape, runList, type ListQuery } from '../list.js';
import { MSG } from '../messages.js';
import { inScope, scopedStoreIds, submissionStoreId, submitStoreDenial } from '../permissions.js';
import { MAX_IMPORT_ROWS } from '../excel/columns.js';
import { DEFAULT_STATUS, isStatus, type PaymentStatus } from '../statuses.js';
import { dayRangeToInstants, parseInstant } from '../time.js';
import { toPayment, type PaymentRow } from '../db/rows.js';
import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';
import type { ListResult, Payment } from '../types.js';
import { parseNote, parseStatus, validatePayment } from '../validation/payment.js';
import { isPlainObject, toId } from '../validation/result.js';
import { duplicateKey } from '../duplicates.js';
import { auditRow, recordAudit, recordAuditMany, type AuditRowInput } from './audit.js';
import { Batcher, batcherFor, insertRows } from '../db/batch.js';
import type { ServiceContext } from './context.js';
import { deny, requirePermission, valid } from './guard.js';
import { findStore } from './stores.js';

export const MAX_BATCH_DELETE = 10_000;
/** rows per INSERT: 10 columns each stays far below SQLite's and PostgreSQL's parameter limits */
const INSERT_CHUNK = 500;

const SORTABLE = {
  id: 'uuid',
  uuid: 'uuid',
  paid_at: 'paid_at',
  amount: 'amount',
  status: 'status',
  store_id: 'store_id',
  last_five: 'last_five',
  created_at: 'created_at',
  updated_at: 'updated_at',
};
const FILTERS = ['id', 'status', 'store_id', 'paid_at_gte', 'paid_at_lte', 'q', 'last_five'] as const;

interface NewPayment {
  row: PaymentRow;
  audit: AuditRowInput;
}

/** Writes new payments with their audit entries in one transaction; a missing store fails only its own payment. */
async function writeNewPayments(db: Db, items: NewPayment[]): Promise<Array<PaymentRow | Error>> {
  return db.transaction(async (trx) => {
    const storeIds = [...new Set(items.map((i) => i.row.store_id))];
    const known = new Set(((await trx('stores').whereIn('id', storeIds).select('id')) as Array<{ id: number }>).map((s) => Number(s.id)));
    const ok = items.filter((i) => known.has(i.row.store_id));
    await insertRows(trx, 'payments', ok.map((i) => i.row));
    await insertRows(trx, 'audit_log', ok.map((i) => i.audit));
    return items.map((i) => (known.has(i.row.store_id) ? i.row : ValidationError.single('store_id', MSG.storeNotFound)));
  });
}

const paymentWriters = new WeakMap<object, Batcher<NewPayment, PaymentRow>>();

/**
 * A new payment from the submission form: anyone signed in, for a store they may submit to.
 * Submissions arriving together are written in one transaction (group commit), each with its
 * audit entry; if that transaction fails, each is retried alone so one cannot sink another.
 */
export async function createPayment(ctx: ServiceContext, input: unknown): Promise<Payment> {
  const value = valid(validatePayment(input));
  const storeId = submissionStoreId(ctx.actor, value.store_id);
  deny(submitStoreDenial(ctx.actor, storeId));
  const now = Date.now();
  const row: PaymentRow = {
    uuid: randomUUID(),
    store_id: storeId,
    last_five: value.last_five,
    paid_at: value.paid_at,
    amount: value.amount,
    status: DEFAULT_STATUS,
    note: value.note,
    created_by: ctx.actor.id > 0 ? ctx.actor.id : null,
    created_at: now,
    updated_at: now,
  };
  const item: NewPayment = { row, audit: auditRow(ctx, { action: 'create', entity: 'payment', entityId: row.uuid, after: toPayment(row) }, now) };
  const writer = batcherFor(paymentWriters, ctx.db, (root) =>
    new Batcher<NewPayment, PaymentRow>(async (items) => {
      try {
        return await writeNewPayments(root, items);
      } catch {
        return Promise.all(items.map((i) => writeNewPayments(root, [i]).then((r) => r[0], (err: Error) => err)));
      }
    }),
  );
  const [written] = writer ? [await writer.push(item)] : await writeNewPayments(ctx.db, [item]);
  if (written instanceof Error) throw written;
  return toPayment(written);
}

/** What a payment filter selected, for export file names. */
export interface AppliedPaymentFilter {
  storeIds?: number[];
  statuses?: PaymentStatus[];
  from?: string;
  to?: string;
  search?: string;
  lastFive?: string[];
  /** how many payments were picked by id */
  selected?: number;
  /** true when the caller asked for nothing narrower than everything they may see */
  empty: boolean;
}

/**
 * The payments a filter selects within the caller's stores, as a query not yet run: the list,
 * the export and the statistics page all narrow payments the same way.
 */
export function filteredPaymentsQuery(ctx: ServiceContext, f: Record<string, unknown>): { query: Knex.QueryBuilder; applied: AppliedPaymentFilter } {
  assertFilterFields(f, FILTERS);
  const query = ctx.db<PaymentRow>('payments').select('*');
  const requestedStores = filterIds(f, 'store_id');
  const stores = scopedStoreIds(ctx.actor, requestedStores);
  if (stores !== 'all') query.whereIn('store_id', stores);
  const statuses = filterStrings(f, 'status', isStatus) as PaymentStatus[] | undefined;
  if (statuses) query.whereIn('status', statuses);
  const ids = filterStrings(f, 'id', () => true);
  if (ids) query.whereIn('uuid', ids);
  const lastFive = filterStrings(f, 'last_five', (s) => /^\d{1,5}$/.test(s));
  if (lastFive) query.whereIn('last_five', lastFive);

  const from = f.paid_at_gte, to = f.paid_at_lte;
  if ((from !== undefined && from !== null && typeof from !== 'string') || (to !== undefined && to !== null && typeof to !== 'string')) {
    throw ValidationError.single('filter', MSG.badDate(String(typeof from === 'string' ? to : from)));
  }
  const range = dayRangeToInstants(from || null, to || null);
  if (range.error !== undefined) throw ValidationError.single('filter', MSG.badDate(range.error));
  if (range.gte !== undefined) query.where('paid_at', '>=', range.gte);
  if (range.lt !== undefined) query.where('paid_at', '<', range.lt);

  let q: string | undefined;
  if (typeof f.q === 'string' && f.q.trim()) {
    q = f.q.trim();
    const like = `%${likeEscape(q.toLowerCase())}%`;
    query.where((w) => w.whereRaw("last_five like ? escape '\\'", [`${likeEscape(q!)}%`]).orWhereRaw("lower(note) like ? escape '\\'", [like]));
  } else if (f.q !== undefined && f.q !== null && typeof f.q !== 'string') {
    throw ValidationError.single('filter', MSG.badListParam('filter.q'));
  }
  const applied: AppliedPaymentFilter = {
    storeIds: requestedStores,
    statuses,
    from: typeof from === 'string' && from ? from : undefined,
    to: typeof to === 'string' && to ? to : undefined,
    search: q,
    lastFive,
    selected: ids?.length,
    empty: !requestedStores && !statuses && !ids && !lastFive && !from && !to && !q,
  };
  return { query, applied };
}

export const PAYMENT_LIST_SPEC = { sortable: SORTABLE, defaultSort: ['paid_at', 'DESC'] as [string, 'DESC'], tiebreak: 'uuid' };

/** The payment list: view_payments, only the caller's stores, filtered, sorted and paged in SQL. */
export async function listPayments(ctx: ServiceContext, query: ListQuery = { filter: {} }): Promise<ListResult<Payment>> {
  requirePermission(ctx.actor, 'view_payments');
  const { query: base } = filteredPaymentsQuery(ctx, query.filter);
  return runList(base, query, PAYMENT_LIST_SPEC, toPayment);
}

/** `GET /stores/:id/payments`: one store's payments, refused outside the caller's scope. */
export async function listStorePayments(ctx: ServiceContext, rawStoreId: unknown, query: ListQuery = { filter: {} }): Promise<ListResult<Payment>> {
  requirePermission(ctx.actor, 'view_payments');
  const storeId = toId(rawStoreId);
  if (storeId === null || !(await findStore(ctx.db, storeId))) throw new NotFoundError(MSG.storeNotFound);
  if (!inScope(ctx.actor, storeId)) throw new ForbiddenError(MSG.paymentStoreForbidden);
  return listPayments(ctx, { ...query, filter: { ...query.filter, store_id: storeId } });
}

async function loadForActor(db: Db, ctx: ServiceContext, id: unknown): Promise<PaymentRow> {
  // Only id-like text reaches the database: PostgreSQL refuses a NUL byte in text with an error (a 500).
  const row = typeof id === 'string' && /^[\w-]{1,64}$/.test(id) ? await db<PaymentRow>('payments').where({ uuid: id }).first() : undefined;
  if (!row) throw new NotFoundError(MSG.paymentNotFound);
  if (!inScope(ctx.actor, Number(row.store_id))) throw new ForbiddenError(MSG.paymentStoreForbidden);
  return row;
}

export async function getPayment(ctx: ServiceContext, id: unknown): Promise<Payment> {
  requirePermission(ctx.actor, 'view_payments');
  return toPayment(await loadForActor(ctx.db, ctx, id));
}

/**
 * Changes a payment's status or note (edit_payments). The other fields of a payment are what
 * the bank shows and cannot be edited: sending them unchanged (as a full-record form does) is
 * fine, sending a different value is refused rather than silently dropped.
 */
export async function updatePayment(ctx: ServiceContext, id: unknown, patch: unknown): Promise<Payment> {
  requirePermission(ctx.actor, 'edit_payments');
  if (!isPlainObject(patch)) throw ValidationError.single('body', MSG.bodyNotObject);
  return ctx.db.transaction(async (trx) => {
    const row = await loadForActor(trx, ctx, id);
    const errors: FieldError[] = [];
    const changes: { status?: PaymentStatus; note?: string } = {};
    if ('status' in patch) {
      const s = parseStatus(patch.status);
      if (s.error) errors.push({ field: 'status', message: s.error });
      else changes.status = s.value;
    }
    if ('note' in patch) {
      const n = parseNote(patch.note);
      if (n.error) errors.push({ field: 'note', message: n.error });
      else changes.note = n.value;
    }
    const unchanged: Record<string, (v: unknown) => boolean> = {
      last_five: (v) => v === row.last_five,
      amount: (v) => Number(v) === Number(row.amount),
      paid_at: (v) => typeof v === 'string' && parseInstant(v) === Number(row.paid_at),
      store_id: (v) => toId(v) === Number(row.store_id),
      uuid: (v) => v === row.uuid,
      id: (v) => v === row.uuid,
    };
    for (const [field, same] of Object.entries(unchanged)) {
      if (field in patch && !same(patch[field])) errors.push({ field, message: MSG.paymentReadOnlyField });
    }
    if (errors.length) throw new ValidationError(errors);

    const before = toPayment(row);
    if ((changes.status === undefined || changes.status === row.status) && (changes.note === undefined || changes.note === row.note)) return before;
    const updated: PaymentRow = { ...row, ...changes, updated_at: Date.now() };
    await trx('payments').where({ uuid: row.uuid }).update({ ...changes, updated_at: updated.updated_at });
    const after = toPayment(updated);
    await recordAudit(trx, ctx, { action: 'update', entity: 'payment', entityId: row.uuid, before, after });
    return after;
  });
}

export async function deletePayment(ctx: ServiceContext, id: unknown): Promise<Payment> {
  requirePermission(ctx.actor, 'delete_payments');
  return ctx.db.transaction(async (trx) => {
    const before = toPayment(await loadForActor(trx, ctx, id));
    await trx('payments').where({ uuid: before.uuid }).delete();
    await recordAudit(trx, ctx, { action: 'delete', entity: 'payment', entityId: before.uuid, before });
    return before;
  });
}

/** Batch delete: all or nothing; one payment outside the caller's stores refuses the batch. */
export async function deletePayments(ctx: ServiceContext, uuids: unknown): Promise<{ deleted: number }> {
  requirePermission(ctx.actor, 'delete_payments');
  if (!Array.isArray(uuids) || uuids.length === 0 || !uuids.every((u) => typeof u === 'string' && u.length > 0 && u.length <= 64)) {
    throw ValidationError.single('uuids', MSG.uuidsRequired);
  }
  if (uuids.length > MAX_BATCH_DELETE) throw ValidationError.single('uuids', MSG.uuidsTooMany);
  const unique = [...new Set(uuids as string[])];
  return ctx.db.transaction(async (trx) => {
    const rows: PaymentRow[] = [];
    for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
      rows.push(...((await trx<PaymentRow>('payments').whereIn('uuid', unique.slice(i, i + INSERT_CHUNK)).select('*')) as PaymentRow[]));
    }
    if (rows.some((r) => !inScope(ctx.actor, Number(r.store_id)))) throw new ForbiddenError(MSG.paymentStoreForbidden);
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx('payments').whereIn('uuid', rows.slice(i, i + INSERT_CHUNK).map((r) => r.uuid)).delete();
    }
    await recordAuditMany(trx, ctx, rows.map((r) => ({ action: 'delete' as const, entity: 'payment' as const, entityId: r.uuid, before: toPayment(r) })));
    return { deleted: rows.length };
  });
}

export interface ImportOptions {
  /** store rows equal to an existing payment or an earlier row (default: skip them) */
  allowDuplicates?: boolean;
  /** check and report, write nothing */
  dryRun?: boolean;
  /** told how many rows are written so far, after each batch */
  onProgress?: (written: number, total: number) => void;
}

export interface ImportResult {
  imported: number;
  /** rows not written because they duplicate an existing payment or an earlier row */
  skipped: number;
  /** the sheet rows (or 1-based positions) of the skipped rows */
  duplicates: number[];
}

/** `第 N 行：` when the client says which sheet row a payment came from, else `第 N 筆：`. */
function rowLabel(raw: unknown, index: number): { n: number; prefix: string } {
  const row = isPlainObject(raw) ? raw.row : undefined;
  if (typeof row === 'number' && Number.isSafeInteger(row) && row > 0) return { n: row, prefix: MSG.rowError(row, '') };
  return { n: index + 1, prefix: MSG.rowPrefix(index + 1) };
}

/** Keys (store, last five, time, amount) of the given rows that already exist as payments. */
export async function existingDuplicateKeys(db: Db, rows: ReadonlyArray<Pick<PaymentRow, 'store_id' | 'last_five' | 'paid_at' | 'amount'>>): Promise<Set<string>> {
  const found = new Set<string>();
  const times = [...new Set(rows.map((r) => r.paid_at))];
  for (let i = 0; i < times.length; i += INSERT_CHUNK) {
    const hits = (await db('payments').whereIn('paid_at', times.slice(i, i + INSERT_CHUNK)).select('store_id', 'last_five', 'paid_at', 'amount')) as PaymentRow[];
    for (const h of hits) found.add(duplicateKey({ store_id: Number(h.store_id), last_five: h.last_five, paid_at: Number(h.paid_at), amount: Number(h.amount) }));
  }
  return found;
}

/**
 * Bulk import (manage_payments): every row is validated again here, whatever the client
 * checked; each row's store must exist and be in the caller's scope; rows equal to an existing
 * payment or to an earlier row are skipped (unless allowed), so importing the same file twice
 * adds nothing; one transaction, so one bad row writes nothing.
 */
export async function importPayments(ctx: ServiceContext, payments: unknown, opts: ImportOptions = {}): Promise<ImportResult> {
  requirePermission(ctx.actor, 'manage_payments');
  if (!Array.isArray(payments) || payments.length === 0) throw ValidationError.single('payments', MSG.importEmpty);
  if (payments.length > MAX_IMPORT_ROWS) throw ValidationError.single('payments', MSG.importTooMany);

  const errors: FieldError[] = [];
  const rows: Array<PaymentRow & { label: number }> = [];
  const now = Date.now();
  const createdBy = ctx.actor.id > 0 ? ctx.actor.id : null;
  payments.forEach((raw, i) => {
    const { n, prefix } = rowLabel(raw, i);
    const result = validatePayment(raw);
    let status: PaymentStatus = DEFAULT_STATUS;
    const rawStatus = isPlainObject(raw) ? raw.status : undefined;
    if (rawStatus !== undefined && rawStatus !== null && rawStatus !== '') {
      if (isStatus(rawStatus)) status = rawStatus;
      else errors.push({ field: `payments.${i}.status`, message: prefix + MSG.statusInvalid });
    }
    if (!result.ok) {
      for (const e of result.errors) errors.push({ field: `payments.${i}.${e.field}`, message: prefix + e.message });
      return;
    }
    const v = result.value;
    const storeId = submissionStoreId(ctx.actor, v.store_id);
    if (!inScope(ctx.actor, storeId)) throw new ForbiddenError(prefix + MSG.storeOutOfScope);
    rows.push({
      uuid: randomUUID(),
      store_id: storeId,
      last_five: v.last_five,
      paid_at: v.paid_at,
      amount: v.amount,
      status,
      note: v.note,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
      label: n,
    });
  });
  if (errors.length) throw new ValidationError(errors);

  return ctx.db.transaction(async (trx) => {
    const storeIds = [...new Set(rows.map((r) => r.store_id))];
    const known = new Set(((await trx('stores').whereIn('id', storeIds).select('id')) as Array<{ id: number }>).map((s) => Number(s.id)));
    const missing = rows
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => !known.has(r.store_id))
      .map(({ r, i }) => ({ field: `payments.${i}.store_id`, message: rowLabel(payments[i], i).prefix + MSG.storeNotFound }));
    if (missing.length) throw new ValidationError(missing);

    const duplicates: number[] = [];
    let fresh = rows;
    if (!opts.allowDuplicates) {
      const existing = await existingDuplicateKeys(trx, rows);
      fresh = [];
      for (const r of rows) {
        const key = duplicateKey(r);
        if (existing.has(key)) duplicates.push(r.label);
        else {
          existing.add(key);
          fresh.push(r);
        }
      }
    }
    const result: ImportResult = { imported: fresh.length, skipped: duplicates.length, duplicates };
    if (opts.dryRun) return result;
    const toInsert = fresh.map(({ label: _label, ...row }) => row);
    const step = 5_000;
    for (let i = 0; i < toInsert.length; i += step) {
      await insertRows(trx, 'payments', toInsert.slice(i, i + step));
      opts.onProgress?.(Math.min(i + step, toInsert.length), toInsert.length);
    }
    await recordAudit(trx, ctx, {
      action: 'import',
      entity: 'payment',
      after: { imported: toInsert.length, skipped: duplicates.length, stores: storeIds, first: toInsert[0]?.uuid, last: toInsert[toInsert.length - 1]?.uuid },
    });
    return result;
  });
}
