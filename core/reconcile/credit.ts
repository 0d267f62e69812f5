/** Making a payment of a credit nobody reported: rules the service enforces and the 對帳 page shows. */
import { storeScope, type Principal } from '../permissions.js';

export function lastFiveShown(digits: string): string | null {
  return /^\d{5,}$/.test(digits) ? digits.slice(-5) : null;
}

/** A credit of an every-store statement may be any store's: only someone seeing all stores makes a payment of it. */
export function mayMakePaymentOf(u: Principal, line: { store_id: number | null }): boolean {
  return line.store_id !== null || storeScope(u).all;
}
