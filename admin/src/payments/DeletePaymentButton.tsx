import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { IconButton, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useDelete, useNotify } from 'react-admin';
import { formatNTD, METHOD_TRANSFER, methodText, needsLastFive } from '../../../core/browser';
import type { Payment } from '../../../core/browser';
import { ConfirmDialog } from './ConfirmDialog';
import { PAYMENTS_UI as P } from '../messages';
import { serverMessage } from '../serverError';
import { useHoldLayout } from './layoutHold';
import { beginUndoable, UNDO_MS } from './undoPending';

/** The row goes at once but the delete is sent only after 復原 has gone (undoable), so 復原 has nothing to put back. */
export function DeletePaymentButton({ record }: { record: Payment }) {
  const [open, setOpen] = useState(false);
  useHoldLayout(open);
  const [remove] = useDelete();
  const notify = useNotify();
  const amount = formatNTD(record.amount);
  const transfer = needsLastFive(record.method ?? METHOD_TRANSFER);
  const confirm = () => {
    setOpen(false);
    const end = beginUndoable();
    remove(
      'payments',
      { id: record.id, previousData: record },
      {
        mutationMode: 'undoable',
        onSuccess: () =>
          notify(transfer ? P.deleted(record.last_five, amount) : P.deletedInHand(methodText(record), amount), {
            type: 'info',
            undoable: true,
            autoHideDuration: UNDO_MS,
          }),
        onSettled: end,
        onError: (err) => {
          console.error('刪除匯款記錄失敗', err);
          notify(serverMessage(err) ?? P.saveFailedUnknown, { type: 'error' });
        },
      },
    );
  };
  return (
    <>
      <Tooltip title={P.delete}>
        <IconButton
          size="small"
          color="error"
          aria-label={P.delete}
          onClick={(e) => (e.stopPropagation(), setOpen(true))}
          data-testid={`delete-${record.id}`}
        >
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <ConfirmDialog
        open={open}
        title={P.deleteTitle}
        body={transfer ? P.deleteBody(record.last_five, amount) : P.deleteBodyInHand(methodText(record), amount)}
        busy={false}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
