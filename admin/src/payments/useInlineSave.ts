import { useNotify, useRefresh, useUpdate } from 'react-admin';
import type { Payment } from '../../../core/browser';
import { PAYMENTS_UI as P } from '../messages';
import { serverMessage } from '../serverError';

/**
 * Saves one in-place change (status or note) of a payment and says so: 已儲存 in a small
 * notification that goes by itself, or 儲存失敗：<the server's reason>, after which `onFailed`
 * puts the old value back. Pessimistic: the row shows the new value only once it is stored,
 * and the list is read again, since a filter may no longer hold the row.
 */
export function useInlineSave(
  record: Payment,
): [(data: Partial<Pick<Payment, 'status' | 'note'>>, onFailed?: () => void) => void, boolean] {
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  const refresh = useRefresh();
  const save = (data: Partial<Pick<Payment, 'status' | 'note'>>, onFailed?: () => void) =>
    update(
      'payments',
      { id: record.id, data, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(P.saved, { type: 'success', autoHideDuration: 2000 });
          // A filtered list (by status, by search) may no longer hold the row.
          refresh();
        },
        onError: (err) => {
          notify(P.saveFailed(serverMessage(err) ?? P.saveFailedUnknown), { type: 'error' });
          onFailed?.();
        },
      },
    );
  return [save, isPending];
}
