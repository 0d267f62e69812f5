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
  type Problem,
} from '../errors.js';
import { MAX_BATCH_DELETE } from '../limits.js';
import { inScope, submissionStoreId, submitStoreRefusal } from '../permissions.js';
import type { PaymentStatus } from '../paymentStatuses.js';
import { initialStatus, METHOD_CASH, METHOD_TRANSFER, NO_LAST_FIVE, type PaymentMethod } from '../paymentMethods.js';
import { assertDayOpenForCash } from './closedDay.js';
import { parseInstant } from '../time.js';
import { toPayment, type PaymentRow } from './rows.js';
import { isDatabaseBusy, isForeignKeyViolation, isPostgres } from '../db/connect.js';
import type { ListedPayment, Payment } from '../types.js';
import { employeeOf, lastFiveFor, methodDetailOf, methodOf, noteOf, statusOf, validatePayment } from './validate.js';
import { isPlainObject, toId } from '../validation.js';
import { auditRow, recordAudit, recordAuditMany, type AuditRowInput } from '../audit/service.js';
import { Batcher, batcherFor, insertRows } from '../db/batch.js';
import type { ServiceContext, Db } from '../context.js';
import { deny, requirePermission, valid } from '../guard.js';
import { loadForActor } from './list.js';
import { DUPLICATE_KEY_COLUMNS, paymentDuplicateKey } from './duplicateKey.js';
import { lockForTransaction, LOCKS } from '../db/locks.js';
import { insertPayments, newPaymentRow, type NewPaymentFields } from './writer.js';
import { findReportKeys, keyReused, reportKeyId, saveReportKeys, type ReportKey } from './reportKeys.js';

/** rows per statement: keeps far below SQLite's and PostgreSQL's parameter limits */
const INSERT_CHUNK = 500;

interface NewPayment {
  row: PaymentRow;
  /** a 現金 payment of a closed day needs the writer's manage_payments */
  ctx: Pick<ServiceContext, 'actor' | 'ip'>;
  audit: AuditRowInput;
  /** the submitter saw the 可能重複 warning and sends it again on purpose */
  allowDuplicate: boolean;
  /** a customer's report: also a duplicate of one with the same store, last five and amount this near in time */
  nearWindowMs?: number;
  /** a customer's report attempt: sent again, it answers the payment it stored the first time */
  reportKey?: ReportKey;
}

interface Replayed {
  replayOf: string;
}
const isReplayed = (r: unknown): r is Replayed => typeof r === 'object' && r !== null && 'replayOf' in r;

/** A customer's report is checked against customers' reports only: else anyone with the link could probe for transfers. */
const fromCustomer = (i: NewPayment) => i.row.source === 'customer';

/** Rows with the same store, last five and amount, the time within `windowMs` either side. */
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

const nearKey = (r: PaymentRow) => `near|${r.store_id}|${r.last_five}|${r.amount}`;

/** Checks and writes new payments under one transaction's locks; a refusal fails only its own payment. */
async function writeNewPayments(db: Db, items: NewPayment[]): Promise<Array<PaymentRow | Replayed | Error>> {
  return db.transaction(async (trx) => {
    const now = Date.now();
    const known = await knownStoreIds(trx, items);
    const checked = items.filter((i) => !i.allowDuplicate && known.has(i.row.store_id));
    const keyed = items.filter((i) => i.reportKey && known.has(i.row.store_id)).map((i) => i.reportKey!);
    if (isPostgres(db) && (checked.length || keyed.length)) await lockDuplicateKeys(trx, checked, keyed);
    // read under the lock: a send of the same key waits for this one's commit
    const keptKeys = await findReportKeys(trx, keyed, now);
    const seen = await storedDuplicates(trx, checked);
    const batch: Batch = { items, known, keptKeys, ...seen, accepted: [], keptAt: new Map(), answeredBy: new Map() };
    const results = items.map((i, n) => judge(batch, i, n));
    await refuseClosedDaysCash(trx, items, results);
    // an attempt answered by one refused after all (a closed day) gets that refusal
    for (const [n, at] of batch.answeredBy) if (results[at] instanceof Error) results[n] = results[at];
    await insertAccepted(
      trx,
      items.filter((_, n) => !(results[n] instanceof Error) && !isReplayed(results[n])),
      now,
    );
    return results;
  });
}

async function knownStoreIds(trx: Db, items: NewPayment[]): Promise<Set<number>> {
  const storeIds = [...new Set(items.map((i) => i.row.store_id))];
  const rows = (await trx('stores').whereIn('id', storeIds).select('id')) as Array<{ id: number }>;
  return new Set(rows.map((s) => Number(s.id)));
}

