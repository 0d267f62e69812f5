import { Card, CardContent, Stack, Typography } from '@mui/material';
import { R } from './labels';
import { LineFacts } from './LineFacts';
import type { Proposals } from './types';

/** 銀行有款無回報: credits no report explains, with the bank's summary and counterparty. */
export function UnreportedQueue({ items }: { items: Proposals['unreported'] }) {
  if (items.length === 0) return <Typography color="text.secondary">{R.empty}</Typography>;
  return (
    <Stack spacing={1}>
      {items.map((u) => (
        <Card variant="outlined" key={u.line.id} data-testid="unreported-item">
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <LineFacts line={u.line} />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
