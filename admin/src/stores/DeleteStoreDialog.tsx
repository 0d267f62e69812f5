import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { storeLabel } from '../../../core/labels';
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
    <Dialog open={!!store} onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" data-testid="store-delete-dialog">
      <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <WarningAmberIcon color="error" />
        {T.deleteTitle}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{shown ? T.deleteConfirm(storeLabel(shown)) : ''}</DialogContentText>
        {message && (
          <Box sx={{ mt: 2 }}>
            <Alert severity="error" data-testid="store-delete-error">
              {message}
            </Alert>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {T.cancel}
        </Button>
        <Button variant="contained" color="error" onClick={confirm} disabled={busy || !!message}>
          {busy ? T.deleting : T.delete}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
