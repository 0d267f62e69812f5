import { useNotify, useRefresh, useUpdate } from 'react-admin';
import type { Payment } from '../../../core/browser';
import { PAYMENTS_UI as P } from '../messages';
import { serverMessage } from '../serverError';

/** Pessimistic: the row shows the new value once stored; `onFailed` puts the old one back. */
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
          // a filtered list may no longer hold the row
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
