/**
 * How 匯款記錄 asks for its first page, for the list itself and for the first screen's early calls
 * (admin/src/providers/firstScreen.ts), so both ask the very same thing.
 */
import { canSwitchStores, defaultDateRange } from '../../../core/browser';
import type { Me } from '../../../core/browser';

export const PAYMENTS_PER_PAGE = 25;
export const PAYMENTS_SORT = { field: 'paid_at', order: 'DESC' } as const;
/** react-admin store keys: the top bar's store, and whether the multi-store checkboxes replace it */
export const SELECTED_STORE_KEY = 'remit.selectedStore';
export const MULTI_STORE_KEY = 'remit.payments.multiStore';

/** The list opens on the last three days (spec section 2). */
export function paymentsFilterDefaults(): { paid_at_gte: string; paid_at_lte: string } {
  const range = defaultDateRange();
  return { paid_at_gte: range.from, paid_at_lte: range.to };
}

/** The top bar's store switcher narrows the list, unless the multi-store checkboxes are in use. */
export function permanentFilter(me: Me, selectedStore: number | null, multi: boolean): Record<string, unknown> {
  return canSwitchStores(me) && selectedStore !== null && !multi ? { store_id: selectedStore } : {};
}

/** The count line's call: every payment the user may see here (shown versus total). */
export const countParams = (permanent: Record<string, unknown>) => ({ pagination: { page: 1, perPage: 1 }, filter: permanent });
