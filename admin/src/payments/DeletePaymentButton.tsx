import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { IconButton, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useDelete, useRefresh } from 'react-admin';
import { formatNTD } from '../../../core/browser';
import type { Payment } from '../../../core/browser';
import { ConfirmDialog } from './ConfirmDialog';
import { PAYMENTS_UI as P } from '../messages';

/** Delete one payment after a confirmation showing its last five and amount; a failure is logged and the dialog stays open. */
export function DeletePaymentButton({ record }: { record: Payment }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [remove] = useDelete();
  const refresh = useRefresh();
  const confirm = () => {
    setBusy(true);
    remove(
      'payments',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setBusy(false);
          setOpen(false);
          refresh();
        },
        onError: (err) => {
          console.error('刪除匯款記錄失敗', err);
          setBusy(false);
        },
      },
    );
  };
  return (
    <>
      <Tooltip title={P.delete}>
        <IconButton size="small" color="error" aria-label={P.delete} onClick={(e) => (e.stopPropagation(), setOpen(true))} data-testid={`delete-${record.id}`}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <ConfirmDialog
        open={open}
        title={P.deleteTitle}
        body={P.deleteBody(record.last_five, formatNTD(record.amount))}
        busy={busy}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
