// Takings by payment method per store, from the summary's per-day figures, not rows.
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatNTD, PAYMENT_METHODS } from '../../../core/browser';
import type { StatsSummary } from '../../../core/browser';
import { DASHBOARD_UI as T } from '../messages';

export function MethodTakings({ data }: { data: StatsSummary | null }) {
  const rows = data?.storeStats ?? [];
  if (!data || rows.length === 0) return null;
  const cell = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;
  return (
    // focusable so a keyboard can scroll it (axe scrollable-region-focusable)
    <TableContainer
      component={Paper}
      variant="outlined"
      sx={{ overflowX: 'auto' }}
      tabIndex={0}
      role="region"
      aria-label={T.byMethodTitle}
    >
      <Typography component="h2" variant="subtitle1" sx={{ px: 2, pt: 1.5, fontWeight: 600 }}>
        {T.byMethodTitle}
      </Typography>
      <Table size="small" data-testid="method-takings" aria-label={T.byMethodTitle}>
        <TableHead>
          <TableRow sx={{ '& th': { fontWeight: 600, whiteSpace: 'nowrap' } }}>
            <TableCell>{T.storeName}</TableCell>
            {PAYMENT_METHODS.map((m) => (
              <TableCell key={m} align="right">
                {m}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.store_id} data-testid={`method-takings-${r.store_code}`}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.store_name}</TableCell>
              {PAYMENT_METHODS.map((m) => (
                <TableCell key={m} align="right" sx={cell}>
                  {formatNTD(r.by_method?.[m]?.amount ?? 0)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        {rows.length > 1 && (
          <TableFooter>
            <TableRow sx={{ '& td': { fontWeight: 600, color: 'text.primary' } }}>
              <TableCell>{T.total}</TableCell>
              {PAYMENT_METHODS.map((m) => (
                <TableCell key={m} align="right" sx={cell}>
                  {formatNTD(data.byMethod?.[m]?.amount ?? 0)}
                </TableCell>
              ))}
            </TableRow>
          </TableFooter>
        )}
      </Table>
    </TableContainer>
  );
}
