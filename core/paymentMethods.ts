// How money came into the store, stored in Chinese. Only a transfer (匯款) has a last five, starts 未確認
// and is matched against bank lines; takings in hand (cash, card, e-payment) are 已入帳 from the start.
import { METHOD_DETAIL_MAX } from './limits.js';
import { STATUS_CREDITED, STATUS_PENDING, type PaymentStatus } from './paymentStatuses.js';

export { METHOD_DETAIL_MAX };

export const PAYMENT_METHODS = ['匯款', '現金', '刷卡', '電子支付'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const METHOD_TRANSFER: PaymentMethod = '匯款';
export const METHOD_CASH: PaymentMethod = '現金';
export const METHOD_EPAY: PaymentMethod = '電子支付';
/** @alias the method of a payment that names none: one stored before methods, an empty cell */
export const DEFAULT_METHOD: PaymentMethod = METHOD_TRANSFER;

/** What a payment without a last five stores in `last_five`, a not-null column. */
export const NO_LAST_FIVE = '';

/** Sub-types the form offers for 電子支付 (free text: another one may be typed). */
export const EPAY_KINDS = ['LINE Pay', '街口支付', '全支付', '悠遊付', 'Apple Pay', 'Google Pay', '台灣Pay'] as const;

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

export function needsLastFive(method: PaymentMethod): boolean {
  return method === METHOD_TRANSFER;
}

/** Only a transfer takes part in reconciliation (proposed against bank lines, counted unpaid or unreported). */
export function reconciles(method: PaymentMethod | string | undefined | null): boolean {
  return method === undefined || method === null || method === METHOD_TRANSFER;
}

export function hasMethodDetail(method: PaymentMethod): boolean {
  return method === METHOD_EPAY;
}

/** The status a new payment of this method starts in: a transfer waits for the bank, takings in hand are in. */
export function initialStatus(method: PaymentMethod): PaymentStatus {
  return method === METHOD_TRANSFER ? STATUS_PENDING : STATUS_CREDITED;
}

/** Written between the parts of a 付款方式 cell: 員工購物-現金, 電子支付-LINE Pay. */
const METHOD_TEXT_SEPARATOR = '-';
const EMPLOYEE_MARK = '員工購物';

/** A payment's method as one text (the spreadsheets' 付款方式 cell, the audit's words): [員工購物-]方式[-類型]. */
export function methodText(p: {
  method?: string | null;
  method_detail?: string | null;
  employee?: boolean | number | null;
}): string {
  const method = p.method || DEFAULT_METHOD;
  const base = p.method_detail ? `${method}${METHOD_TEXT_SEPARATOR}${p.method_detail}` : method;
  return p.employee ? `${EMPLOYEE_MARK}${METHOD_TEXT_SEPARATOR}${base}` : base;
}

export interface MethodParts {
  method: PaymentMethod;
  method_detail: string | null;
  employee: boolean;
}

const DEFAULT_PARTS: MethodParts = { method: DEFAULT_METHOD, method_detail: null, employee: false };
/** what may stand between the parts as people write them: - － : ： / or a space, or the sub-type in brackets */
const SEP = /^[\s\-－:：/／]*/;

/** A 付款方式 cell read back, or null: empty is 匯款; 員工購物 may lead; 電子支付 may carry a sub-type, as people write it. */
export function parseMethodText(text: string): MethodParts | null {
  let t = text.trim();
  if (t === '') return DEFAULT_PARTS;
  let employee = false;
  if (t.startsWith(EMPLOYEE_MARK)) {
    employee = true;
    t = t.slice(EMPLOYEE_MARK.length).replace(SEP, '');
    if (t === '') return { ...DEFAULT_PARTS, employee };
  }
  if (isPaymentMethod(t)) return { method: t, method_detail: null, employee };
  if (!t.startsWith(METHOD_EPAY)) return null;
  let detail = t.slice(METHOD_EPAY.length);
  const bracketed = /^\s*[(（](.*)[)）]\s*$/.exec(detail);
  detail = (bracketed ? bracketed[1] : detail.replace(SEP, '')).trim();
  if (detail === '' || detail.length > METHOD_DETAIL_MAX || /[,\r\n]/.test(detail)) return null;
  return { method: METHOD_EPAY, method_detail: detail, employee };
}
