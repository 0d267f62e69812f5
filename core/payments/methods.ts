/**
 * Payment methods (issue 26): how money came into the store. Stored in Chinese, as statuses are.
 * Only a transfer (匯款) is reported by its account's last five digits, starts 未確認 and is
 * matched against bank lines; cash, card and e-payments are takings in hand: no last five
 * (stored as the empty text, the column stays not null), 已入帳 from the start, never proposed
 * against a bank line. Pure: the back office imports this file.
 */
import { METHOD_DETAIL_MAX } from '../limits.js';
import { STATUS_CREDITED, STATUS_PENDING, type PaymentStatus } from './statuses.js';

export { METHOD_DETAIL_MAX };

export const PAYMENT_METHODS = ['匯款', '現金', '刷卡', '電子支付'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const METHOD_TRANSFER: PaymentMethod = '匯款';
export const METHOD_CASH: PaymentMethod = '現金';
export const METHOD_CARD: PaymentMethod = '刷卡';
export const METHOD_EPAY: PaymentMethod = '電子支付';
/** The method of a payment that names none: every payment stored before methods existed, an empty spreadsheet cell. */
export const DEFAULT_METHOD: PaymentMethod = METHOD_TRANSFER;

/** What a payment without a last five stores in `last_five`. */
export const NO_LAST_FIVE = '';

/** Sub-types the form offers for 電子支付 (free text: another one may be typed). */
export const EPAY_KINDS = ['LINE Pay', '街口支付', '全支付', '悠遊付', 'Apple Pay', 'Google Pay', '台灣Pay'] as const;

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** Only a transfer asks for the account's last five digits. */
export function needsLastFive(method: PaymentMethod): boolean {
  return method === METHOD_TRANSFER;
}

/** Only a transfer takes part in reconciliation (proposed against bank lines, counted unpaid or unreported). */
export function reconciles(method: PaymentMethod | string | undefined | null): boolean {
  return method === undefined || method === null || method === METHOD_TRANSFER;
}

/** Only an e-payment has a sub-type. */
export function hasMethodDetail(method: PaymentMethod): boolean {
  return method === METHOD_EPAY;
}

/** The status a new payment of this method starts in: a transfer waits for the bank, takings in hand are in. */
export function initialStatus(method: PaymentMethod): PaymentStatus {
  return method === METHOD_TRANSFER ? STATUS_PENDING : STATUS_CREDITED;
}