/** PostgreSQL: the import lock shared (an import holds it until its rows are visible), then one lock per key. */
async function lockDuplicateKeys(trx: Db, checked: NewPayment[], keyed: ReportKey[]): Promise<void> {
  if (checked.length) await lockForTransaction(trx, LOCKS.import, { shared: true, bounded: true });
  // one sorted list of every key, so two batches never wait for each other
  const keys = new Set(
    checked.flatMap((i) =>
      i.nearWindowMs ? [paymentDuplicateKey(i.row), nearKey(i.row)] : [paymentDuplicateKey(i.row)],
    ),
  );
  for (const k of keyed) keys.add(`report key|${reportKeyId(k)}`);
  await lockForTransaction(trx, [...keys], { bounded: true });
}

/** What the batch's payments are checked against: stored payments, then those accepted before them. */
interface Seen {
  /** a duplicate key, to the first payment with it */
  earlier: Map<string, string>;
  earlierReported: Map<string, string>;
  /** a report's uuid, to the stored payment it is near */
  nearStored: Map<string, string>;
}

interface Batch extends Seen {
  items: NewPayment[];
  known: Set<number>;
  keptKeys: Awaited<ReturnType<typeof findReportKeys>>;
  accepted: PaymentRow[];
  /** a report key, to the batch index of the payment it stored */
  keptAt: Map<string, number>;
  /** an attempt answered by another in this batch, to that one's index (should it fail after all) */
  answeredBy: Map<number, number>;
}

/** Stored payments the checked ones may duplicate, exactly or near (read under the lock). */
async function storedDuplicates(trx: Db, checked: NewPayment[]): Promise<Seen> {
  const seen: Seen = { earlier: new Map(), earlierReported: new Map(), nearStored: new Map() };
  if (!checked.length) return seen;
  const hits = (await trx('payments')
    .whereIn('paid_at', [...new Set(checked.map((i) => i.row.paid_at))])
    .whereIn('last_five', [...new Set(checked.map((i) => i.row.last_five))])
    .orderBy('created_at', 'desc')
    .select('uuid', 'source', ...DUPLICATE_KEY_COLUMNS)) as PaymentRow[];
  for (const h of hits) {
    seen.earlier.set(paymentDuplicateKey(h), h.uuid);
    if (h.source === 'customer') seen.earlierReported.set(paymentDuplicateKey(h), h.uuid);
  }
  for (const i of checked) {
    if (!i.nearWindowMs) continue;
    const near = (await nearRows(trx, 'payments', i.row, i.nearWindowMs)
      .modify((q) => (fromCustomer(i) ? q.where('source', 'customer') : q))
      .first('uuid')) as { uuid: string } | undefined;
    if (near) seen.nearStored.set(i.row.uuid, near.uuid);
  }
  return seen;
}

function judge(b: Batch, i: NewPayment, n: number): PaymentRow | Replayed | Error {
  if (!b.known.has(i.row.store_id)) return ValidationError.single('store_id', 'store_not_found');
  const replay = i.reportKey && replayOf(b, i.reportKey, n);
  if (replay) return replay;
  const duplicate = i.allowDuplicate ? undefined : duplicateOf(b, i);
  if (duplicate) return new ConflictError(problem('possible_duplicate', { duplicate_of: duplicate }));
  const key = paymentDuplicateKey(i.row);
  b.earlier.set(key, i.row.uuid);
  if (fromCustomer(i)) b.earlierReported.set(key, i.row.uuid);
  b.accepted.push(i.row);
  if (i.reportKey) b.keptAt.set(reportKeyId(i.reportKey), n);
  return i.row;
}

function replayOf(b: Batch, key: ReportKey, n: number): Replayed | Error | undefined {
  const id = reportKeyId(key);
  const kept = b.keptKeys.get(id);
  if (kept) return kept.fingerprint === key.fingerprint ? { replayOf: kept.payment_uuid } : keyReused();
  const at = b.keptAt.get(id);
  if (at === undefined) return undefined;
  if (b.items[at].reportKey!.fingerprint !== key.fingerprint) return keyReused();
  b.answeredBy.set(n, at);
  return { replayOf: b.items[at].row.uuid };
}

