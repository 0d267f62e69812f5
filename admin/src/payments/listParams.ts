// How 匯款記錄 asks for its first page, shared with the first screen's early calls so both ask the same.
import { canSwitchStores } from '../../../core/browser';
import type { Me } from '../../../core/browser';

export { PAYMENTS_PER_PAGE, PAYMENTS_SORT, paymentsFilterDefaults } from '../../../core/browser';
/** react-admin store keys: the top bar's store, and whether the multi-store checkboxes replace it */
export const SELECTED_STORE_KEY = 'remit.selectedStore';
export const MULTI_STORE_KEY = 'remit.payments.multiStore';

/** The top bar's store narrows the list unless the multi-store checkboxes are in use. */
export function permanentFilter(me: Me, selectedStore: number | null, multi: boolean): Record<string, unknown> {
  return canSwitchStores(me) && selectedStore !== null && !multi ? { store_id: selectedStore } : {};
}

/** Every payment the user may see here, for the count line's total. */
export const countParams = (permanent: Record<string, unknown>) => ({
  pagination: { page: 1, perPage: 1 },
  filter: permanent,
});
