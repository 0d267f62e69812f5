/** Bulk import of payments: every row checked again, duplicates skipped, one transaction. */
import { randomUUID } from 'node:crypto';
import { ForbiddenError, ValidationError, type FieldError } from '../../errors.js';
import { MSG } from '../../messages.js';
import { inScope, submissionStoreId } from '../../permissions.js';
import { MAX_IMPORT_ROWS } from '../../excel/columns.js';
import { DEFAULT_STATUS, isStatus, type PaymentStatus } from '../../statuses.js';
import type { PaymentRow } from '../../db/rows.js';
import { isPostgres, type Db } from '../../db/connect.js';

/** The PostgreSQL advisory lock key imports take (any fixed number, the same in every instance). */
const IMPORT_LOCK = 7_210_001;
import { validatePayment } from '../../validation/payment.js';
import { isPlainObject } from '../../validation/result.js';
import { paymentDuplicateKey } from '../../paymentDuplicateKey.js';
import { recordAudit } from '../audit.js';
import { insertRows } from '../../db/batch.js';
import type { ServiceContext } from '../context.js';
import { requirePermission } from '../guard.js';
import { INSERT_CHUNK } from './write.js';

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
  /** what each skipped row repeats: a stored payment (its tracking number) or an earlier row of the same import */
  duplicate_of: Array<{ row: number; uuid: string } | { row: number; earlier_row: number }>;
}

/** `第 N 行：` when the client says which sheet row a payment came from, else `第 N 筆：`. */
function rowLabel(raw: unknown, index: number): { n: number; prefix: string } {
  const row = isPlainObject(raw) ? raw.row : undefined;
  if (typeof row === 'number' && Number.isSafeInteger(row) && row > 0) return { n: row, prefix: MSG.rowError(row, '') };
  return { n: index + 1, prefix: MSG.rowPrefix(index + 1) };
}

/** The key (store, last five, time, amount) of each given row that already exists as a payment, with that payment's tracking number. */
export async function existingDuplicates(db: Db, rows: ReadonlyArray<Pick<PaymentRow, 'store_id' | 'last_five' | 'paid_at' | 'amount'>>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const times = [...new Set(rows.map((r) => r.paid_at))];
  for (let i = 0; i < times.length; i += INSERT_CHUNK) {
    const hits = (await db('payments').whereIn('paid_at', times.slice(i, i + INSERT_CHUNK)).select('uuid', 'store_id', 'last_five', 'paid_at', 'amount')) as PaymentRow[];
    for (const h of hits) found.set(paymentDuplicateKey({ store_id: Number(h.store_id), last_five: h.last_five, paid_at: Number(h.paid_at), amount: Number(h.amount) }), h.uuid);
  }
  return found;
}

/** Keys (store, last five, time, amount) of the given rows that already exist as payments. */
export async function existingDuplicateKeys(db: Db, rows: ReadonlyArray<Pick<PaymentRow, 'store_id' | 'last_five' | 'paid_at' | 'amount'>>): Promise<Set<string>> {
  return new Set((await existingDuplicates(db, rows)).keys());
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
    // The duplicate check and the insert exclude every other import: SQLite's BEGIN IMMEDIATE
    // does it already; PostgreSQL takes a lock for the transaction (issue 10, item 3).
    if (isPostgres(trx)) await trx.raw('select pg_advisory_xact_lock(?)', [IMPORT_LOCK]);
    const storeIds = [...new Set(rows.map((r) => r.store_id))];
    const known = new Set(((await trx('stores').whereIn('id', storeIds).select('id')) as Array<{ id: number }>).map((s) => Number(s.id)));
    const missing = rows
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => !known.has(r.store_id))
      .map(({ r, i }) => ({ field: `payments.${i}.store_id`, message: rowLabel(payments[i], i).prefix + MSG.storeNotFound }));
    if (missing.length) throw new ValidationError(missing);

    const duplicates: number[] = [];
    const duplicateOf: ImportResult['duplicate_of'] = [];
    let fresh = rows;
    if (!opts.allowDuplicates) {
      const stored = await existingDuplicates(trx, rows);
      const earlier = new Map<string, number>();
      fresh = [];
      for (const r of rows) {
        const key = paymentDuplicateKey(r);
        const uuid = stored.get(key);
        const before = earlier.get(key);
        if (uuid !== undefined || before !== undefined) {
          duplicates.push(r.label);
          duplicateOf.push(uuid !== undefined ? { row: r.label, uuid } : { row: r.label, earlier_row: before! });
        } else {
          earlier.set(key, r.label);
          fresh.push(r);
        }
      }
    }
    const result: ImportResult = { imported: fresh.length, skipped: duplicates.length, duplicates, duplicate_of: duplicateOf };
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
