/** Payment form rules (spec section 5), shared by the submission page, the server and the import. */
import { asciiDigits } from '../halfWidth.js';
import { problem, type Problem } from '../errors.js';
import { MAX_AMOUNT, MIN_AMOUNT } from '../money.js';
import { isStatus, type PaymentStatus } from '../paymentStatuses.js';
import {
  DEFAULT_METHOD,
  hasMethodDetail,
  isPaymentMethod,
  METHOD_DETAIL_MAX,
  needsLastFive,
  NO_LAST_FIVE,
  type PaymentMethod,
} from '../paymentMethods.js';
import { DAY_MS, MAX_INSTANT, MIN_INSTANT, parseInstant } from '../time.js';
import { FieldErrors, isBlank, isPlainObject, toId, type Validated } from '../validation.js';

import { LAST_FIVE_LENGTH, NOTE_MAX_LENGTH } from '../limits.js';

export { NOTE_MAX_LENGTH };

interface PaymentInput {
  method: PaymentMethod;
  method_detail: string | null;
  employee: boolean;
  /** five digits for a transfer, '' for every other method */
  last_five: string;
  /** UTC instant, ms */
  paid_at: number;
  amount: number;
  note: string;
  /** null when the form sent none: the service falls back to the user's store, then 1 */
  store_id: number | null;
}

const LAST_FIVE = new RegExp(`^\\d{${LAST_FIVE_LENGTH}}$`);

function lastFiveProblem(v: unknown): Problem | null {
  if (isBlank(v)) return problem('last_five_required');
  if (typeof v !== 'string' || !LAST_FIVE.test(asciiDigits(v.trim())))
    return problem('last_five_format', { length: LAST_FIVE_LENGTH });
  return null;
}

export function checkLastFive(v: unknown): string | null {
  return lastFiveProblem(v)?.message ?? null;
}

/** Words time and amount problems by the method: 匯款時間 for a transfer, 時間 for takings in hand. */
function worded(method?: PaymentMethod): { method?: string } {
  return method === undefined || method === DEFAULT_METHOD ? {} : { method };
}

/** An amount in whole NT$ (a number or its text), or its problem. */
export function amountOf(v: unknown, method?: PaymentMethod): { value: number } | { problem: Problem } {
  const w = worded(method);
  if (isBlank(v)) return { problem: problem('amount_required', w) };
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i.test(asciiDigits(v)))
    n = Number(asciiDigits(v));
  else return { problem: problem('amount_numeric', w) };
  if (!Number.isFinite(n)) return { problem: problem('amount_numeric', w) };
  if (n < MIN_AMOUNT) return { problem: problem('amount_min', { limit: MIN_AMOUNT, ...w }) };
  if (!Number.isInteger(n)) return { problem: problem('amount_integer', w) };
  if (n > MAX_AMOUNT) return { problem: problem('amount_max', { limit: MAX_AMOUNT, ...w }) };
  return { value: n };
}

export function parseAmount(v: unknown): { value?: number; error?: string } {
  return textual(amountOf(v));
}

function textual<T>(r: { value: T } | { problem: Problem }): { value?: T; error?: string } {
  return 'problem' in r ? { error: r.problem.message } : { value: r.value };
}

/** An ISO instant, or Taiwan wall-clock text as a datetime-local field sends it, or its problem. */
function paidAtOf(v: unknown, method?: PaymentMethod): { value: number } | { problem: Problem } {
  if (isBlank(v)) return { problem: problem('paid_at_required', worded(method)) };
  if (typeof v !== 'string') return { problem: problem('paid_at_invalid') };
  const ms = parseInstant(v);
  if (ms === null) return { problem: problem('paid_at_invalid') };
  if (ms < MIN_INSTANT || ms >= MAX_INSTANT) return { problem: problem('paid_at_out_of_range', worded(method)) };
  return { value: ms };
}

export function parsePaidAt(v: unknown): { value?: number; error?: string } {
  return textual(paidAtOf(v));
}

const PAID_AT_MAX_AHEAD_MS = DAY_MS;
/** The form asks "確定沒有填錯嗎？" for a time more than this far ahead (clocks differ a little) or this many days back. */
const PAID_AT_CONFIRM_AHEAD_MS = 5 * 60 * 1000;
const PAID_AT_CONFIRM_BACK_DAYS = 60;

/** The server's rule for a new payment: a time over a day ahead is a typing mistake (older times are kept). */
export function paidAtAheadProblem(paidAt: number, now: number, method?: PaymentMethod): Problem | null {
  return paidAt > now + PAID_AT_MAX_AHEAD_MS ? problem('paid_at_too_far_ahead', worded(method)) : null;
}

/** The form's softer rule: a time to look at twice before sending. */
export function paidAtNeedsConfirm(paidAt: number, now: number): { ahead: true } | { daysBack: number } | null {
  if (paidAt > now + PAID_AT_CONFIRM_AHEAD_MS) return { ahead: true };
  const daysBack = Math.floor((now - paidAt) / DAY_MS);
  return daysBack > PAID_AT_CONFIRM_BACK_DAYS ? { daysBack } : null;
}

export function noteOf(v: unknown): { value: string } | { problem: Problem } {
  if (v === undefined || v === null) return { value: '' };
  if (typeof v !== 'string') return { problem: problem('note_type') };
  const note = v.trim();
  if (note.length > NOTE_MAX_LENGTH) return { problem: problem('note_too_long', { limit: NOTE_MAX_LENGTH }) };
  return { value: note };
}