function duplicateOf(b: Batch, i: NewPayment): string | undefined {
  const first = (fromCustomer(i) ? b.earlierReported : b.earlier).get(paymentDuplicateKey(i.row));
  if (first || !i.nearWindowMs) return first;
  const w = i.nearWindowMs;
  return (
    b.nearStored.get(i.row.uuid) ??
    b.accepted.find(
      (r) =>
        nearKey(r) === nearKey(i.row) &&
        Math.abs(r.paid_at - i.row.paid_at) <= w &&
        (!fromCustomer(i) || r.source === 'customer'),
    )?.uuid
  );
}

/** A closed day's 現金 payment fails alone. Days are locked in one order, so two batches never wait in a circle. */
async function refuseClosedDaysCash(
  trx: Db,
  items: NewPayment[],
  results: Array<PaymentRow | Replayed | Error>,
): Promise<void> {
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
}

async function insertAccepted(trx: Db, ok: NewPayment[], now: number): Promise<void> {
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
}

const paymentWriters = new WeakMap<object, Batcher<NewPayment, PaymentRow | Replayed>>();

/** A new payment from the form: a transfer from anyone signed in, takings in hand with record_takings. */
export async function createPayment(ctx: ServiceContext, input: unknown): Promise<Payment> {
  const now = Date.now();
  const value = valid(validatePayment(input, { now }));
  if (value.method !== METHOD_TRANSFER) requirePermission(ctx.actor, 'record_takings');
  const storeId = submissionStoreId(ctx.actor, value.store_id);
  deny(submitStoreRefusal(ctx.actor, storeId));
  const allowDuplicate = isPlainObject(input) && input.confirm_duplicate === true;
  return submitPayment(ctx, { ...value, store_id: storeId }, { allowDuplicate, now });
}

/** Writes one checked payment; submissions arriving together share a transaction, each retried alone if it fails. */
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
/** With `reportKey`: a key that already stored a payment answers `{ replayOf }`; with other fields, client_key_reused. */
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
          // held by a running import: each alone would wait as long again
          if (isDatabaseBusy(err)) return items.map(() => err as Error);
          // e.g. a store deleted meanwhile (PostgreSQL's foreign key refuses the row)
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

/** Changes status, note or method; the bank's fields sent unchanged pass, changed they are refused, not dropped. */
export async function updatePayment(ctx: ServiceContext, id: unknown, patch: unknown): Promise<ListedPayment> {
  requirePermission(ctx.actor, 'edit_payments');
  if (!isPlainObject(patch)) throw ValidationError.single('body', 'body_not_object');
  return ctx.db.transaction(async (trx) => {
    // locked on PostgreSQL so a reconciliation decision on this payment and this change take turns
    const row = await loadForActor(trx, ctx, id, { lock: true });
    const { changes, oldMethod, methodChanged } = readPatch(row, patch);
    const link = (await trx('bank_links').where({ payment_uuid: row.uuid }).first('line_id')) as
      | { line_id: number | string }
      | undefined;
    // a linked payment's status changes only through 取消對帳, so link and status never disagree
    if (link && methodChanged) throw new ConflictError(problem('method_change_linked'));
    if (changes.status !== undefined && changes.status !== row.status && link)
      throw new ConflictError(problem('reconcile_payment_linked'));
    const listed = await listedFields(trx, row, link);
    const changed = newValues(row, oldMethod, changes);
    if (Object.keys(changed).length === 0) return { ...toPayment(row), ...listed };
    return { ...(await saveChanges(trx, ctx, row, oldMethod, changed)), ...listed };
  });
}

interface PaymentChanges {
  status?: PaymentStatus;
  note?: string;
  method?: PaymentMethod;
  method_detail?: string | null;
  employee?: boolean;
  last_five?: string;
}

/** The changes asked for, or every refused field at once (400). */
function readPatch(
  row: PaymentRow,
  patch: Record<string, unknown>,
): { changes: PaymentChanges; oldMethod: PaymentMethod; methodChanged: boolean } {
  const errors: FieldError[] = [];
  const oldMethod: PaymentMethod = row.method ?? METHOD_TRANSFER;
  const changes = methodChanges(patch, oldMethod, errors);
  const methodChanged = changes.method !== undefined;
  const method = changes.method ?? oldMethod;
  const detail = sentField(patch, 'method_detail', (v) => methodDetailOf(v, method), errors);
  if (detail) changes.method_detail = detail.value;
  const employee = sentField(patch, 'employee', employeeOf, errors);
  if (employee) changes.employee = employee.value;
  const status = sentField(patch, 'status', statusOf, errors);
  if (status) changes.status = status.value;
  const note = sentField(patch, 'note', noteOf, errors);
  if (note) changes.note = note.value;
  errors.push(...readOnlyErrors(row, patch, method, methodChanged));
  if (errors.length) throw new ValidationError(errors);
  return { changes, oldMethod, methodChanged };
}

