/** Writing payments: a submission, a status or note change, deleting one or many. */
import {
  ConflictError,
  fieldError,
  fieldErrorOf,
  ForbiddenError,
  NotFoundError,
  problem,
  ValidationError,
  type FieldError,
} from '../errors.js';
import { MAX_BATCH_DELETE } from '../limits.js';
import { inScope, submissionStoreId, submitStoreRefusal } from '../permissions.js';
import type { PaymentStatus } from '../paymentStatuses.js';
import { initialStatus, METHOD_CASH, METHOD_TRANSFER, NO_LAST_FIVE, type PaymentMethod } from '../paymentMethods.js';
import { assertDayOpenForCash } from './closedDay.js';
import { parseInstant } from '../time.js';
import { toPayment, type PaymentRow } from './rows.js';
import { isDatabaseBusy, isForeignKeyViolation, isPostgres, WRITE_WAIT_MS } from '../db/connect.js';
import type { ListedPayment, Payment } from '../types.js';
import { employeeOf, lastFiveFor, methodDetailOf, methodOf, noteOf, statusOf, validatePayment } from './validate.js';
import { isPlainObject, toId } from '../validation.js';
import { auditRow, recordAudit, recordAuditMany, type AuditRowInput } from '../audit/service.js';
import { Batcher, batcherFor, insertRows } from '../db/batch.js';
import type { ServiceContext, Db } from '../context.js';
import { deny, requirePermission, valid } from '../guard.js';
import { loadForActor } from './list.js';
import { DUPLICATE_KEY_COLUMNS, paymentDuplicateKey } from './duplicateKey.js';
import { IMPORT_LOCK } from './import.js';
import { insertPayments, newPaymentRow, type NewPaymentFields } from './writer.js';
import { findReportKeys, keyReused, reportKeyId, saveReportKeys, type ReportKey } from './reportKeys.js';

/** rows per statement: 10 columns each stays far below SQLite's and PostgreSQL's parameter limits */
const INSERT_CHUNK = 500;

interface NewPayment {
  row: PaymentRow;
  /** who writes it: a 現金 payment of a closed day needs manage_payments (the lock of core/closes) */
  ctx: Pick<ServiceContext, 'actor' | 'ip'>;
  audit: AuditRowInput;
  /** the submitter saw the 可能重複 warning and sends it again on purpose */
  allowDuplicate: boolean;
  /**
   * A customer's report is also a probable duplicate of a payment of the same store,
   * last five and amount whose time is within this many ms, stored or earlier in the batch.
   */
  nearWindowMs?: number;
  /** a customer's report attempt: stored once a link and key, sent again it answers the first */
  reportKey?: ReportKey;
}

/** A report attempt whose key already stored a payment: that payment's tracking number, nothing written. */
interface Replayed {
  replayOf: string;
}
const isReplayed = (r: unknown): r is Replayed => typeof r === 'object' && r !== null && 'replayOf' in r;

/**
 * A customer's report, asked about duplicates among customers' reports only: an answer about what
 * staff entered would tell anyone with the link that a given transfer exists.
 */
const fromCustomer = (i: NewPayment) => i.row.source === 'customer';

/** Rows of `table` near a report: the same store, last five and amount, the time within `windowMs` either side. */
export function nearRows(
  db: Db,
  table: 'payments' | 'public_decoys',
  r: { store_id: number; last_five: string; amount: number; paid_at: number },
  windowMs: number,
) {
  return db(table)
    .where({ store_id: r.store_id, last_five: r.last_five, amount: r.amount })
    .whereBetween('paid_at', [r.paid_at - windowMs, r.paid_at + windowMs]);
}

/** What a near duplicate shares: store, last five and amount (the time is within the window). */
const nearKey = (r: PaymentRow) => `near|${r.store_id}|${r.last_five}|${r.amount}`;

/**
 * Writes new payments with their audit entries in one transaction; a missing store fails only its
 * own payment, and so does a probable duplicate (the import's key: same store, last five, time and
 * amount as a stored payment or an earlier one in the batch) unless it was confirmed. The check
 * and the insert share the transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock per
 * key, and the import lock shared), so two identical submissions at once, or a submission during
 * an import of the same payment, on one instance or several, store one. A customer's report
 * attempt with a key (`reportKey`) that already stored a payment, or stored one earlier in the
 * batch, answers that payment (Replayed) before any other check, under the same lock.
 */
