import PrintIcon from '@mui/icons-material/Print';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Chip, GlobalStyles, LinearProgress, Skeleton, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Loading, Title } from 'react-admin';
import { canSwitchStores, gates, scopeIsEmpty, storeLabel } from '../../../core/browser';
import { DateRangeFields, type DateRange } from '../common/DateRangeFields';
import { Forbidden, NoStoreNotice } from '../common/Forbidden';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { DASHBOARD_UI as T } from '../messages';
import { StoreStatsTable } from './StoreStatsTable';
import { MethodTakings } from './MethodTakings';
import { SummaryCards } from './SummaryCards';
import { useStatsSummary } from './useStatsSummary';

// the charts and their library load with the dashboard only, not with the back office
const DashboardCharts = lazy(() => import('./DashboardCharts'));

/** On paper, the page alone: no menu, top bar or buttons. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        '.RaAppBar-root, .MuiAppBar-root, .RaSidebar-root, .MuiDrawer-root, .RaLayout-appFrame > .MuiToolbar-root, button, .MuiButton-root, [data-print="hide"]':
          { display: 'none !important' },
        '.RaLayout-appFrame': { marginTop: '0 !important' },
        '.RaLayout-content': { padding: '0 !important' },
        body: { background: '#fff' },
      },
    }}
  />
);

export function Dashboard() {
  const { me, isPending } = useMe();
  const allowed = !!me && gates.viewReports(me);
  const [selected] = useSelectedStore();
  // branch users have no switcher: a choice left in storage by another account must not narrow their view
  const storeId = me && canSwitchStores(me) ? selected : null;
  const [range, setRange] = useState<DateRange>({ from: '', to: '' });
  const { data, loading, refresh } = useStatsSummary({ store_id: storeId, ...range }, allowed);
  const { byId } = useStores();

  if (isPending) return <Loading />;
  if (!allowed) return <Forbidden title={T.title} message={T.forbidden} testId="dashboard-forbidden" />;

  if (me && scopeIsEmpty(me)) {
    // say why, rather than show zeros as if the stores had no payments
    return <NoStoreNotice title={T.title} heading={T.noStoreTitle} message={T.noStore} testId="dashboard-no-store" />;
  }

  const scope = storeId === null ? T.allStores : storeLabel(byId(storeId));
  return (
    <Box sx={{ py: { xs: 1, sm: 2 }, px: { xs: 0.5, sm: 1 } }} data-testid="dashboard">
      <Title title={T.title} />
      {printStyles}
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={{ xs: 1.5, md: 2 }}
        sx={{ mb: 2, alignItems: { xs: 'stretch', md: 'center' } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', flex: 1, minWidth: 0 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600, fontSize: { xs: '1.25rem', sm: '1.5rem' } }}>
            {T.title}
          </Typography>
          <Chip
            size="small"
            label={`${T.scope}：${scope}`}
            color={storeId === null ? 'default' : 'primary'}
            data-testid="dashboard-scope"
          />
        </Box>
        <DashboardTools range={range} setRange={setRange} loading={loading} refresh={refresh} />
      </Stack>
      <Box sx={{ height: 4, mb: 1 }}>{loading && <LinearProgress data-testid="dashboard-loading" />}</Box>
      <SummaryCards data={data} loading={loading} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1, fontSize: '1.05rem', fontWeight: 600 }}>
        {T.perStore}
      </Typography>
      <StoreStatsTable data={data} loading={loading} />
      <Box sx={{ mt: 2 }}>
        <MethodTakings data={data} />
      </Box>
      <Suspense fallback={<Skeleton variant="rounded" height={320} sx={{ mt: 3 }} />}>
        <DashboardCharts params={{ store_id: storeId, ...range }} />
      </Suspense>
    </Box>
  );
}

function DashboardTools(props: {
  range: DateRange;
  setRange: (range: DateRange) => void;
  loading: boolean;
  refresh: () => void;
}) {
  const { range, setRange, loading, refresh } = props;
  return (
    // beside the menu a tablet's page is 360 to 660 px wide: wraps wherever it is short of room
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', justifyContent: { md: 'flex-end' } }}>
      <DateRangeFields
        from={range.from}
        to={range.to}
        labels={{ from: T.from, to: T.to }}
        onChange={setRange}
        testids={{ from: 'dashboard-from', to: 'dashboard-to' }}
        sx={{ flex: { xs: '1 1 40%', sm: '0 0 160px' } }}
      />
      {(range.from || range.to) && (
        <Button size="small" onClick={() => setRange({ from: '', to: '' })} sx={{ whiteSpace: 'nowrap' }}>
          {T.clearDates}
        </Button>
      )}
      <Button
        variant="outlined"
        startIcon={<PrintIcon />}
        onClick={() => window.print()}
        sx={{ whiteSpace: 'nowrap' }}
        data-testid="dashboard-print"
      >
        {T.print}
      </Button>
      <Button
        variant="contained"
        startIcon={<RefreshIcon />}
        onClick={refresh}
        disabled={loading}
        sx={{ whiteSpace: 'nowrap', flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
        data-testid="dashboard-refresh"
      >
        {T.refresh}
      </Button>
    </Box>
  );
}
