import LinkOffIcon from '@mui/icons-material/LinkOff';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { useState } from 'react';
import { useHoldLayout } from './layoutHold';
import { useNotify, useRefresh } from 'react-admin';
import { gates, type Payment } from '../../../core/browser';
import { useMe } from '../common/useMe';
import { dataProvider } from '../providers/dataProvider';
import { RECONCILE_UI as R } from '../messages';

/** Back to the status before the link (confirm_payments, as the decision it undoes); `compact` fits a 28 px row. */
export function UnlinkButton({
  record,
  compact = false,
}: {
  record: Payment & { bank_line_id?: number | null };
  compact?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  useHoldLayout(open);
  const notify = useNotify();
  const refresh = useRefresh();
  const { me } = useMe();
  if (record.bank_line_id === null || record.bank_line_id === undefined || !me || !gates.confirmPayments(me))
    return null;
  async function unlink() {
    setBusy(true);
    try {
      await dataProvider.unlinkPayment(record.uuid);
      notify(R.unlinked, { type: 'success' });
      setOpen(false);
      refresh();
    } catch (e) {
      notify(`${R.unlinkFailed}：${e instanceof Error ? e.message : ''}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button
        size="small"
        startIcon={compact ? undefined : <LinkOffIcon />}
        onClick={() => setOpen(true)}
        data-testid={`unlink-${record.uuid}`}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0, ...(compact && { py: 0, px: 0.75, minWidth: 0, lineHeight: 1.5 }) }}
      >
        {R.unlink}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogContent>
          <DialogContentText>{R.unlinkConfirm}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{R.cancel}</Button>
          <Button color="error" variant="contained" disabled={busy} onClick={unlink} data-testid="unlink-confirm">
            {R.unlink}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
