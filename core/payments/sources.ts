/**
 * Who reported a payment (issue 25): staff (the submission form, an import) or the customer
 * (a store's public link). Stored in payments.source; set by the one writer from its actor.
 * Pure: the back office shows and filters by these labels.
 */
export const SOURCES = ['staff', 'customer'] as const;
export type PaymentSource = (typeof SOURCES)[number];
export const DEFAULT_SOURCE: PaymentSource = 'staff';

/** 來源 as the list and the filter show it. */
export const SOURCE_LABELS: Record<PaymentSource, string> = { staff: '員工', customer: '顧客' };

export function isSource(value: unknown): value is PaymentSource {
  return typeof value === 'string' && (SOURCES as readonly string[]).includes(value);
}
