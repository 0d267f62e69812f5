/**
 * Who reported a payment: staff (the submission form, an import), the customer (a store's public
 * link), or nobody: the accountant made it in 對帳 from a bank credit no report explained (bank).
 * Stored in payments.source; set by the one writer. Pure: the back office shows and filters by these labels.
 */
export const SOURCES = ['staff', 'customer', 'bank'] as const;
export type PaymentSource = (typeof SOURCES)[number];
export const DEFAULT_SOURCE: PaymentSource = 'staff';

/** 來源 as the list and the filter show it. */
export const SOURCE_LABELS: Record<PaymentSource, string> = { staff: '員工', customer: '顧客', bank: '銀行對帳' };

export function isSource(value: unknown): value is PaymentSource {
  return typeof value === 'string' && (SOURCES as readonly string[]).includes(value);
}
