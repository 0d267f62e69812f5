import {
  Box,
  Chip,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { formatNTD, STATUS_COLORS, STATUS_CREDITED, STATUS_FAILED, STATUS_PENDING } from '../../../core/browser';
import type { StatsSummary, StoreStats } from '../../../core/browser';
import { DASHBOARD_UI as T } from '../messages';

const count = new Intl.NumberFormat('zh-TW');

function StatusCount({ status, n, label }: { status: typeof STATUS_CREDITED; n: number; label?: string }) {
  return (
    <Chip
      size="small"
      color={n > 0 ? STATUS_COLORS[status] : 'default'}
      variant={n > 0 ? 'filled' : 'outlined'}
      label={label ? `${label} ${count.format(n)}` : count.format(n)}
      // zero in a grey that still reads: a paled chip is below readable contrast
      sx={{ minWidth: 40, fontVariantNumeric: 'tabular-nums', ...(n === 0 && { color: 'text.secondary' }) }}
    />
  );
}

const STATUS_COLUMNS = [
  { key: 'confirmed_payments', status: STATUS_CREDITED, label: T.confirmed },
  { key: 'pending_payments', status: STATUS_PENDING, label: T.pending },
  { key: 'failed_payments', status: STATUS_FAILED, label: T.failed },
] as const;

export function StoreStatsTable({ data, loading }: { data: StatsSummary | null; loading: boolean }) {
  // beside the menu a tablet's table pushes the status columns off the right edge
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('md'));
  const rows = data?.storeStats ?? [];

  if (!data) {
    return loading ? <Skeleton variant="rounded" height={160} /> : null;
  }
  if (rows.length === 0) {
    return (
      <Paper
        variant="outlined"
        sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}
        data-testid="store-stats-empty"
      >
        {T.noStores}
      </Paper>
    );
  }
  if (narrow) return <StoreStatsCards rows={rows} />;

  return (
    // focusable so a keyboard can scroll it (axe scrollable-region-focusable)
    <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label={T.perStore}>
      <Table size="small" data-testid="store-stats">
        <TableHead>
          <TableRow sx={{ '& th': { fontWeight: 600, whiteSpace: 'nowrap', bgcolor: 'grey.50' } }}>
            <TableCell>{T.storeCode}</TableCell>
            <TableCell>{T.storeName}</TableCell>
            <TableCell align="right">{T.paymentCount}</TableCell>
            <TableCell align="right">{T.amount}</TableCell>
            {STATUS_COLUMNS.map((c) => (
              <TableCell key={c.key} align="center">
                {c.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <StoreStatsRow key={r.store_id} r={r} />
          ))}
        </TableBody>
        {rows.length > 1 && <StoreStatsTotals data={data} rows={rows} />}
      </Table>
    </TableContainer>
  );
}

function StoreStatsRow({ r }: { r: StoreStats }) {
  return (
    <TableRow hover data-testid={`store-stats-${r.store_code}`}>
      <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.9rem' }}>{r.store_code}</TableCell>
      <TableCell>{r.store_name}</TableCell>
      <TableCell
        align="right"
        data-field="total_payments"
        data-value={r.total_payments}
        sx={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {count.format(r.total_payments)}
      </TableCell>
      <TableCell
        align="right"
        data-field="total_amount"
        data-value={r.total_amount}
        sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      >
        {formatNTD(r.total_amount)}
      </TableCell>
      {STATUS_COLUMNS.map((c) => (
        <TableCell key={c.key} align="center" data-field={c.key} data-value={r[c.key]}>
          <StatusCount status={c.status} n={r[c.key]} />
        </TableCell>
      ))}
    </TableRow>
  );
}

/** Under two stores or more. */
function StoreStatsTotals({ data, rows }: { data: StatsSummary; rows: StoreStats[] }) {
  const totals = STATUS_COLUMNS.map((c) => rows.reduce((n, r) => n + r[c.key], 0));
  return (
    <TableFooter>
      <TableRow sx={{ '& td': { fontWeight: 600, color: 'text.primary', fontSize: '0.875rem', borderBottom: 0 } }}>
        <TableCell colSpan={2}>{T.total}</TableCell>
        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {count.format(data.totalPayments)}
        </TableCell>
        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {formatNTD(data.totalAmount)}
        </TableCell>
        {totals.map((n, i) => (
          <TableCell key={STATUS_COLUMNS[i].key} align="center" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {count.format(n)}
          </TableCell>
        ))}
      </TableRow>
    </TableFooter>
  );
}

function StoreStatsCards({ rows }: { rows: StoreStats[] }) {
  return (
    <Stack spacing={1} data-testid="store-stats">
      {rows.map((r) => (
        <Paper key={r.store_id} variant="outlined" sx={{ p: 1.5 }} data-testid={`store-stats-${r.store_code}`}>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1 }}>
            <Typography sx={{ fontWeight: 600, minWidth: 0 }} noWrap>
              {r.store_name}{' '}
              <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                {r.store_code}
              </Typography>
            </Typography>
            <Typography
              sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
              data-field="total_amount"
              data-value={r.total_amount}
            >
              {formatNTD(r.total_amount)}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75, mt: 1 }}>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mr: 0.5 }}
              data-field="total_payments"
              data-value={r.total_payments}
            >
              {T.paymentCount} {count.format(r.total_payments)}
            </Typography>
            {STATUS_COLUMNS.map((c) => (
              <span key={c.key} data-field={c.key} data-value={r[c.key]}>
                <StatusCount status={c.status} n={r[c.key]} label={c.label} />
              </span>
            ))}
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}
