import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { DialogContentText } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { storeLabel } from '../../../core/labels';
import { FormDialog } from '../common/FormDialog';
import type { StoreRecord } from '../common/useStores';
import { STORES_UI as T } from '../messages';
import { describeServerError } from '../serverError';

/**
 * Confirm before deleting a store. The server refuses a store still used by payments or users
 * (409 此分店仍有匯款記錄或用戶，無法刪除): the dialog stays open and shows why.
 */
export function DeleteStoreDialog({ store, onClose }: { store: StoreRecord | null; onClose: () => void }) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // keep the last store while the dialog fades out
  const [shown, setShown] = useState<StoreRecord | null>(store);

  useEffect(() => {
    if (store) setShown(store);
    setBusy(false);
    setMessage(null);
  }, [store]);

  const confirm = async () => {
    if (!store || busy) return;
    setBusy(true);
    setMessage(null);
    try {
      await dataProvider.delete('stores', { id: store.id, previousData: store });
      notify(T.deleted, { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      setMessage(describeServerError(err, T.deleteFailed, []).message ?? T.deleteFailed);
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={!!store}
      titleId="store-delete-title"
      title={
        <>
          <WarningAmberIcon color="error" />
          {T.deleteTitle}
        </>
      }
      onClose={onClose}
      busy={busy}
      error={message}
      errorTestId="store-delete-error"
      cancelLabel={T.cancel}
      actionLabel={T.delete}
      busyLabel={T.deleting}
      onConfirm={confirm}
      actionColor="error"
      actionDisabled={!!message}
      testId="store-delete-dialog"
    >
      <DialogContentText>{shown ? T.deleteConfirm(storeLabel(shown)) : ''}</DialogContentText>
    </FormDialog>
  );
}
