// The delete-user confirm; on a failure the dialog stays open and says why.
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useDelete, useNotify, useRefresh } from 'react-admin';
import { ROLE_LABELS } from '../../../core/browser';
import type { User } from '../../../core/browser';
import { UI, USERS_UI } from '../messages';
import { serverMessage } from '../serverError';

export function DeleteUserDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const [remove] = useDelete();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);

  async function onConfirm() {
    if (busy) return;
    setBusy(true);
    try {
      await remove('users', { id: user.id, previousData: user }, { mutationMode: 'pessimistic', returnPromise: true });
      notify(USERS_UI.deleted, { type: 'success', messageArgs: { _: USERS_UI.deleted } });
      refresh();
      onClose();
    } catch (err) {
      const text = UI.deleteFailed(serverMessage(err));
      notify(text, { type: 'error', messageArgs: { _: text } });
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="delete-user-title">
      <DialogTitle id="delete-user-title">{USERS_UI.deleteTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText>{USERS_UI.deleteConfirm}</DialogContentText>
        <Box
          sx={{
            mt: 2,
            p: 1.5,
            borderRadius: 1,
            bgcolor: 'grey.100',
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            columnGap: 2,
            rowGap: 0.5,
          }}
          data-testid="delete-user-summary"
        >
          <Typography variant="body2" color="text.secondary">
            {USERS_UI.username}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {user.username}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {USERS_UI.role}
          </Typography>
          <Typography variant="body2">{ROLE_LABELS[user.role] ?? user.role}</Typography>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose} disabled={busy}>
          {USERS_UI.cancel}
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={busy}>
          {busy ? USERS_UI.deleting : USERS_UI.confirmDelete}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
