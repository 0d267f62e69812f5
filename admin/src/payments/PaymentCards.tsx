import { Box, Paper, Stack, Typography } from '@mui/material';
import { useListContext } from 'react-admin';
import { formatNTD, formatTaipei, methodText, paymentWords, SOURCE_LABELS } from '../../../core/browser';
import type { ListedPayment } from '../../../core/browser';
import { PAYMENTS_UI as P } from '../messages';
import { ConfirmCreditedButton } from './ConfirmCreditedButton';
import { DeletePaymentButton } from './DeletePaymentButton';
import { MethodCell } from './MethodEditButton';
import { NoteCell } from './NoteCell';
import { StatusCell } from './StatusCell';
import { UnlinkButton } from './UnlinkButton';

// Every control in a card is a finger's size, 44 px, 8 px from the next; the chips and the note keep
// their look inside it.
const FINGER = 44;
const fingerSized = {
  '& .MuiButtonBase-root': { minHeight: FINGER, minWidth: FINGER },
  '& .MuiIconButton-root': { p: 1.5 },
  // the status menu: the whole 44 px opens it, the chip in the middle
  '& .MuiInputBase-root .MuiSelect-select': {
    minHeight: FINGER,
    py: 0,
    display: 'flex',
    alignItems: 'center',
    boxSizing: 'border-box',
  },
  // the note: the field takes a tap anywhere in its 44 px, the text just above its underline
  '& .MuiInputBase-root .MuiInputBase-input:not(.MuiSelect-select)': { height: 24, pt: '12px', pb: '8px' },
  // a linked payment's label (it opens 對帳明細): a 44 px target, painted as the 24 px chip
  '& .MuiChip-clickable': {
    height: FINGER,
    py: '10px',
    backgroundClip: 'content-box',
    borderRadius: `${FINGER / 2}px`,
  },
} as const;

/** A phone's list: one card per payment with the table's cells. */
export function PaymentCards({
  canEdit,
  canDelete,
  storeName,
  empty,
}: {
  canEdit: boolean;
  canDelete: boolean;
  storeName: (id: number) => string | null;
  empty: React.ReactNode;
}) {
  const { data, isPending } = useListContext<ListedPayment>();
  if (isPending || !data) return null;
  if (data.length === 0) return <>{empty}</>;
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid="payment-cards">
      {data.map((r) => (
        <Paper key={r.id} variant="outlined" sx={{ p: 1.25, ...fingerSized }} data-testid={`payment-card-${r.id}`}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
            <Typography
              sx={{ fontFamily: 'monospace', fontSize: '1.15rem', fontWeight: 600 }}
              aria-label={r.last_five ? P.lastFive : P.method}
            >
              {r.last_five || methodText(r)}
            </Typography>
            <Typography sx={{ ml: 'auto', fontWeight: 600 }} aria-label={paymentWords(r.method).amount}>
              {formatNTD(r.amount)}
            </Typography>
          </Box>
          <Typography variant="body2" color="text.secondary">
            {formatTaipei(Date.parse(r.paid_at))}
            {r.last_five ? ` · ${methodText(r)}` : ''}
            {storeName(r.store_id) ? ` · ${storeName(r.store_id)}` : ''}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
            <StatusCell record={r} editable={canEdit} />
            <UnlinkButton record={r} />
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <NoteCell record={r} editable={canEdit} fullWidth />
            </Box>
            {canDelete && <DeletePaymentButton record={r} />}
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ flex: 1, minWidth: 0 }}>
              {SOURCE_LABELS[r.source] ?? SOURCE_LABELS.staff} · {P.submitter} {r.created_by_username ?? '—'} ·{' '}
              {formatTaipei(Date.parse(r.created_at))}
            </Typography>
            {canEdit && <MethodCell record={r} editable icon />}
            {canEdit && <ConfirmCreditedButton record={r} />}
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}
