import CheckIcon from '@mui/icons-material/Check';
import { Button } from '@mui/material';
import { useNotify, useUpdate } from 'react-admin';
import { statusChangeable } from '../../../core/browser';
import type { Payment } from '../../../core/browser';
import { PAYMENTS_UI as P } from '../messages';
import { serverMessage } from '../serverError';
import { beginUndoable, UNDO_MS } from './undoPending';

/** 確認入帳 in one tap: 已入帳 shows at once, sent only after 復原 has gone (undoable). */
export function ConfirmCreditedButton({
  record,
  compact = false,
}: {
  record: Payment & { bank_line_id?: number | null };
  compact?: boolean;
}) {
  const [update] = useUpdate();
  const notify = useNotify();
  if (record.status === '已入帳' || !statusChangeable(record)) return null;
  const confirm = () => {
    const end = beginUndoable();
    update(
      'payments',
      { id: record.id, data: { status: '已入帳' }, previousData: record },
      {
        mutationMode: 'undoable',
        onSuccess: () =>
          notify(P.credited(record.last_five), { type: 'info', undoable: true, autoHideDuration: UNDO_MS }),
        onSettled: end,
        onError: (err) => notify(P.saveFailed(serverMessage(err) ?? P.saveFailedUnknown), { type: 'error' }),
      },
    );
  };
  return (
    <Button
      size="small"
      variant="outlined"
      color="success"
      startIcon={compact ? undefined : <CheckIcon />}
      aria-label={P.confirmCreditedLabel(record.last_five)}
      onClick={(e) => (e.stopPropagation(), confirm())}
      sx={
        compact
          ? { py: 0, px: 0.75, minWidth: 0, lineHeight: 1.5, flexShrink: 0 }
          : { flexShrink: 0, whiteSpace: 'nowrap' }
      }
      data-testid={`confirm-${record.id}`}
    >
      {P.confirmCredited}
    </Button>
  );
}
