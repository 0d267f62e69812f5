import LinkIcon from '@mui/icons-material/Link';
import { Chip, MenuItem, Select } from '@mui/material';
import { useState } from 'react';
import { useHoldLayout } from './layoutHold';
import { MSG, STATUS_COLORS, STATUSES, statusChangeable } from '../../../core/browser';
import type { PaymentStatus, Payment } from '../../../core/browser';
import { RECONCILE_UI as R } from '../messages';
import { LinkedLineDialog } from './LinkedLineDialog';
import { useInlineSave } from './useInlineSave';

/** Saved on selection; a linked payment shows a label instead (取消對帳 first). Compact, for a one-line row. */
export function StatusCell({
  record,
  editable,
}: {
  record: Payment & { bank_line_id?: number | null };
  editable: boolean;
}) {
  const [save, isPending] = useInlineSave(record);
  const [showLine, setShowLine] = useState(false);
  useHoldLayout(showLine);
  if (!editable || !statusChangeable(record)) {
    const lineId = record.bank_line_id ?? null;
    if (lineId === null) {
      return (
        <Chip
          size="small"
          color={STATUS_COLORS[record.status]}
          label={record.status}
          data-testid={editable ? `status-${record.id}` : undefined}
        />
      );
    }
    return (
      <>
        <Chip
          size="small"
          color={STATUS_COLORS[record.status]}
          label={record.status}
          icon={<LinkIcon />}
          title={editable ? MSG.reconcilePaymentLinked : undefined}
          aria-label={R.linkedShow(record.status)}
          data-testid={editable ? `status-${record.id}` : `linked-${record.id}`}
          data-linked
          onClick={(e) => {
            e.stopPropagation();
            setShowLine(true);
          }}
        />
        {showLine && <LinkedLineDialog lineId={lineId} open={showLine} onClose={() => setShowLine(false)} />}
      </>
    );
  }
  return (
    <Select
      size="small"
      variant="standard"
      disableUnderline
      value={record.status}
      disabled={isPending}
      onChange={(e) => save({ status: e.target.value as PaymentStatus })}
      renderValue={(v) => <Chip size="small" color={STATUS_COLORS[v as PaymentStatus]} label={v} sx={{ height: 22 }} />}
      sx={{ '& .MuiSelect-select': { py: 0, pl: 0.25 }, '& .MuiSelect-select:focus': { bgcolor: 'transparent' } }}
      inputProps={{ 'aria-label': '狀態', 'data-testid': `status-${record.id}` }}
      onClick={(e) => e.stopPropagation()}
    >
      {STATUSES.map((s) => (
        <MenuItem key={s} value={s}>
          <Chip size="small" color={STATUS_COLORS[s]} label={s} />
        </MenuItem>
      ))}
    </Select>
  );
}