async function writeNewPayments(db: Db, items: NewPayment[]): Promise<Array<PaymentRow | Replayed | Error>> {
  return db.transaction(async (trx) => {
    const now = Date.now();
    const storeIds = [...new Set(items.map((i) => i.row.store_id))];
    const known = new Set(
      ((await trx('stores').whereIn('id', storeIds).select('id')) as Array<{ id: number }>).map((s) => Number(s.id)),
    );
    const earlier = new Map<string, string>();
    /** the same, of customers' reports only: a customer is asked only about what customers reported */
    const earlierReported = new Map<string, string>();
    /** a report's uuid, to the stored payment it is near (customers' reports only) */
    const nearStored = new Map<string, string>();
    const checked = items.filter((i) => !i.allowDuplicate && known.has(i.row.store_id));
    const keyed = items.filter((i) => i.reportKey && known.has(i.row.store_id)).map((i) => i.reportKey!);
    if (isPostgres(db) && (checked.length || keyed.length)) {
      await trx.raw(`set local lock_timeout = ${WRITE_WAIT_MS}`);
      // An import holds IMPORT_LOCK, exclusively, until it commits, and its rows are not seen
      // before then: a submission checked meanwhile would store the same payment again. So a
      // submission holds it shared (submissions never wait for one another, only for a running
      // import), and waits as long as SQLite's busy_timeout, then is refused as busy (503).
      if (checked.length) await trx.raw('select pg_advisory_xact_lock_shared(?)', [IMPORT_LOCK]);
      // one sorted list of every key, the near ones and the report attempts' too, so two batches never wait for each other
      const keys = new Set(
        checked.flatMap((i) =>
          i.nearWindowMs ? [paymentDuplicateKey(i.row), nearKey(i.row)] : [paymentDuplicateKey(i.row)],
        ),
      );
      for (const k of keyed) keys.add(`report key|${reportKeyId(k)}`);
      for (const key of [...keys].sort()) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
    }
    // the attempts' keys as stored (read under the lock: a send of the same key waits for this one's commit)
    const keptKeys = await findReportKeys(trx, keyed, now);
    if (checked.length) {
      const hits = (await trx('payments')
        .whereIn('paid_at', [...new Set(checked.map((i) => i.row.paid_at))])
        .whereIn('last_five', [...new Set(checked.map((i) => i.row.last_five))])
        .orderBy('created_at', 'desc')
        .select('uuid', 'source', ...DUPLICATE_KEY_COLUMNS)) as PaymentRow[];
      for (const h of hits) {
        earlier.set(paymentDuplicateKey(h), h.uuid);
        if (h.source === 'customer') earlierReported.set(paymentDuplicateKey(h), h.uuid);
      }
      for (const i of checked) {
        if (!i.nearWindowMs) continue;
        const near = (await nearRows(trx, 'payments', i.row, i.nearWindowMs)
          .modify((q) => (fromCustomer(i) ? q.where('source', 'customer') : q))
          .first('uuid')) as { uuid: string } | undefined;
        if (near) nearStored.set(i.row.uuid, near.uuid);
      }
    }
    /** the batch's rows accepted so far, for the near check of the ones after them */
    const accepted: PaymentRow[] = [];
    /** a report attempt answered by another in this batch: its place, to the other's (should the other fail after all) */
    const answeredBy = new Map<number, number>();
    const keptAt = new Map<string, number>();
    const results = items.map((i, n): PaymentRow | Replayed | Error => {
      if (!known.has(i.row.store_id)) return ValidationError.single('store_id', 'store_not_found');
      if (i.reportKey) {
        const id = reportKeyId(i.reportKey);
        const kept = keptKeys.get(id);
        if (kept) return kept.fingerprint === i.reportKey.fingerprint ? { replayOf: kept.payment_uuid } : keyReused();
        const at = keptAt.get(id);
        if (at !== undefined) {
          if (items[at].reportKey!.fingerprint !== i.reportKey.fingerprint) return keyReused();
          answeredBy.set(n, at);
          return { replayOf: items[at].row.uuid };
        }
      }
      const key = paymentDuplicateKey(i.row);
      const first = (fromCustomer(i) ? earlierReported : earlier).get(key);
      if (first && !i.allowDuplicate) return new ConflictError(problem('possible_duplicate', { duplicate_of: first }));
      if (i.nearWindowMs && !i.allowDuplicate) {
        const w = i.nearWindowMs;
        const before =
          nearStored.get(i.row.uuid) ??
          accepted.find(
            (r) =>
              nearKey(r) === nearKey(i.row) &&
              Math.abs(r.paid_at - i.row.paid_at) <= w &&
              (!fromCustomer(i) || r.source === 'customer'),
          )?.uuid;
        if (before) return new ConflictError(problem('possible_duplicate', { duplicate_of: before }));
      }
      earlier.set(key, i.row.uuid);
      if (fromCustomer(i)) earlierReported.set(key, i.row.uuid);
      accepted.push(i.row);
      if (i.reportKey) keptAt.set(reportKeyId(i.reportKey), n);
      return i.row;
    });
    // The lock of a closed day (core/closes): a 現金 payment of a closed day is refused unless its
    // writer has manage_payments, and marked after the close when allowed; only that payment fails.
    // The days are locked in one order, so two batches never wait for each other.
    const cash = items
      .map((i, n) => ({ i, n }))
      .filter(({ i, n }) => !(results[n] instanceof Error) && !isReplayed(results[n]) && i.row.method === METHOD_CASH);
    cash.sort((a, b) => a.i.row.store_id - b.i.row.store_id || a.i.row.paid_at - b.i.row.paid_at);
    for (const { i, n } of cash) {
      try {
        await assertDayOpenForCash(trx, i.ctx, i.row.store_id, i.row.paid_at, {
          entity: 'payment',
          id: i.row.uuid,
          action: 'create',
        });
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err;
        results[n] = err;
      }
    }
    // an attempt answered by one refused after all (a closed day) gets that refusal
    for (const [n, at] of answeredBy) if (results[at] instanceof Error) results[n] = results[at];
    const ok = items.filter((_, n) => !(results[n] instanceof Error) && !isReplayed(results[n]));
    await insertPayments(
      trx,
      ok.map((i) => i.row),
    );
    await insertRows(
      trx,
      'audit_log',
      ok.map((i) => i.audit),
    );
    await saveReportKeys(
      trx,
      ok.filter((i) => i.reportKey).map((i) => ({ key: i.reportKey!, paymentUuid: i.row.uuid })),
      now,
    );
    return results;
  });
}

