import { Alert, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { formatNTD } from '../../../core/browser';
import { RECONCILE_UI as R } from '../messages';
import { LineFacts } from './LineFacts';
import { PaymentFacts } from './PaymentFacts';
import type { Proposals } from './types';

/** Read only: a payment links to one credit of its own amount, so a group cannot be confirmed here. */
export function GroupQueue({ items }: { items: Proposals['suggestions'] }) {
  if (items.length === 0) return <Typography color="text.secondary">{R.empty}</Typography>;
  return (
    <Stack spacing={1}>
      <Alert severity="info" data-testid="groups-read-only">
        {R.groupsReadOnly}
      </Alert>
      {items.map((g) => {
        const paid = g.payments.reduce((t, p) => t + p.amount, 0);
        const credited = g.lines.reduce((t, l) => t + l.amount, 0);
        return (
          <Card
            variant="outlined"
            key={`${g.payments.map((p) => p.uuid).join()}|${g.lines.map((l) => l.id).join()}`}
            data-testid="group-item"
          >
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 1.5 }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="subtitle2" component="h3" data-testid="group-reports">
                    {R.groupReports(g.payments.length, formatNTD(paid))}
                  </Typography>
                  <Stack spacing={1}>
                    {g.payments.map((p) => (
                      <PaymentFacts key={p.uuid} payment={p} />
                    ))}
                  </Stack>
                </Box>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="subtitle2" component="h3" data-testid="group-lines">
                    {R.groupLines(g.lines.length, formatNTD(credited))}
                  </Typography>
                  <Stack spacing={1}>
                    {g.lines.map((l) => (
                      <LineFacts key={l.id} line={l} />
                    ))}
                  </Stack>
                </Box>
              </Box>
              <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
                {g.reasons.join('、')}
              </Typography>
            </CardContent>
          </Card>
        );
      })}
    </Stack>
  );
}
