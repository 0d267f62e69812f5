import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { PAYMENTS_UI as P } from '../messages';

/**
 * A confirmation for something that cannot be undone (a delete), or that others will see (reopening
 * a closed day: `confirm` names the step, `color` warning); stays open while busy.
 */
export function ConfirmDialog(props: { open: boolean; title: string; body: string; busy: boolean; onConfirm: () => void; onClose: () => void; confirm?: string; color?: 'error' | 'warning' }) {
  return (
    <Dialog open={props.open} onClose={props.busy ? undefined : props.onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{props.body}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.busy}>
          {P.cancel}
        </Button>
        <Button color={props.color ?? 'error'} variant="contained" onClick={props.onConfirm} disabled={props.busy} data-testid="confirm-dialog-ok">
          {props.confirm ?? (props.busy ? P.deleting : P.confirmDelete)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
