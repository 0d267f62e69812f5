import { Box, Button, Card, CardContent, Checkbox, Stack, Typography } from '@mui/material';
import { memo, useCallback, useState } from 'react';
import { Digits } from './Digits';
import { RECONCILE_UI as R } from '../messages';
import { LineFacts } from './LineFacts';
import { PaymentFacts } from './PaymentFacts';
import type { Proposals } from './types';

export function AutoQueue({
  items,
  onConfirm,
}: {
  items: Proposals['auto'];
  onConfirm: (pairs: Array<{ payment: string; line: number }>) => void;
}) {
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const chosen = items.filter((a) => !unticked.has(a.payment.uuid));
  // one tick redraws one card, not the page's 200: a phone is slow to draw them
  const toggle = useCallback(
    (uuid: string) =>
      setUnticked((s) => {
        const next = new Set(s);
        if (next.has(uuid)) next.delete(uuid);
        else next.add(uuid);
        return next;
      }),
    [],
  );
  if (items.length === 0) return <Typography color="text.secondary">{R.empty}</Typography>;
  return (
    <Box>
      {/* stays in sight below the app bar while a long list scrolls by */}
      <Box
        sx={{ position: 'sticky', top: { xs: 56, sm: 64 }, zIndex: 2, bgcolor: 'background.default', py: 0.5, mb: 0.5 }}
      >
        <Button
          variant="contained"
          color="success"
          disabled={chosen.length === 0}
          onClick={() => onConfirm(chosen.map((a) => ({ payment: a.payment.uuid, line: a.line.id })))}
          data-testid="auto-confirm"
        >
          {R.confirmAuto(chosen.length)}
        </Button>
      </Box>
      <Stack spacing={1}>
        {items.map((a) => (
          <AutoItem key={a.payment.uuid} item={a} checked={!unticked.has(a.payment.uuid)} onToggle={toggle} />
        ))}
      </Stack>
    </Box>
  );
}

const AutoItem = memo(function AutoItem({
  item: a,
  checked,
  onToggle,
}: {
  item: Proposals['auto'][number];
  checked: boolean;
  onToggle: (uuid: string) => void;
}) {
  return (
    <Card variant="outlined" data-testid="auto-item">
      <CardContent sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1, '&:last-child': { pb: 1 } }}>
        <Checkbox
          checked={checked}
          onChange={() => onToggle(a.payment.uuid)}
          inputProps={{ 'aria-label': `${a.payment.last_five} ${a.payment.amount}` }}
          sx={{ p: 0.5 }}
        />
        <Box
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr auto 1fr' }, gap: 1, flex: 1, minWidth: 0 }}
        >
          <PaymentFacts payment={a.payment} />
          <Digits five={a.payment.last_five} digits={a.line.digits} />
          <LineFacts line={a.line} />
          <Typography variant="caption" color="text.secondary" sx={{ gridColumn: { md: '1 / -1' } }}>
            {a.reasons.join('、')}（{R.score(a.score)}）
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
});