const paymentWriters = new WeakMap<object, Batcher<NewPayment, PaymentRow | Replayed>>();

/**
 * A new payment from the submission form: a transfer report from anyone signed in (the spec's),
 * takings in hand (現金, 刷卡, 電子支付) with record_takings; either for a store they may submit to.
 */
export async function createPayment(ctx: ServiceContext, input: unknown): Promise<Payment> {
  const now = Date.now();
  const value = valid(validatePayment(input, { now }));
  if (value.method !== METHOD_TRANSFER) requirePermission(ctx.actor, 'record_takings');
  const storeId = submissionStoreId(ctx.actor, value.store_id);
  deny(submitStoreRefusal(ctx.actor, storeId));
  const allowDuplicate = isPlainObject(input) && input.confirm_duplicate === true;
  return submitPayment(ctx, { ...value, store_id: storeId }, { allowDuplicate, now });
}

/**
 * Writes one reported payment, checked and with its store decided by the caller (the form, a
 * customer's link), with its audit entry. Submissions arriving together are written in one
 * transaction (group commit); if that transaction fails, each is retried alone so one cannot
 * sink another. A probable duplicate is refused (409 possible_duplicate) unless `allowDuplicate`;
 * with `nearWindowMs`, so is one of the same store, last five and amount within that window,
 * checked in the same transaction as the insert (a customer's report).
 */
