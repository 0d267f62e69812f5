import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { DialogContentText } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { storeLabel } from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import type { StoreRecord } from '../common/useStores';
import { STORES_UI as T } from '../messages';
import { describeServerError } from '../serverError';
import { useServerAction } from '../common/useServerAction';

/** The server refuses a store still used by payments or users: the dialog stays open and shows why. */
export function DeleteStoreDialog({ store, onClose }: { store: StoreRecord | null; onClose: () => void }) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const removal = useServerAction(T.deleteFailed, (err) => ({
    fields: {},
    message: describeServerError(err, T.deleteFailed, []).message ?? T.deleteFailed,
  }));
  // keep the last store while the dialog fades out
  const [shown, setShown] = useState<StoreRecord | null>(store);

  useEffect(() => {
    if (store) setShown(store);
    removal.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a new store only: reset is a fresh function each render
  }, [store]);

  const confirm = () => {
    if (!store) return;
    void removal.submit({ ok: true, value: store }, async (s) => {
      await dataProvider.delete('stores', { id: s.id, previousData: s });
      notify(T.deleted, { type: 'success' });
      refresh();
      onClose();
    });
  };

  return (
    <FormDialog
      open={!!store}
      id="store-delete"
      title={
        <>
          <WarningAmberIcon color="error" />
          {T.deleteTitle}
        </>
      }
      onClose={onClose}
      action={removal}
      labels={{ action: T.delete, busy: T.deleting }}
      onConfirm={confirm}
      actionColor="error"
      actionDisabled={!!removal.failure}
    >
      <DialogContentText>{shown ? T.deleteConfirm(storeLabel(shown)) : ''}</DialogContentText>
    </FormDialog>
  );
}
