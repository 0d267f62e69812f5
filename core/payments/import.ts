/** Bulk import of payments; `ImportWriter` is the one write path for JSON rows and streamed files alike. */
import {
  fieldError,
  fieldErrorOf,
  ForbiddenError,
  placed,
  problem,
  ValidationError,
  type ErrorPlace,
  type FieldError,
} from '../errors.js';
import { inScope, submissionStoreId } from '../permissions.js';
import { MAX_IMPORT_ROWS } from './sheetFile.js';
import { DEFAULT_STATUS, isStatus, type PaymentStatus } from '../paymentStatuses.js';
import { initialStatus, type PaymentMethod } from '../paymentMethods.js';
import type { PaymentRow } from './rows.js';
import { validatePayment } from './validate.js';
import { isPlainObject } from '../validation.js';
import { DUPLICATE_KEY_COLUMNS, paymentDuplicateKey } from './duplicateKey.js';
import { recordAudit } from '../audit/service.js';
import { readContext, type ServiceContext, type Db } from '../context.js';
import { requirePermission } from '../guard.js';
import { insertPayments, newPaymentRow } from './writer.js';
import { METHOD_CASH, METHOD_TRANSFER } from '../paymentMethods.js';
import { assertDayOpenForCash } from './closedDay.js';
import { taipeiDate } from '../time.js';
import { lockForTransaction, LOCKS } from '../db/locks.js';
import { automaticBackup } from '../backups/service.js';

export const IMPORT_BATCH = 5_000;

export interface ImportOptions {
  allowDuplicates?: boolean;
  dryRun?: boolean;
  onProgress?: (written: number, total: number) => void;
}

/** How many skipped rows are named one by one: importing a million-row file again skips a million rows. */
export const IMPORT_LISTED = 10_000;

export interface ImportResult {
  imported: number;
  skipped: number;
  /** the sheet rows (or 1-based positions) of the skipped rows */
  duplicates: number[];
  duplicate_of: Array<{ row: number; uuid: string } | { row: number; earlier_row: number }>;
}

/**
 * All or nothing in one write transaction, after a 匯入前 backup (a bulk import is the change most worth undoing);
 * a dry run uses a reading connection, never waiting behind an import, and takes no backup.
 */
export async function importTransaction<T>(
  ctx: ServiceContext,
  dryRun: boolean | undefined,
  body: (db: Db) => Promise<T>,
): Promise<T> {
  if (dryRun) return body(readContext(ctx).db);
  await automaticBackup(ctx, 'import');
  return ctx.db.transaction(body);
}

/** A checked payment on its way in; `label` is its sheet row (or 1-based position). */
export interface ImportCandidate {
  label: number;
  store_id: number;
  last_five: string;
  paid_at: number;
  amount: number;
  note: string;
  status: PaymentStatus;
  method: PaymentMethod;
  method_detail: string | null;
  employee: boolean;
}

/** `第 N 行：` when the client says which sheet row a payment came from, else `第 N 筆：`. */
function rowLabel(raw: unknown, index: number): { n: number; place: ErrorPlace } {
  const row = isPlainObject(raw) ? raw.row : undefined;
  if (typeof row === 'number' && Number.isSafeInteger(row) && row > 0) return { n: row, place: { row } };
  return { n: index + 1, place: { item: index + 1 } };
}

/** well within SQLite's 32 766 and PostgreSQL's 65 535 parameters */
const TIMES_PER_QUERY = 5_000;

/** The duplicate key of each row already stored, to that payment's uuid. */
async function existingDuplicates(
  db: Db,
  rows: ReadonlyArray<Pick<PaymentRow, 'store_id' | 'last_five' | 'paid_at' | 'amount'>>,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const times = [...new Set(rows.map((r) => r.paid_at))];
  for (let i = 0; i < times.length; i += TIMES_PER_QUERY) {
    const hits = (await db('payments')
      .whereIn('paid_at', times.slice(i, i + TIMES_PER_QUERY))
      .select('uuid', ...DUPLICATE_KEY_COLUMNS)) as PaymentRow[];
    for (const h of hits) found.set(paymentDuplicateKey(h), h.uuid);
  }
  return found;
}

/** Writes checked payments in batches; after any row error nothing more is written and the caller rolls back. */
export class ImportWriter {
  readonly duplicates: number[] = [];
  readonly duplicateOf: ImportResult['duplicate_of'] = [];
  readonly errors: FieldError[] = [];
  imported = 0;
  /** all of them; `duplicates` names the first `listed` */
  skipped = 0;
  private knownStores = new Set<number>();
  private storesUsed = new Set<number>();
  private first: string | undefined;
  private last: string | undefined;
  private readonly now = Date.now();
  /** earlier rows' keys, when the caller does not drop repeats within its file itself */
  private readonly seen: Map<string, number> | null;

  constructor(
    private readonly trx: Db,
    private readonly ctx: ServiceContext,
    private readonly opts: ImportOptions & { trackRepeats?: boolean; listed?: number } = {},
  ) {
    this.seen = opts.trackRepeats && !opts.allowDuplicates ? new Map() : null;
  }

  /** Takes the import lock (not for a dry run) and reads the stores. */
  async begin(): Promise<void> {
    if (!this.opts.dryRun) await lockForTransaction(this.trx, LOCKS.import);
    this.knownStores = new Set(
      ((await this.trx('stores').select('id')) as Array<{ id: number }>).map((s) => Number(s.id)),
    );
  }

