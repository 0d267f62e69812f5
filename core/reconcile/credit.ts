/**
 * Making a payment of a bank credit nobody reported: the rules the service enforces and the 對帳
 * page shows, in one place.
 */
import { storeScope, type Principal } from '../permissions.js';

/** The payer's last five as the bank shows it (five or more trailing digits), or null when it shows fewer. */
export function lastFiveShown(digits: string): string | null {
  return /^\d{5,}$/.test(digits) ? digits.slice(-5) : null;
}

/**
 * A credit of a statement for every store may be any store's money: only an account that reaches
 * every store makes a payment of it (a store's accountant links it to one of the store's reports).
 */
export function mayMakePaymentOf(u: Principal, line: { store_id: number | null }): boolean {
  return line.store_id !== null || storeScope(u).all;
}
