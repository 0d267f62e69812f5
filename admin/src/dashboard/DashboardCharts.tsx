// The dashboard's charts, loaded lazily so @mui/x-charts is not in the back office's first load.
import {
  Alert,
  Box,
  Paper,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { storeLabel, formatNTD, type StatsCharts } from '../../../core/browser';
import { DASHBOARD_UI as T } from '../messages';
import { serverMessage } from '../serverError';
import type { RemitDataProvider } from '../providers/dataProvider';
import type { StatsParams } from './useStatsSummary';

const STATUS_COLORS = { pending: '#fbc02d', confirmed: '#2e7d32', failed: '#c62828' };
const money = (v: number | null) => (v === null ? '' : formatNTD(v));
const localeText = { noData: T.chartNoData, loading: T.chartLoading };

export default function DashboardCharts({ params }: { params: StatsParams }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const { store_id, from, to } = params;
  const { data, error } = useQuery({
    queryKey: ['stats', 'charts', { store_id, from, to }],
    retry: false,
    queryFn: () => dataProvider.statsCharts({ store_id, from: from || undefined, to: to || undefined }),
  });
  // a refused range (over 366 days) or a failed request says why instead of loading for ever
  if (error)
    return (
      <Alert severity="warning" sx={{ mt: 3 }} data-testid="dashboard-charts-error">
        {serverMessage(error) ?? T.chartFailed}
      </Alert>
    );
  if (!data) return <Skeleton variant="rounded" height={320} sx={{ mt: 3 }} />;

  return (
    <Box
      sx={{
        mt: 3,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
      }}
      data-testid="dashboard-charts"
    >
      <DailyChart data={data} />
      <StatusChart data={data} />
    </Box>
  );
}

const paperSx = { p: { xs: 1, sm: 2 }, minWidth: 0, breakInside: 'avoid' } as const;
const headingSx = { fontSize: '1.05rem', fontWeight: 600 } as const;
const legend = { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'center' } } as const;
const thousands = (v: number) => (v >= 10_000 ? `${Math.round(v / 1000)}k` : String(v));

function DailyChart({ data }: { data: StatsCharts }) {
  const names = new Map(data.stores.map((s) => [s.store_id, storeLabel({ name: s.store_name, code: s.store_code })]));
  const days = data.days.map((d) => d.slice(5).replace('-', '/'));
  return (
    <Paper variant="outlined" sx={paperSx}>
      <Typography variant="h6" component="h2" sx={headingSx}>
        {T.dailyChart}
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="chart-range">
        {T.chartRange(data.from, data.to)}
      </Typography>
      <LineChart
        height={300}
        localeText={localeText}
        xAxis={[{ scaleType: 'point', data: days }]}
        yAxis={[{ valueFormatter: thousands, width: 56 }]}
        series={data.daily.map((s) => ({
          data: s.amounts,
          label: names.get(s.store_id),
          valueFormatter: money,
          showMark: data.days.length <= 31,
          curve: 'linear' as const,
        }))}
        slotProps={{ legend }}
      />
    </Paper>
  );
}

function StatusChart({ data }: { data: StatsCharts }) {
  const series = [
    { data: data.stores.map((s) => s.pending_amount), label: T.pending, color: STATUS_COLORS.pending },
    { data: data.stores.map((s) => s.confirmed_amount), label: T.confirmed, color: STATUS_COLORS.confirmed },
    { data: data.stores.map((s) => s.failed_amount), label: T.failed, color: STATUS_COLORS.failed },
  ].map((bar) => ({ ...bar, valueFormatter: money }));
  return (
    <Paper variant="outlined" sx={paperSx}>
      <Typography variant="h6" component="h2" sx={headingSx}>
        {T.statusChart}
      </Typography>
      <BarChart
        height={260}
        localeText={localeText}
        xAxis={[{ scaleType: 'band', data: data.stores.map((s) => s.store_name) }]}
        yAxis={[{ valueFormatter: thousands, width: 56 }]}
        series={series}
        slotProps={{ legend }}
      />
      <StatusAmounts stores={data.stores} />
    </Paper>
  );
}

/** The chart's figures, for a screen reader and for printing in black and white. */
function StatusAmounts({ stores }: { stores: StatsCharts['stores'] }) {
  return (
    // scrolls sideways on a phone: focusable for a keyboard, named for a screen reader
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={T.statusChart}>
      <Table
        size="small"
        data-testid="status-amounts"
        sx={{
          '& td, & th': { px: { xs: 0.5, sm: 1 }, whiteSpace: 'nowrap' },
          '& td:first-of-type': { whiteSpace: { xs: 'normal', sm: 'nowrap' } },
        }}
      >
        <TableHead>
          <TableRow>
            <TableCell>{T.store}</TableCell>
            <TableCell align="right">{T.pending}</TableCell>
            <TableCell align="right">{T.confirmed}</TableCell>
            <TableCell align="right">{T.failed}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {stores.map((s) => (
            <TableRow key={s.store_id} data-testid={`status-amounts-${s.store_code}`}>
              <TableCell data-testid="status-amounts-store">
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  {s.store_name}
                </Box>{' '}
                <Box component="span" sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
                  ({s.store_code})
                </Box>
              </TableCell>
              <TableCell align="right">{formatNTD(s.pending_amount)}</TableCell>
              <TableCell align="right">{formatNTD(s.confirmed_amount)}</TableCell>
              <TableCell align="right">{formatNTD(s.failed_amount)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
