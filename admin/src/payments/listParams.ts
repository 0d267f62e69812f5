/**
 * How 匯款記錄 asks for its first page, for the list itself and for the first screen's early calls
 * (admin/src/providers/firstScreen.ts), so both ask the very same thing.
 */
import { canSwitchStores } from '../../../core/browser';
import type { Me } from '../../../core/browser';

// the defaults, said once with the server's first screen (core/listDefaults.ts)
export { PAYMENTS_PER_PAGE, PAYMENTS_SORT, paymentsFilterDefaults } from '../../../core/browser';
/** react-admin store keys: the top bar's store, and whether the multi-store checkboxes replace it */
export const SELECTED_STORE_KEY = 'remit.selectedStore';
export const MULTI_STORE_KEY = 'remit.payments.multiStore';

/** The top bar's store switcher narrows the list, unless the multi-store checkboxes are in use. */
export function permanentFilter(me: Me, selectedStore: number | null, multi: boolean): Record<string, unknown> {
  return canSwitchStores(me) && selectedStore !== null && !multi ? { store_id: selectedStore } : {};
}

/** The count line's call: every payment the user may see here (shown versus total). */
export const countParams = (permanent: Record<string, unknown>) => ({
  pagination: { page: 1, perPage: 1 },
  filter: permanent,
});