interface SubmitOptions {
  allowDuplicate: boolean;
  now?: number;
  nearWindowMs?: number;
}
export async function submitPayment(
  ctx: ServiceContext,
  fields: NewPaymentFields,
  opts: SubmitOptions,
): Promise<Payment>;
/**
 * With `reportKey` (a customer's report attempt): a key that already stored a payment through
 * this link answers `{ replayOf }`, that payment's tracking number, and writes nothing; the same
 * key with other fields is refused (400 client_key_reused).
 */
export async function submitPayment(
  ctx: ServiceContext,
  fields: NewPaymentFields,
  opts: SubmitOptions & { reportKey: ReportKey },
): Promise<Payment | Replayed>;
export async function submitPayment(
  ctx: ServiceContext,
  fields: NewPaymentFields,
  opts: SubmitOptions & { reportKey?: ReportKey },
): Promise<Payment | Replayed> {
  const now = opts.now ?? Date.now();
  const row = newPaymentRow(ctx.actor, fields, now);
  const item: NewPayment = {
    row,
    ctx: { actor: ctx.actor, ip: ctx.ip },
    audit: auditRow(ctx, { action: 'create', entity: 'payment', entityId: row.uuid, after: toPayment(row) }, now),
    allowDuplicate: opts.allowDuplicate,
    nearWindowMs: opts.nearWindowMs,
    reportKey: opts.reportKey,
  };
  const writer = batcherFor(
    paymentWriters,
    ctx.db,
    (root) =>
      new Batcher<NewPayment, PaymentRow | Replayed>(async (items) => {
        try {
          return await writeNewPayments(root, items);
        } catch (err) {
          // The database is held by a running import: each alone would wait as long again.
          if (isDatabaseBusy(err)) return items.map(() => err as Error);
          // A store deleted at this very moment (PostgreSQL's foreign key refuses the row): that store is gone.
          return Promise.all(
            items.map((i) =>
              writeNewPayments(root, [i]).then(
                (r) => r[0],
                (err: Error) =>
                  isForeignKeyViolation(err) ? ValidationError.single('store_id', 'store_not_found') : err,
              ),
            ),
          );
        }
      }),
  );
  const [written] = writer ? [await writer.push(item)] : await writeNewPayments(ctx.db, [item]);
  if (written instanceof Error) throw written;
  return isReplayed(written) ? written : toPayment(written);
}

/**
 * Changes a payment's status or note (edit_payments). The other fields of a payment are what
 * the bank shows and cannot be edited: sending them unchanged (as a full-record form does) is
 * fine, sending a different value is refused rather than silently dropped.
 */
