import { Chip, MenuItem, Select } from '@mui/material';
import { useRefresh, useUpdate } from 'react-admin';
import { STATUS_COLORS, STATUSES, type PaymentStatus } from '../../../core/statuses';
import type { Payment } from '../../../core/types';

/**
 * Status: an editable dropdown for edit_payments (saved at once on selection, any status to any
 * other, no guard), otherwise a coloured label: 未確認 yellow, 已入帳 green, 未入帳 red.
 */
export function StatusCell({ record, editable }: { record: Payment; editable: boolean }) {
  const [update, { isPending }] = useUpdate();
  const refresh = useRefresh();
  if (!editable) return <Chip size="small" color={STATUS_COLORS[record.status]} label={record.status} />;
  return (
    <Select
      size="small"
      value={record.status}
      disabled={isPending}
      onChange={(e) =>
        update(
          'payments',
          { id: record.id, data: { status: e.target.value as PaymentStatus }, previousData: record },
          { mutationMode: 'pessimistic', onSuccess: () => refresh(), onError: (err) => console.error('更新狀態失敗', err) },
        )
      }
      renderValue={(v) => <Chip size="small" color={STATUS_COLORS[v as PaymentStatus]} label={v} />}
      sx={{ minWidth: 120, '& .MuiSelect-select': { py: 0.5 } }}
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
