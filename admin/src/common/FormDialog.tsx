/**
 * The skeleton every back-office dialog shares: a title, the server's error on top, the content,
 * and 取消 beside one action that shows its busy label while the call runs. It cannot be closed
 * while busy, nor a form by a click beside it (what was typed stays). With `onSubmit` the dialog is a form (Enter submits); otherwise the action calls
 * `onConfirm`. Full screen on a phone.
 */
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import type { FormEvent, ReactNode } from 'react';
import { UI } from '../messages';
import type { ServerAction } from './useServerAction';

interface FormDialogProps {
  open: boolean;
  /** names the dialog's parts: `<id>-title` (aria-labelledby), `<id>-error`, `<id>-dialog` (test ids) */
  id: string;
  title: ReactNode;
  onClose: () => void;
  /** the dialog's request: while busy it cannot be closed; its failure shows above the content */
  action: Pick<ServerAction, 'busy' | 'failure'>;
  labels: { action: string; busy: string; cancel?: string };
  onSubmit?: (e: FormEvent) => void;
  onConfirm?: () => void;
  actionColor?: 'primary' | 'error';
  actionDisabled?: boolean;
  maxWidth?: 'xs' | 'sm';
  children: ReactNode;
}

export function FormDialog(p: FormDialogProps) {
  const { busy, failure: error } = p.action;
  const titleId = `${p.id}-title`;
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const form = p.onSubmit ? ({ component: 'form', onSubmit: p.onSubmit, noValidate: true } as object) : undefined;
  return (
    <Dialog
      open={p.open}
      // a click beside a form is no way to throw away what was typed in it: 取消 or Esc close it
      onClose={busy ? undefined : (_e, reason) => (p.onSubmit && reason === 'backdropClick' ? undefined : p.onClose())}
      fullScreen={phone}
      fullWidth
      maxWidth={p.maxWidth ?? 'xs'}
      aria-labelledby={titleId}
      data-testid={`${p.id}-dialog`}
      slotProps={{ paper: form }}
    >
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {p.title}
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {error && (
          <Alert severity="error" data-testid={`${p.id}-error`}>
            {error}
          </Alert>
        )}
        {p.children}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={p.onClose} disabled={busy}>
          {p.labels.cancel ?? UI.cancel}
        </Button>
        <Button
          type={p.onSubmit ? 'submit' : 'button'}
          onClick={p.onSubmit ? undefined : p.onConfirm}
          variant="contained"
          color={p.actionColor ?? 'primary'}
          disabled={busy || p.actionDisabled}
        >
          {busy ? p.labels.busy : p.labels.action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
