/**
 * Payment form rules (spec section 5): used by the submission page before sending,
 * by the server for every create, and by the import for every row.
 */
import { MSG } from '../messages.js';
import { MAX_AMOUNT, MIN_AMOUNT } from '../money.js';
import { isStatus, type PaymentStatus } from '../statuses.js';
import { DAY_MS, MAX_INSTANT, MIN_INSTANT, parseInstant } from '../time.js';
import { FieldErrors, isBlank, isPlainObject, toId, type Validated } from './result.js';

export const LAST_FIVE_LENGTH = 5;
export const NOTE_MAX_LENGTH = 1000;

export interface PaymentInput {
  last_five: string;
  /** UTC instant, ms */
  paid_at: number;
  amount: number;
  note: string;
  /** null when the form sent none: the service falls back to the user's store, then 1 */
  store_id: number | null;
}

export function checkLastFive(v: unknown): string | null {
  if (isBlank(v)) return MSG.lastFiveRequired;
  if (typeof v !== 'string' || !/^\d{5}$/.test(v.trim())) return MSG.lastFiveFormat;
  return null;
}

/** An amount in whole NT$: a number or its text, at least 1, at most 100 000 000. */
export function parseAmount(v: unknown): { value?: number; error?: string } {
  if (isBlank(v)) return { error: MSG.amountRequired };
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i.test(v)) n = Number(v);
  else return { error: MSG.amountNumeric };
  if (!Number.isFinite(n)) return { error: MSG.amountNumeric };
  if (n < MIN_AMOUNT) return { error: MSG.amountMin };
  if (!Number.isInteger(n)) return { error: MSG.amountInteger };
  if (n > MAX_AMOUNT) return { error: MSG.amountMax };
  return { value: n };
}

/** A payment time: an ISO instant, or Taiwan wall-clock text as a datetime-local field sends it. */
export function parsePaidAt(v: unknown): { value?: number; error?: string } {
  if (isBlank(v)) return { error: MSG.paidAtRequired };
  if (typeof v !== 'string') return { error: MSG.paidAtInvalid };
  const ms = parseInstant(v);
  if (ms === null) return { error: MSG.paidAtInvalid };
  if (ms < MIN_INSTANT || ms >= MAX_INSTANT) return { error: MSG.paidAtOutOfRange };
  return { value: ms };
}

/** The server refuses a payment time more than this far ahead of its clock. */
export const PAID_AT_MAX_AHEAD_MS = DAY_MS;
/** The form asks "確定沒有填錯嗎？" for a time more than this far ahead (clocks differ a little)… */
export const PAID_AT_CONFIRM_AHEAD_MS = 5 * 60 * 1000;
/** …or more than this many days back. */
export const PAID_AT_CONFIRM_BACK_DAYS = 60;

/** The server's rule for a new payment: a time over a day ahead is a typing mistake. */
export function checkPaidAtNotAhead(paidAt: number, now: number): string | null {
  return paidAt > now + PAID_AT_MAX_AHEAD_MS ? MSG.paidAtTooFarAhead : null;
}

/** The form's softer rule: a time a person should look at twice before sending. */
export function paidAtNeedsConfirm(paidAt: number, now: number): { ahead: true } | { daysBack: number } | null {
  if (paidAt > now + PAID_AT_CONFIRM_AHEAD_MS) return { ahead: true };
  const daysBack = Math.floor((now - paidAt) / DAY_MS);
  return daysBack > PAID_AT_CONFIRM_BACK_DAYS ? { daysBack } : null;
}

export function parseNote(v: unknown): { value?: string; error?: string } {
  if (v === undefined || v === null) return { value: '' };
  if (typeof v !== 'string') return { error: MSG.noteType };
  const note = v.trim();
  if (note.length > NOTE_MAX_LENGTH) return { error: MSG.noteTooLong };
  return { value: note };
}

export function parseStatus(v: unknown): { value?: PaymentStatus; error?: string } {
  return isStatus(v) ? { value: v } : { error: MSG.statusInvalid };
}

/**
 * Checks a submitted payment. `storeRequired` is the form's rule when the branch select is
 * shown; the server leaves it off and applies the fallback instead. `now`: refuse a time over a
 * day ahead of it (a new payment, and every row of an import: one rule; older times are kept as written).
 */
export function validatePayment(raw: unknown, opts: { storeRequired?: boolean; now?: number } = {}): Validated<PaymentInput> {
  const errors = new FieldErrors();
  const input = isPlainObject(raw) ? raw : {};
  if (!isPlainObject(raw)) errors.add('body', MSG.bodyNotObject);

  const lastFiveError = checkLastFive(input.last_five);
  if (lastFiveError) errors.add('last_five', lastFiveError);
  const paidAt = parsePaidAt(input.paid_at);
  if (paidAt.error) errors.add('paid_at', paidAt.error);
  else if (opts.now !== undefined) {
    const ahead = checkPaidAtNotAhead(paidAt.value!, opts.now);
    if (ahead) errors.add('paid_at', ahead);
  }
  const amount = parseAmount(input.amount);
  if (amount.error) errors.add('amount', amount.error);
  const note = parseNote(input.note);
  if (note.error) errors.add('note', note.error);

  let storeId: number | null = null;
  if (isBlank(input.store_id)) {
    if (opts.storeRequired) errors.add('store_id', MSG.storeRequired);
  } else {
    storeId = toId(input.store_id);
    if (storeId === null) errors.add('store_id', MSG.storeInvalid);
  }

  if (!errors.empty) return { ok: false, errors: errors.list };
  return {
    ok: true,
    value: {
      last_five: (input.last_five as string).trim(),
      paid_at: paidAt.value!,
      amount: amount.value!,
      note: note.value!,
      store_id: storeId,
    },
  };
}
