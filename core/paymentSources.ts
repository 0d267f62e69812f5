/** Who reported a payment: staff (form, import), a customer (public link), or the bank (made in 對帳 from a credit). */
export const SOURCES = ['staff', 'customer', 'bank'] as const;
export type PaymentSource = (typeof SOURCES)[number];
export const DEFAULT_SOURCE: PaymentSource = 'staff';

export const SOURCE_LABELS: Record<PaymentSource, string> = { staff: '員工', customer: '顧客', bank: '銀行對帳' };

export function isSource(value: unknown): value is PaymentSource {
  return typeof value === 'string' && (SOURCES as readonly string[]).includes(value);
}
