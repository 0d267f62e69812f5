import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { api } from '../http';
import { LineFacts } from '../reconcile/LineFacts';
import type { BankLine } from '../reconcile/types';
import { RECONCILE_UI as R } from '../messages';

/** 對帳明細: the bank line a payment was linked to, as the statement wrote it. */
export function LinkedLineDialog({ lineId, open, onClose }: { lineId: number; open: boolean; onClose: () => void }) {
  const line = useQuery({
    queryKey: ['reconcile-line', lineId],
    enabled: open,
    queryFn: async () =>
      (
        await api<BankLine[]>(
          'GET',
          `/reconcile/lines?${new URLSearchParams({ filter: JSON.stringify({ id: [lineId] }) })}`,
        )
      )[0] ?? null,
  });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      onClick={(e) => e.stopPropagation()}
      aria-labelledby={`linked-line-${lineId}`}
    >
      <DialogTitle id={`linked-line-${lineId}`}>{R.linkedTitle}</DialogTitle>
      <DialogContent data-testid="linked-line">
        {line.isPending && <CircularProgress size={24} aria-label={R.loading} />}
        {line.isError && (
          <Alert severity="error">{line.error instanceof Error ? line.error.message : R.loadFailed}</Alert>
        )}
        {line.data === null && <Alert severity="info">{R.linkedHidden}</Alert>}
        {line.data && <LineFacts line={line.data} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{R.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