function sentField<T>(
  patch: Record<string, unknown>,
  field: string,
  read: (v: unknown) => { value: T } | { problem: Problem },
  errors: FieldError[],
): { value: T } | undefined {
  if (!(field in patch)) return undefined;
  const r = read(patch[field]);
  if ('problem' in r) errors.push(fieldErrorOf(field, r.problem));
  return 'problem' in r ? undefined : r;
}

/** A new method brings its own last five and, unless sent too, its first status and no sub-type. */
function methodChanges(patch: Record<string, unknown>, oldMethod: PaymentMethod, errors: FieldError[]): PaymentChanges {
  const method = sentField(patch, 'method', methodOf, errors)?.value ?? oldMethod;
  if (method === oldMethod) return {};
  const changes: PaymentChanges = { method };
  const lf = method === METHOD_TRANSFER ? lastFiveFor(patch.last_five, method) : { value: NO_LAST_FIVE };
  if ('problem' in lf) errors.push(fieldErrorOf('last_five', lf.problem));
  else changes.last_five = lf.value;
  if (!('status' in patch)) changes.status = initialStatus(method);
  if (!('method_detail' in patch)) changes.method_detail = null;
  return changes;
}

function readOnlyErrors(
  row: PaymentRow,
  patch: Record<string, unknown>,
  method: PaymentMethod,
  methodChanged: boolean,
): FieldError[] {
  const unchanged: Record<string, (v: unknown) => boolean> = {
    // a new method's last five was read with the method; the old one, sent back as it was, is fine
    last_five: (v) =>
      v === row.last_five || (methodChanged && (method === METHOD_TRANSFER || v === NO_LAST_FIVE || v === null)),
    amount: (v) => Number(v) === Number(row.amount),
    paid_at: (v) => typeof v === 'string' && parseInstant(v) === Number(row.paid_at),
    store_id: (v) => toId(v) === Number(row.store_id),
    uuid: (v) => v === row.uuid,
    id: (v) => v === row.uuid,
  };
  return Object.entries(unchanged)
    .filter(([field, same]) => field in patch && !same(patch[field]))
    .map(([field]) => fieldError(field, 'payment_read_only_field'));
}

/** What the list shows beside a payment, so a screen that swaps in the answer keeps its 取消對帳 and 提交者. */
async function listedFields(
  trx: Db,
  row: PaymentRow,
  link: { line_id: number | string } | undefined,
): Promise<Pick<ListedPayment, 'bank_line_id' | 'created_by_username'>> {
  const submitter =
    row.created_by === null
      ? undefined
      : ((await trx('users').where({ id: row.created_by }).first('username')) as { username: string } | undefined);
  return { bank_line_id: link ? Number(link.line_id) : null, created_by_username: submitter?.username ?? null };
}

function newValues(row: PaymentRow, oldMethod: PaymentMethod, changes: PaymentChanges): PaymentChanges {
  const stored = {
    ...row,
    employee: Boolean(row.employee),
    method: oldMethod,
    method_detail: row.method_detail ?? null,
  } as Record<string, unknown>;
  return Object.fromEntries(Object.entries(changes).filter(([k, v]) => stored[k] !== v)) as PaymentChanges;
}

async function saveChanges(
  trx: Db,
  ctx: ServiceContext,
  row: PaymentRow,
  oldMethod: PaymentMethod,
  changes: PaymentChanges,
): Promise<Payment> {
  if (oldMethod === METHOD_CASH || changes.method === METHOD_CASH) {
    await assertDayOpenForCash(trx, ctx, Number(row.store_id), Number(row.paid_at), {
      entity: 'payment',
      id: row.uuid,
      action: 'update',
    });
  }
  const updated: PaymentRow = { ...row, ...changes, updated_at: Date.now() };
  // deleted by someone else since it was read: nothing is audited
  const n = await trx('payments')
    .where({ uuid: row.uuid })
    .update({ ...changes, updated_at: updated.updated_at });
  if (n === 0) throw new NotFoundError(problem('payment_not_found'));
  const after = toPayment(updated);
  await recordAudit(trx, ctx, {
    action: 'update',
    entity: 'payment',
    entityId: row.uuid,
    before: toPayment(row),
    after,
  });
  return after;
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
 * Deletes payments read in `trx` with their audit; answers those deleted. On PostgreSQL they are re-read
 * FOR UPDATE unless `locked`, so of two deletes at once the second finds them gone and audits nothing.
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