export function parseNote(v: unknown): { value?: string; error?: string } {
  return textual(noteOf(v));
}

export function methodOf(v: unknown): { value: PaymentMethod } | { problem: Problem } {
  if (isBlank(v)) return { value: DEFAULT_METHOD };
  const m = typeof v === 'string' ? v.trim() : v;
  return isPaymentMethod(m) ? { value: m } : { problem: problem('method_invalid') };
}

/** An e-payment's sub-type; another method takes none. */
export function methodDetailOf(v: unknown, method: PaymentMethod): { value: string | null } | { problem: Problem } {
  if (isBlank(v)) return { value: null };
  if (typeof v !== 'string') return { problem: problem('method_detail_type') };
  if (!hasMethodDetail(method)) return { problem: problem('method_detail_not_epay') };
  const detail = v.trim();
  if (detail.length > METHOD_DETAIL_MAX)
    return { problem: problem('method_detail_too_long', { limit: METHOD_DETAIL_MAX }) };
  // the export's page text joins fields with commas and lines
  if (/[,\r\n]/.test(detail)) return { problem: problem('method_detail_chars') };
  return { value: detail };
}

export function employeeOf(v: unknown): { value: boolean } | { problem: Problem } {
  if (v === undefined || v === null) return { value: false };
  return typeof v === 'boolean' ? { value: v } : { problem: problem('employee_invalid') };
}

/** Five digits for a transfer, none for the others (a value sent is refused, not dropped). */
export function lastFiveFor(v: unknown, method: PaymentMethod): { value: string } | { problem: Problem } {
  if (needsLastFive(method)) {
    const p = lastFiveProblem(v);
    return p ? { problem: p } : { value: asciiDigits((v as string).trim()) };
  }
  return isBlank(v) ? { value: NO_LAST_FIVE } : { problem: problem('last_five_not_needed', { method }) };
}

export function statusOf(v: unknown): { value: PaymentStatus } | { problem: Problem } {
  return isStatus(v) ? { value: v } : { problem: problem('status_invalid') };
}

export function parseStatus(v: unknown): { value?: PaymentStatus; error?: string } {
  return textual(statusOf(v));
}

interface MethodInput {
  method: PaymentMethod;
  method_detail: string | null;
  employee: boolean;
  last_five: string;
}

/** The method part of a payment alone: one rule for the form and the back office's 修改付款方式 dialog. */
export function validateMethod(raw: unknown, errors = new FieldErrors()): Validated<MethodInput> {
  const input = isPlainObject(raw) ? raw : {};
  const method = methodOf(input.method);
  if ('problem' in method) errors.addProblem('method', method.problem);
  const methodValue = 'problem' in method ? DEFAULT_METHOD : method.value;
  // a method not understood: its own problem says so, the last five and sub-type wait for it
  const lastFive = 'problem' in method ? { value: '' } : lastFiveFor(input.last_five, methodValue);
  if ('problem' in lastFive) errors.addProblem('last_five', lastFive.problem);
  const detail = 'problem' in method ? { value: null } : methodDetailOf(input.method_detail, methodValue);
  if ('problem' in detail) errors.addProblem('method_detail', detail.problem);
  const employee = employeeOf(input.employee);
  if ('problem' in employee) errors.addProblem('employee', employee.problem);
  if ('problem' in lastFive || 'problem' in detail || 'problem' in employee || !errors.empty)
    return { ok: false, errors: errors.list };
  return {
    ok: true,
    value: { method: methodValue, method_detail: detail.value, employee: employee.value, last_five: lastFive.value },
  };
}

/** Checks a submitted payment; `storeRequired` when the form shows the branch select, `now` refuses times a day ahead. */
export function validatePayment(
  raw: unknown,
  opts: { storeRequired?: boolean; now?: number } = {},
): Validated<PaymentInput> {
  const errors = new FieldErrors();
  const input = isPlainObject(raw) ? raw : {};
  if (!isPlainObject(raw)) errors.add('body', 'body_not_object');

  const how = validateMethod(input, errors);
  // the time and amount are worded by the method (a method not understood: as a transfer's)
  const m = methodOf(input.method);
  const method = 'value' in m ? m.value : undefined;
  const paidAt = paidAtOf(input.paid_at, method);
  if ('problem' in paidAt) errors.addProblem('paid_at', paidAt.problem);
  else if (opts.now !== undefined) {
    const ahead = paidAtAheadProblem(paidAt.value, opts.now, method);
    if (ahead) errors.addProblem('paid_at', ahead);
  }
  const amount = amountOf(input.amount, method);
  if ('problem' in amount) errors.addProblem('amount', amount.problem);
  const note = noteOf(input.note);
  if ('problem' in note) errors.addProblem('note', note.problem);

  let storeId: number | null = null;
  if (isBlank(input.store_id)) {
    if (opts.storeRequired) errors.add('store_id', 'store_required');
  } else {
    storeId = toId(input.store_id);
    if (storeId === null) errors.add('store_id', 'store_invalid');
  }

  // the problems are all in `errors`; the rest only narrows the types
  if (!errors.empty || !how.ok || 'problem' in paidAt || 'problem' in amount || 'problem' in note)
    return { ok: false, errors: errors.list };
  return {
    ok: true,
    value: {
      ...how.value,
      paid_at: paidAt.value,
      amount: amount.value,
      note: note.value,
      store_id: storeId,
    },
  };
}
