/**
 * The skeleton every back-office dialog shares: a title, the server's error on top, the content,
 * and 取消 beside one action that shows its busy label while the call runs. It cannot be closed
 * while busy. With `onSubmit` the dialog is a form (Enter submits); otherwise the action calls
 * `onConfirm`. Full screen on a phone.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import type { FormEvent, ReactNode } from 'react';

export interface FormDialogProps {
  open: boolean;
  /** id for aria-labelledby */
  titleId: string;
  title: ReactNode;
  onClose: () => void;
  busy: boolean;
  /** the failure to show above the content, with its test id */
  error: string | null;
  errorTestId: string;
  cancelLabel: string;
  actionLabel: string;
  busyLabel: string;
  onSubmit?: (e: FormEvent) => void;
  onConfirm?: () => void;
  actionColor?: 'primary' | 'error';
  actionDisabled?: boolean;
  maxWidth?: 'xs' | 'sm';
  testId?: string;
  children: ReactNode;
}

export function FormDialog(p: FormDialogProps) {
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const form = p.onSubmit ? ({ component: 'form', onSubmit: p.onSubmit, noValidate: true } as object) : undefined;
  return (
    <Dialog
      open={p.open}
      onClose={p.busy ? undefined : p.onClose}
      fullScreen={phone}
      fullWidth
      maxWidth={p.maxWidth ?? 'xs'}
      aria-labelledby={p.titleId}
      data-testid={p.testId}
      slotProps={{ paper: form }}
    >
      <DialogTitle id={p.titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {p.title}
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {p.error && (
          <Alert severity="error" data-testid={p.errorTestId}>
            {p.error}
          </Alert>
        )}
        {p.children}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={p.onClose} disabled={p.busy}>
          {p.cancelLabel}
        </Button>
        <Button
          type={p.onSubmit ? 'submit' : 'button'}
          onClick={p.onSubmit ? undefined : p.onConfirm}
          variant="contained"
          color={p.actionColor ?? 'primary'}
          disabled={p.busy || p.actionDisabled}
        >
          {p.busy ? p.busyLabel : p.actionLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