export async function updatePayment(ctx: ServiceContext, id: unknown, patch: unknown): Promise<ListedPayment> {
  requirePermission(ctx.actor, 'edit_payments');
  if (!isPlainObject(patch)) throw ValidationError.single('body', 'body_not_object');
  return ctx.db.transaction(async (trx) => {
    // Locked on PostgreSQL, so a reconciliation decision on this payment (which locks it too)
    // and this change take turns; SQLite's write transactions already do.
    const row = await loadForActor(trx, ctx, id, { lock: true });
    const errors: FieldError[] = [];
    const changes: {
      status?: PaymentStatus;
      note?: string;
      method?: PaymentMethod;
      method_detail?: string | null;
      employee?: boolean;
      last_five?: string;
    } = {};
    // The method, its sub-type and the 員工購物 mark are what the store says, and can be corrected.
    // A change of method brings its own last five (a transfer needs one, the others keep none) and,
    // unless a status is sent too, the new method's first status.
    const oldMethod: PaymentMethod = row.method ?? METHOD_TRANSFER;
    let method = oldMethod;
    if ('method' in patch) {
      const m = methodOf(patch.method);
      if ('problem' in m) errors.push(fieldErrorOf('method', m.problem));
      else method = m.value;
    }
    const methodChanged = method !== oldMethod;
    if (methodChanged) {
      changes.method = method;
      const lf = method === METHOD_TRANSFER ? lastFiveFor(patch.last_five, method) : { value: NO_LAST_FIVE };
      if ('problem' in lf) errors.push(fieldErrorOf('last_five', lf.problem));
      else changes.last_five = lf.value;
      if (!('status' in patch)) changes.status = initialStatus(method);
      if (!('method_detail' in patch)) changes.method_detail = null;
    }
    if ('method_detail' in patch) {
      const d = methodDetailOf(patch.method_detail, method);
      if ('problem' in d) errors.push(fieldErrorOf('method_detail', d.problem));
      else changes.method_detail = d.value;
    }
    if ('employee' in patch) {
      const e = employeeOf(patch.employee);
      if ('problem' in e) errors.push(fieldErrorOf('employee', e.problem));
      else changes.employee = e.value;
    }
    if ('status' in patch) {
      const s = statusOf(patch.status);
      if ('problem' in s) errors.push(fieldErrorOf('status', s.problem));
      else changes.status = s.value;
    }
    if ('note' in patch) {
      const n = noteOf(patch.note);
      if ('problem' in n) errors.push(fieldErrorOf('note', n.problem));
      else changes.note = n.value;
    }
    const unchanged: Record<string, (v: unknown) => boolean> = {
      // a new method's last five was read above; the old one, sent back as it was, is fine
      last_five: (v) =>
        v === row.last_five || (methodChanged && (method === METHOD_TRANSFER || v === NO_LAST_FIVE || v === null)),
      amount: (v) => Number(v) === Number(row.amount),
      paid_at: (v) => typeof v === 'string' && parseInstant(v) === Number(row.paid_at),
      store_id: (v) => toId(v) === Number(row.store_id),
      uuid: (v) => v === row.uuid,
      id: (v) => v === row.uuid,
    };
    for (const [field, same] of Object.entries(unchanged)) {
      if (field in patch && !same(patch[field])) errors.push(fieldError(field, 'payment_read_only_field'));
    }
    if (errors.length) throw new ValidationError(errors);
    // A payment linked to a bank line is 已入帳 because of that line: its status changes only
    // through 取消對帳, so a link and a status never disagree. Its note stays editable.
    const link = (await trx('bank_links').where({ payment_uuid: row.uuid }).first('line_id')) as
      | { line_id: number | string }
      | undefined;
    if (link && methodChanged) throw new ConflictError(problem('method_change_linked'));
    if (changes.status !== undefined && changes.status !== row.status && link)
      throw new ConflictError(problem('reconcile_payment_linked'));
    // The answer is the row as the list shows it (its link, its submitter), so a screen that takes
    // it in place of the row it showed keeps its 取消對帳 and its 提交者.
    const bank_line_id = link ? Number(link.line_id) : null;
    const submitter =
      row.created_by === null
        ? undefined
        : ((await trx('users').where({ id: row.created_by }).first('username')) as { username: string } | undefined);
    const listed = { bank_line_id, created_by_username: submitter?.username ?? null };

    const before = toPayment(row);
    const stored = {
      ...row,
      employee: Boolean(row.employee),
      method: oldMethod,
      method_detail: row.method_detail ?? null,
    } as Record<string, unknown>;
    for (const [k, v] of Object.entries(changes)) if (stored[k] === v) delete (changes as Record<string, unknown>)[k];
    if (Object.keys(changes).length === 0) return { ...before, ...listed };
    // A 現金 payment (or one becoming 現金, or ceasing to be) of a closed day: the lock of core/closes.
    if (oldMethod === METHOD_CASH || changes.method === METHOD_CASH) {
      await assertDayOpenForCash(trx, ctx, Number(row.store_id), Number(row.paid_at), {
        entity: 'payment',
        id: row.uuid,
        action: 'update',
      });
    }
    const updated: PaymentRow = { ...row, ...changes, updated_at: Date.now() };
    // Deleted by someone else since it was read: nothing was updated, and nothing is audited.
    const n = await trx('payments')
      .where({ uuid: row.uuid })
      .update({ ...changes, updated_at: updated.updated_at });
    if (n === 0) throw new NotFoundError(problem('payment_not_found'));
    const after = toPayment(updated);
    await recordAudit(trx, ctx, { action: 'update', entity: 'payment', entityId: row.uuid, before, after });
    return { ...after, ...listed };
  });
}

