/**
 * Payment form rules (spec section 5): used by the submission page before sending,
 * by the server for every create, and by the import for every row.
 */
import { problem, type Problem } from '../errors.js';
import { MAX_AMOUNT, MIN_AMOUNT } from '../money.js';
import { isStatus, type PaymentStatus } from './statuses.js';
import { DAY_MS, MAX_INSTANT, MIN_INSTANT, parseInstant } from '../time.js';
import { FieldErrors, isBlank, isPlainObject, toId, type Validated } from '../validation.js';

import { LAST_FIVE_LENGTH, NOTE_MAX_LENGTH } from '../limits.js';

export { LAST_FIVE_LENGTH, NOTE_MAX_LENGTH };

export interface PaymentInput {
  last_five: string;
  /** UTC instant, ms */
  paid_at: number;
  amount: number;
  note: string;
  /** null when the form sent none: the service falls back to the user's store, then 1 */
  store_id: number | null;
}

const LAST_FIVE = new RegExp(`^\\d{${LAST_FIVE_LENGTH}}$`);

/** What is wrong with the last five, or null. */
export function lastFiveProblem(v: unknown): Problem | null {
  if (isBlank(v)) return problem('last_five_required');
  if (typeof v !== 'string' || !LAST_FIVE.test(v.trim())) return problem('last_five_format', { length: LAST_FIVE_LENGTH });
  return null;
}

export function checkLastFive(v: unknown): string | null {
  return lastFiveProblem(v)?.message ?? null;
}

/** An amount in whole NT$ (a number or its text, MIN_AMOUNT to MAX_AMOUNT), or its problem. */
export function amountOf(v: unknown): { value: number } | { problem: Problem } {
  if (isBlank(v)) return { problem: problem('amount_required') };
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i.test(v)) n = Number(v);
  else return { problem: problem('amount_numeric') };
  if (!Number.isFinite(n)) return { problem: problem('amount_numeric') };
  if (n < MIN_AMOUNT) return { problem: problem('amount_min', { limit: MIN_AMOUNT }) };
  if (!Number.isInteger(n)) return { problem: problem('amount_integer') };
  if (n > MAX_AMOUNT) return { problem: problem('amount_max', { limit: MAX_AMOUNT }) };
  return { value: n };
}

/** `amountOf` with the problem said as text, for a form that shows it. */
export function parseAmount(v: unknown): { value?: number; error?: string } {
  return textual(amountOf(v));
}

/** `{value}` or `{error: message}`, as the forms read a field. */
function textual<T>(r: { value: T } | { problem: Problem }): { value?: T; error?: string } {
  return 'problem' in r ? { error: r.problem.message } : { value: r.value };
}

/** A payment time (an ISO instant, or Taiwan wall-clock text as a datetime-local field sends it), or its problem. */
export function paidAtOf(v: unknown): { value: number } | { problem: Problem } {
  if (isBlank(v)) return { problem: problem('paid_at_required') };
  if (typeof v !== 'string') return { problem: problem('paid_at_invalid') };
  const ms = parseInstant(v);
  if (ms === null) return { problem: problem('paid_at_invalid') };
  if (ms < MIN_INSTANT || ms >= MAX_INSTANT) return { problem: problem('paid_at_out_of_range') };
  return { value: ms };
}

export function parsePaidAt(v: unknown): { value?: number; error?: string } {
  return textual(paidAtOf(v));
}

/** The server refuses a payment time more than this far ahead of its clock. */
export const PAID_AT_MAX_AHEAD_MS = DAY_MS;
/** The form asks "確定沒有填錯嗎？" for a time more than this far ahead (clocks differ a little)… */
export const PAID_AT_CONFIRM_AHEAD_MS = 5 * 60 * 1000;
/** …or more than this many days back. */
export const PAID_AT_CONFIRM_BACK_DAYS = 60;

/** The server's rule for a new payment: a time over a day ahead is a typing mistake. */
export function paidAtAheadProblem(paidAt: number, now: number): Problem | null {
  return paidAt > now + PAID_AT_MAX_AHEAD_MS ? problem('paid_at_too_far_ahead') : null;
}

/** The form's softer rule: a time a person should look at twice before sending. */
export function paidAtNeedsConfirm(paidAt: number, now: number): { ahead: true } | { daysBack: number } | null {
  if (paidAt > now + PAID_AT_CONFIRM_AHEAD_MS) return { ahead: true };
  const daysBack = Math.floor((now - paidAt) / DAY_MS);
  return daysBack > PAID_AT_CONFIRM_BACK_DAYS ? { daysBack } : null;
}

/** A note (trimmed; none is empty), or its problem. */
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

export function statusOf(v: unknown): { value: PaymentStatus } | { problem: Problem } {
  return isStatus(v) ? { value: v } : { problem: problem('status_invalid') };
}

export function parseStatus(v: unknown): { value?: PaymentStatus; error?: string } {
  return textual(statusOf(v));
}

/**
 * Checks a submitted payment. `storeRequired` is the form's rule when the branch select is
 * shown; the server leaves it off and applies the fallback instead. `now`: refuse a time over a
 * day ahead of it (a new payment, and every row of an import: one rule; older times are kept as written).
 */
export function validatePayment(raw: unknown, opts: { storeRequired?: boolean; now?: number } = {}): Validated<PaymentInput> {
  const errors = new FieldErrors();
  const input = isPlainObject(raw) ? raw : {};
  if (!isPlainObject(raw)) errors.add('body', 'body_not_object');

  const lastFive = lastFiveProblem(input.last_five);
  if (lastFive) errors.addProblem('last_five', lastFive);
  const paidAt = paidAtOf(input.paid_at);
  if ('problem' in paidAt) errors.addProblem('paid_at', paidAt.problem);
  else if (opts.now !== undefined) {
    const ahead = paidAtAheadProblem(paidAt.value, opts.now);
    if (ahead) errors.addProblem('paid_at', ahead);
  }
  const amount = amountOf(input.amount);
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

  // the field problems are all in `errors`; the checks below only narrow the types
  if (!errors.empty || 'problem' in paidAt || 'problem' in amount || 'problem' in note) return { ok: false, errors: errors.list };
  return {
    ok: true,
    value: {
      last_five: (input.last_five as string).trim(),
      paid_at: paidAt.value,
      amount: amount.value,
      note: note.value,
      store_id: storeId,
    },
  };
}
