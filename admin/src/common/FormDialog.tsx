// The dialog every back-office dialog shares. With `onSubmit` it is a form (Enter submits); otherwise the
// action calls `onConfirm`.
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
  /** `<id>-title` (aria-labelledby), `<id>-error`, `<id>-dialog` */
  id: string;
  title: ReactNode;
  onClose: () => void;
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
      // a click beside a form must not throw away what was typed: 取消 or Esc close it
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
