/**
 * When two payments are the same: same store, last five, payment time and amount. Import skips
 * a row equal to an existing payment or to an earlier row, so importing a file twice adds nothing.
 */
export function paymentDuplicateKey(p: { store_id: number; last_five: string; paid_at: string | number; amount: number }): string {
  const ms = typeof p.paid_at === 'number' ? p.paid_at : Date.parse(p.paid_at);
  return `${p.store_id}|${p.last_five}|${ms}|${Number(p.amount)}`;
}
