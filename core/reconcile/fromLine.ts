/** A credit no report explains: make the payment from the line, or find by hand the report it pays. */
import { ConflictError, fieldErrorOf, ForbiddenError, NotFoundError, problem, ValidationError } from '../errors.js';
import { recordAudit } from '../audit/service.js';
import type { ServiceContext } from '../context.js';
import { requirePermission } from '../guard.js';
import { actorUserId } from '../actor.js';
import { toPayment, type PaymentRow } from '../payments/rows.js';
import { findStore } from '../stores/service.js';
import { inScope, storeScope } from '../permissions.js';
import { toId } from '../validation.js';
import { initialStatus, METHOD_TRANSFER } from '../paymentMethods.js';
import { STATUS_CREDITED, STATUS_PENDING } from '../paymentStatuses.js';
import { lastFiveFor, noteOf } from '../payments/validate.js';
import { insertPayments, newPaymentRow } from '../payments/writer.js';
import { isUniqueViolation, lockLines, scopedLines, toBankLine } from './service.js';
import type { BankLine, ReconciledPayment } from './types.js';
import { lastFiveShown, mayMakePaymentOf } from './credit.js';

type ScopedLine = Parameters<typeof toBankLine>[0] & { linked: number | null };

async function openCredit(ctx: ServiceContext, db: ServiceContext['db'], raw: unknown): Promise<ScopedLine> {
  const id = toId(raw);
  const l =
    id === null ? undefined : ((await scopedLines(ctx, db).where('l.id', id).first()) as ScopedLine | undefined);
  if (!l) throw new NotFoundError(problem('reconcile_line_not_found', { id: String(raw) }));
  if (l.linked !== null && l.linked !== undefined) throw new ConflictError(problem('reconcile_line_taken'), 'line');
  if (Number(l.amount) <= 0) throw ValidationError.single('line', 'reconcile_line_not_credit', { id: Number(l.id) });
  return l;
}

/** The last five the bank shows, else the one the accountant typed. */
function lastFiveOf(line: { digits: string }, typed: unknown): string {
  const shown = lastFiveShown(line.digits);
  if (shown) return shown;
  const five = lastFiveFor(typed, METHOD_TRANSFER);
  if ('problem' in five) throw new ValidationError([fieldErrorOf('last_five', five.problem)]);
  return five.value;
}

/** The store chosen, else the line's statement's, else the caller's only store; a store's line pays that store only. */
async function storeFor(
  ctx: ServiceContext,
  db: ServiceContext['db'],
  line: ScopedLine,
  raw: unknown,
): Promise<number> {
  const fixed = line.store_id === null ? null : Number(line.store_id);
  const scope = storeScope(ctx.actor);
  if (!mayMakePaymentOf(ctx.actor, { store_id: fixed }))
    throw new ForbiddenError(problem('reconcile_shared_line', { id: Number(line.id) }));
  const only = !scope.all && scope.ids.length === 1 ? scope.ids[0] : null;
  const id = raw === undefined || raw === null || raw === '' ? (fixed ?? only) : toId(raw);
  if (id === null) throw ValidationError.single('store_id', 'reconcile_store_required');
  if (!(await findStore(db, id))) throw new NotFoundError(problem('store_not_found'));
  if (!inScope(ctx.actor, id)) throw new ForbiddenError(problem('payment_store_forbidden'));
  if (fixed !== null && fixed !== id)
    throw ValidationError.single('store_id', 'reconcile_other_store', { id: Number(line.id) });
  return id;
}

/** A payment made from a bank line, 已入帳 and linked; of two made from one line at once, the second is refused (409). */
export async function createFromLine(
  ctx: ServiceContext,
  input: { line?: unknown; store_id?: unknown; last_five?: unknown; note?: unknown },
): Promise<ReconciledPayment> {
  requirePermission(ctx.actor, 'confirm_payments');
  const note = noteOf(input.note);
  if ('problem' in note) throw new ValidationError([fieldErrorOf('note', note.problem)]);
  try {
    return await ctx.db.transaction(async (trx) => {
      // the line taken by a confirmation meanwhile (PostgreSQL) is then seen as taken
      await lockLines(trx, [input.line]);
      const line = await openCredit(ctx, trx, input.line);
      const storeId = await storeFor(ctx, trx, line, input.store_id);
      const now = Date.now();
      const fields = {
        store_id: storeId,
        last_five: lastFiveOf(line, input.last_five),
        paid_at: Number(line.at),
        amount: Number(line.amount),
        note: note.value,
        method: METHOD_TRANSFER,
        status: STATUS_CREDITED,
        fromBank: true,
      };
      const row: PaymentRow = newPaymentRow(ctx.actor, fields, now);
      await insertPayments(trx, [row]);
      // 取消對帳 puts it where a report starts (未確認): the bank line was the only evidence
      await trx('bank_links').insert({
        payment_uuid: row.uuid,
        line_id: Number(line.id),
        status_before: initialStatus(METHOD_TRANSFER),
        decided_by: 'person',
        actor_id: actorUserId(ctx.actor),
        score: null,
        reasons: JSON.stringify([]),
        at: now,
      });
      const payment: ReconciledPayment = { ...toPayment(row), bank_line_id: Number(line.id) };
      // no payer memory: the last five came from this line, not from a customer's report
      await recordAudit(trx, ctx, {
        action: 'create',
        entity: 'payment',
        entityId: row.uuid,
        after: { ...payment, reconcile: { line: toBankLine({ ...line, payment_uuid: row.uuid }), by: 'person' } },
      });
      return payment;
    });
  } catch (err) {
    // the line linked by another request meanwhile (PostgreSQL: the unique link, on commit)
    if (isUniqueViolation(err)) throw new ConflictError(problem('reconcile_line_taken'), 'line');
    throw err;
  }
}

const REPORTS_FOR_LINE = 30;

/** Open transfers a person may link a credit to by hand: the line's amount first, then the nearest in time. */
export async function reportsForLine(
  ctx: ServiceContext,
  rawLine: unknown,
  rawQuery: unknown,
): Promise<{ line: BankLine; reports: ReconciledPayment[] }> {
  requirePermission(ctx.actor, 'confirm_payments');
  const line = await openCredit(ctx, ctx.db, rawLine);
  const q = ctx
    .db('payments as p')
    .leftJoin('bank_links as k', 'k.payment_uuid', 'p.uuid')
    .whereNull('k.line_id')
    .where({ 'p.method': METHOD_TRANSFER, 'p.status': STATUS_PENDING })
    .select('p.*');
  const scope = storeScope(ctx.actor);
  if (line.store_id !== null) q.where('p.store_id', Number(line.store_id));
  if (!scope.all) q.whereIn('p.store_id', scope.ids);
  const text = typeof rawQuery === 'string' ? rawQuery.trim().slice(0, 50) : '';
  if (text) searchReports(q, text);
  const rows = (await q
    .orderByRaw('case when p.amount = ? then 0 else 1 end', [Number(line.amount)])
    .orderByRaw('abs(p.paid_at - ?)', [Number(line.at)])
    .orderBy('p.uuid')
    .limit(REPORTS_FOR_LINE)) as PaymentRow[];
  return { line: toBankLine(line), reports: rows.map((r) => ({ ...toPayment(r), bank_line_id: null })) };
}

/** Digits find a last five or an amount; anything else, the note. */
function searchReports(q: ReturnType<ServiceContext['db']>, text: string): void {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (/^\d+$/.test(text)) q.where((w) => w.where('p.last_five', 'like', like).orWhere('p.amount', Number(text)));
  else q.whereRaw("lower(p.note) like lower(?) escape '\\'", [like]);
}