export async function deletePayment(ctx: ServiceContext, id: unknown): Promise<Payment> {
  requirePermission(ctx.actor, 'delete_payments');
  return ctx.db.transaction(async (trx) => {
    const before = toPayment(await loadForActor(trx, ctx, id));
    if (before.method === METHOD_CASH)
      await assertDayOpenForCash(trx, ctx, before.store_id, Date.parse(before.paid_at), {
        entity: 'payment',
        id: before.uuid,
        action: 'delete',
      });
    if ((await trx('payments').where({ uuid: before.uuid }).delete()) === 0)
      throw new NotFoundError(problem('payment_not_found'));
    await recordAudit(trx, ctx, { action: 'delete', entity: 'payment', entityId: before.uuid, before });
    return before;
  });
}

/** Batch delete: all or nothing; one payment outside the caller's stores refuses the batch. */
export async function deletePayments(ctx: ServiceContext, uuids: unknown): Promise<{ deleted: number }> {
  requirePermission(ctx.actor, 'delete_payments');
  if (
    !Array.isArray(uuids) ||
    uuids.length === 0 ||
    !uuids.every((u) => typeof u === 'string' && u.length > 0 && u.length <= 64)
  ) {
    throw ValidationError.single('uuids', 'uuids_required');
  }
  if (uuids.length > MAX_BATCH_DELETE)
    throw ValidationError.single('uuids', 'uuids_too_many', { limit: MAX_BATCH_DELETE });
  const unique = [...new Set(uuids as string[])];
  return ctx.db.transaction(async (trx) => {
    const rows: PaymentRow[] = [];
    for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
      rows.push(
        ...((await trx<PaymentRow>('payments')
          .whereIn('uuid', unique.slice(i, i + INSERT_CHUNK))
          .select('*')) as PaymentRow[]),
      );
    }
    if (rows.some((r) => !inScope(ctx.actor, Number(r.store_id))))
      throw new ForbiddenError(problem('payment_store_forbidden'));
    // a 現金 payment of a closed day refuses the batch (or, for manage_payments, is marked after the close)
    const cash = rows
      .filter((r) => r.method === METHOD_CASH)
      .sort((a, b) => Number(a.store_id) - Number(b.store_id) || Number(a.paid_at) - Number(b.paid_at));
    for (const r of cash)
      await assertDayOpenForCash(trx, ctx, Number(r.store_id), Number(r.paid_at), {
        entity: 'payment',
        id: r.uuid,
        action: 'delete',
      });
    return { deleted: (await removePaymentRows(trx, ctx, rows)).length };
  });
}

/**
 * Deletes payments read in `trx`, each with its audit entry (which keeps the payment); answers
 * those deleted. On PostgreSQL they are locked and read again first, unless the caller read them
 * `locked` (FOR UPDATE), so of two deletes at once the second finds them gone and nothing is
 * audited twice; SQLite's one writer takes turns already.
 */
export async function removePaymentRows(
  trx: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  rows: PaymentRow[],
  locked = false,
): Promise<PaymentRow[]> {
  const chunks = (list: PaymentRow[]) =>
    Array.from({ length: Math.ceil(list.length / INSERT_CHUNK) }, (_, i) =>
      list.slice(i * INSERT_CHUNK, (i + 1) * INSERT_CHUNK).map((r) => r.uuid),
    );
  let kept = rows;
  if (isPostgres(trx) && !locked) {
    kept = [];
    for (const uuids of chunks(rows))
      kept.push(
        ...((await trx<PaymentRow>('payments')
          .whereIn('uuid', uuids)
          .orderBy('uuid')
          .forUpdate()
          .select('*')) as PaymentRow[]),
      );
  }
  for (const uuids of chunks(kept)) await trx('payments').whereIn('uuid', uuids).delete();
  await recordAuditMany(
    trx,
    ctx,
    kept.map((r) => ({
      action: 'delete' as const,
      entity: 'payment' as const,
      entityId: r.uuid,
      before: toPayment(r),
    })),
  );
  return kept;
}