  /** `fieldOf` names a row's field in an error (the JSON path's `payments.N.store_id`). */
  async add(batch: readonly ImportCandidate[], fieldOf: (c: ImportCandidate) => string = () => 'file'): Promise<void> {
    for (const c of batch) {
      if (!inScope(this.ctx.actor, c.store_id))
        throw new ForbiddenError(problem('store_out_of_scope', { row: c.label }));
      if (c.method !== METHOD_TRANSFER) requirePermission(this.ctx.actor, 'record_takings');
      if (!this.knownStores.has(c.store_id))
        this.errors.push(fieldError(fieldOf(c), 'store_not_found', { row: c.label }));
    }
    if (this.errors.length) return;
    let fresh = batch;
    if (!this.opts.allowDuplicates) {
      const stored = await existingDuplicates(this.trx, batch);
      // repeats within this batch are caught even without a `seen` of the writer's own
      const earlier = this.seen ?? new Map<string, number>();
      fresh = batch.filter((c) => {
        const key = paymentDuplicateKey(c);
        const uuid = stored.get(key);
        const before = earlier.get(key);
        if (uuid === undefined && before === undefined) {
          earlier.set(key, c.label);
          return true;
        }
        if (this.skipped++ < (this.opts.listed ?? Infinity)) {
          this.duplicates.push(c.label);
          this.duplicateOf.push(uuid !== undefined ? { row: c.label, uuid } : { row: c.label, earlier_row: before! });
        }
        return false;
      });
    }
    if (!fresh.length) return;
    const rows = fresh.map((c) => newPaymentRow(this.ctx.actor, c, this.now));
    for (const r of rows) this.storesUsed.add(r.store_id);
    this.first ??= rows[0].uuid;
    this.last = rows[rows.length - 1].uuid;
    this.imported += rows.length;
    if (!this.opts.dryRun) {
      // a closed day's 現金 is let through (an import needs manage_payments) and marked; sorted, once per day
      const days = new Map<string, { store: number; at: number }>();
      for (const r of rows)
        if (r.method === METHOD_CASH)
          days.set(`${r.store_id}|${taipeiDate(r.paid_at)}`, { store: r.store_id, at: r.paid_at });
      for (const key of [...days.keys()].sort()) {
        const d = days.get(key)!;
        if (!this.lockedDays.has(key))
          await assertDayOpenForCash(this.trx, this.ctx, d.store, d.at, { entity: 'payment', action: 'create' });
        this.lockedDays.add(key);
      }
      await insertPayments(this.trx, rows);
    }
  }
  private readonly lockedDays = new Set<string>();

  async finish(): Promise<ImportResult> {
    if (!this.opts.dryRun) {
      await recordAudit(this.trx, this.ctx, {
        action: 'import',
        entity: 'payment',
        after: {
          imported: this.imported,
          skipped: this.skipped,
          stores: [...this.storesUsed],
          first: this.first,
          last: this.last,
        },
      });
    }
    return {
      imported: this.imported,
      skipped: this.skipped,
      duplicates: this.duplicates,
      duplicate_of: this.duplicateOf,
    };
  }
}

/** Bulk import of JSON rows, each validated again; duplicates skipped; one bad row writes nothing. */
export async function importPayments(
  ctx: ServiceContext,
  payments: unknown,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  requirePermission(ctx.actor, 'manage_payments');
  if (!Array.isArray(payments) || payments.length === 0) throw ValidationError.single('payments', 'import_empty');
  if (payments.length > MAX_IMPORT_ROWS)
    throw ValidationError.single('payments', 'import_too_many', { limit: MAX_IMPORT_ROWS });

  const errors: FieldError[] = [];
  const candidates: ImportCandidate[] = [];
  const index = new Map<ImportCandidate, number>();
  const now = Date.now();
  payments.forEach((raw, i) => {
    const { n, place } = rowLabel(raw, i);
    // as on the form, a time over a day ahead is refused
    const result = validatePayment(raw, { now });
    let status: PaymentStatus = result.ok ? initialStatus(result.value.method) : DEFAULT_STATUS;
    const rawStatus = isPlainObject(raw) ? raw.status : undefined;
    if (rawStatus !== undefined && rawStatus !== null && rawStatus !== '') {
      if (isStatus(rawStatus)) status = rawStatus;
      else errors.push(fieldError(`payments.${i}.status`, 'status_invalid', place));
    }
    if (!result.ok) {
      for (const e of result.errors) errors.push(fieldErrorOf(`payments.${i}.${e.field}`, placed(e, place)));
      return;
    }
    const v = result.value;
    const storeId = submissionStoreId(ctx.actor, v.store_id);
    if (!inScope(ctx.actor, storeId)) throw new ForbiddenError(problem('store_out_of_scope', place));
    const c: ImportCandidate = {
      label: n,
      store_id: storeId,
      last_five: v.last_five,
      paid_at: v.paid_at,
      amount: v.amount,
      note: v.note,
      status,
      method: v.method,
      method_detail: v.method_detail,
      employee: v.employee,
    };
    index.set(c, i);
    candidates.push(c);
  });
  if (errors.length) throw new ValidationError(errors);

  return importTransaction(ctx, opts.dryRun, async (trx) => {
    const writer = new ImportWriter(trx, ctx, { ...opts, trackRepeats: true });
    await writer.begin();
    for (let i = 0; i < candidates.length; i += IMPORT_BATCH) {
      const batch = candidates.slice(i, i + IMPORT_BATCH);
      await writer.add(batch, (c) => `payments.${index.get(c)}.store_id`);
      if (writer.errors.length) break;
    }
    if (writer.errors.length) {
      const i = (field: string) => Number(field.split('.')[1]);
      throw new ValidationError(
        writer.errors.map((e) =>
          fieldError(e.field, 'store_not_found', rowLabel(payments[i(e.field)], i(e.field)).place),
        ),
      );
    }
    const result = await writer.finish();
    opts.onProgress?.(result.imported, result.imported);
    return result;
  });
}
