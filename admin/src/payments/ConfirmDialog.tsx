import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { PAYMENTS_UI as P } from '../messages';

/** For a step that cannot be undone or that others will see; stays open while busy; 44 px buttons for a thumb. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  body: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  confirm?: string;
  cancel?: string;
  color?: 'error' | 'warning';
  /** the step cannot be taken yet (nothing to act on), while the way back stays open */
  confirmDisabled?: boolean;
  children?: ReactNode;
  testIds?: { dialog?: string; cancel?: string; confirm?: string };
}) {
  const ids = props.testIds ?? {};
  return (
    <Dialog
      open={props.open}
      onClose={props.busy ? undefined : props.onClose}
      maxWidth="xs"
      fullWidth
      data-testid={ids.dialog}
    >
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={props.children ? { mb: 1.5 } : undefined}>{props.body}</DialogContentText>
        {props.children}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.busy} data-testid={ids.cancel} sx={{ minHeight: 44 }}>
          {props.cancel ?? P.cancel}
        </Button>
        <Button
          color={props.color ?? 'error'}
          variant="contained"
          onClick={props.onConfirm}
          disabled={props.busy || props.confirmDisabled}
          data-testid={ids.confirm ?? 'confirm-dialog-ok'}
          sx={{ minHeight: 44 }}
        >
          {props.confirm ?? (props.busy ? P.deleting : P.confirmDelete)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
