import { Box, Button, Card, CardContent, FormControlLabel, Radio, RadioGroup, Stack, Typography } from '@mui/material';
import { memo, useState } from 'react';
import { Digits } from './Digits';
import { firstChoice, NONE } from './firstChoice';
import { RECONCILE_UI as R } from '../messages';
import { LineFacts } from './LineFacts';
import { PaymentFacts } from './PaymentFacts';
import type { LinkedPayment, Proposals } from './types';

type Review = Proposals['review'][number];

interface Actions {
  onConfirm: (pairs: Array<{ payment: string; line: number }>) => void;
  onUnpaid: (payments: string[]) => void;
}

export function ReviewQueue({ items, ...actions }: { items: Proposals['review'] } & Actions) {
  if (items.length === 0) return <Typography color="text.secondary">{R.empty}</Typography>;
  return (
    <Stack spacing={1}>
      {items.map((r) => (
        <ReviewCard key={r.payment.uuid} item={r} {...actions} />
      ))}
    </Stack>
  );
}

/** A person marks these 未入帳, never the matcher. */
export function UnpaidQueue({ items, ...actions }: { items: Proposals['unpaid'] } & Actions) {
  if (items.length === 0) return <Typography color="text.secondary">{R.empty}</Typography>;
  return (
    <Stack spacing={1}>
      {items.map((u) => (
        <UnpaidCard key={u.payment.uuid} payment={u.payment} {...actions} />
      ))}
    </Stack>
  );
}

const ReviewCard = memo(function ReviewCard({ item, onConfirm, onUnpaid }: { item: Review } & Actions) {
  const [pick, setPick] = useState<string>(() => firstChoice(item.payment.last_five, item.candidates));
  return (
    <Card variant="outlined" data-testid="review-item">
      <CardContent
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(0, 2fr)' },
          gap: 1.5,
          p: 1.5,
          '&:last-child': { pb: 1.5 },
        }}
      >
        <Box>
          <Typography variant="overline">{R.report}</Typography>
          <PaymentFacts payment={item.payment} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="overline">{R.candidates}</Typography>
          <RadioGroup value={pick} onChange={(e) => setPick(e.target.value)}>
            {item.candidates.map((c) => (
              <FormControlLabel
                key={c.line.id}
                value={String(c.line.id)}
                control={<Radio size="small" />}
                data-testid="review-candidate"
                sx={{
                  alignItems: 'flex-start',
                  mx: 0,
                  mb: 1,
                  '& .MuiFormControlLabel-label': { minWidth: 0, flex: 1 },
                }}
                label={
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
                    <Digits five={item.payment.last_five} digits={c.line.digits} />
                    <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                      <LineFacts line={c.line} />
                      <Typography variant="caption" color="text.secondary" component="div">
                        {c.reasons.join('、')}（{R.score(c.score)}）
                      </Typography>
                    </Box>
                  </Box>
                }
              />
            ))}
            <FormControlLabel value={NONE} control={<Radio size="small" />} label={R.none} sx={{ mx: 0 }} />
          </RadioGroup>
          <Button
            variant="contained"
            size="small"
            color={pick === NONE ? 'error' : 'primary'}
            disabled={pick === ''}
            onClick={() =>
              pick === NONE
                ? onUnpaid([item.payment.uuid])
                : onConfirm([{ payment: item.payment.uuid, line: Number(pick) }])
            }
            data-testid="review-decide"
          >
            {pick === NONE ? R.markUnpaid : R.confirmOne}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
});

const UnpaidCard = memo(function UnpaidCard({ payment, onUnpaid }: { payment: LinkedPayment } & Actions) {
  return (
    <Card variant="outlined" data-testid="unpaid-item" sx={{ borderColor: 'warning.main' }}>
      <CardContent
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(0, 2fr)' },
          gap: 1.5,
          p: 1.5,
          '&:last-child': { pb: 1.5 },
        }}
      >
        <Box>
          <Typography variant="overline">{R.report}</Typography>
          <PaymentFacts payment={payment} />
        </Box>
        <Box>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {R.noCandidate}：{R.unpaidHint}
          </Typography>
          <Button
            variant="outlined"
            size="small"
            color="error"
            onClick={() => onUnpaid([payment.uuid])}
            data-testid="unpaid-mark"
          >
            {R.markUnpaid}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
});
