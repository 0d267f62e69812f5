import { Box, Typography } from '@mui/material';
import { formatNTD, formatTaipei, storeLabel } from '../../../core/browser';
import { useStores } from '../common/useStores';
import { RECONCILE_UI as R } from '../messages';
import type { LinkedPayment } from './types';

export function PaymentFacts({ payment }: { payment: LinkedPayment }) {
  const { byId } = useStores();
  return (
    <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {formatTaipei(Date.parse(payment.paid_at))}　{formatNTD(payment.amount)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {R.lastFive}：
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {payment.last_five}
        </Box>
        {'　'}
        {R.store}：{storeLabel(byId(payment.store_id))}
        {payment.note ? `　${R.note}：${payment.note}` : ''}　{R.status}：
        <span data-testid="payment-status">{payment.status}</span>
      </Typography>
    </Box>
  );
}
