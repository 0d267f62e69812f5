// The 對帳 page: import a bank statement, then decide the matcher's proposals for a period.
import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Loading, Title } from 'react-admin';
import {
  canAccess,
  canSwitchStores,
  storeScope,
  storesInScope,
  statementPeriod,
  defaultDateRange,
  EMPTY_REASON_TEXT,
} from '../../../core/browser';
import type { Me } from '../../../core/browser';
import { DateRangeFields, type DateRange } from '../common/DateRangeFields';
import { Forbidden } from '../common/Forbidden';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { dataProvider } from '../providers/dataProvider';
import { withoutHeld } from './held';
import { PayersSection } from './PayersSection';
import { RECONCILE_UI as R } from '../messages';
import { Queues } from './Queues';
import { StatementUpload } from './StatementUpload';
import type { ImportedStatement } from './types';
import { CreateFromLineDialog } from './CreateFromLineDialog';
import { LinkReportDialog } from './LinkReportDialog';
import { useDecide, useQueueActions, type QueueActions } from './useDecisions';

export default function ReconcilePage() {
  const { me, isPending } = useMe();
  if (isPending) return <Loading />;
  if (!me || !canAccess(me, 'reconcile', 'list')) {
    return <Forbidden title={R.title} message={R.forbidden} testId="reconcile-forbidden" />;
  }
  return <ReconcileView me={me} />;
}

function ReconcileView({ me }: { me: Me }) {
  const canImport = canAccess(me, 'reconcile', 'import');
  const canDecide = canAccess(me, 'reconcile', 'decide');
  const { storeId, choices } = usePageStore(me);
  const client = useQueryClient();
  const refetch = useCallback(() => client.invalidateQueries({ queryKey: ['reconcile'] }), [client]);
  const period = usePeriod(refetch);
  const { held, decide } = useDecide(refetch);
  const actions = useQueueActions(decide);
  const key = ['reconcile', 'proposals', period.from, period.to, storeId];
  const proposals = useQuery({
    queryKey: key,
    queryFn: () => dataProvider.reconcileProposals(period.from, period.to, storeId),
    enabled: !!period.from && !!period.to,
  });
  const data = useMemo(() => proposals.data && withoutHeld(proposals.data, held), [proposals.data, held]);

  return (
    <Box sx={{ py: { xs: 1, sm: 2 }, px: { xs: 0.5, sm: 1 }, maxWidth: 1200 }} data-testid="reconcile">
      <Title title={R.title} />
      <Typography
        variant="h5"
        component="h1"
        sx={{ fontWeight: 600, mb: 1.5, fontSize: { xs: '1.25rem', sm: '1.5rem' } }}
      >
        {R.title}
      </Typography>
      {canImport && (
        <Paper variant="outlined" sx={{ p: 1.5, mb: 2 }}>
          <StatementUpload storeId={storeId} choices={choices} onImported={period.onImported} />
        </Paper>
      )}
      <PeriodBar period={period} reload={refetch} busy={proposals.isFetching} />
      {proposals.isFetching && <LinearProgress sx={{ mb: 1 }} aria-label={R.loading} />}
      {proposals.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {R.loadFailed}：{proposals.error instanceof Error ? proposals.error.message : ''}
        </Alert>
      )}
      {data?.empty && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="reconcile-empty-why">
          {EMPTY_REASON_TEXT[data.empty]}
        </Alert>
      )}
      {data && <Queues data={data} me={me} actions={canDecide ? actions : null} autoKey={JSON.stringify(key)} />}
      <ActingDialog me={me} storeId={storeId} actions={actions} />
      {canAccess(me, 'reconcile', 'payers') && (
        <Paper variant="outlined" sx={{ p: 1.5, mt: 3 }}>
          <PayersSection storeId={storeId} canForget={canDecide} />
        </Paper>
      )}
    </Box>
  );
}

/** A branch user's own store, else the top bar's; a one-store scope is that store without asking. */
function usePageStore(me: Me) {
  const [selected] = useSelectedStore();
  const scope = storeScope(me);
  const only = !scope.all && scope.ids.length === 1 ? scope.ids[0] : null;
  const storeId = !canSwitchStores(me) ? me.store_id : (selected ?? only);
  const { stores } = useStores();
  // several stores and none chosen: the upload asks which, as the server refuses without one
  const choices = storeId === null && !scope.all ? storesInScope(me, stores) : null;
  return { storeId, choices };
}

/** The default period, widened to every statement imported on this visit, as the CLI takes several files. */
function usePeriod(refetch: () => Promise<void>) {
  const initial = defaultDateRange();
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [imported, setImported] = useState<ImportedStatement[]>([]);
  const setRange = (range: DateRange) => {
    setFrom(range.from);
    setTo(range.to);
  };
  const onImported = (s: ImportedStatement) => {
    const all = [...imported, s];
    setImported(all);
    const period = statementPeriod(all);
    if (period) setRange(period);
    void refetch();
  };
  return { from, to, setRange, onImported };
}

function PeriodBar(props: { period: ReturnType<typeof usePeriod>; reload: () => Promise<void>; busy: boolean }) {
  const { period, reload, busy } = props;
  return (
    <Stack direction="row" useFlexGap spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <DateRangeFields
        from={period.from}
        to={period.to}
        labels={{ from: R.from, to: R.to }}
        onChange={period.setRange}
        testids={{ from: 'reconcile-from', to: 'reconcile-to' }}
        sx={{ width: 160 }}
      />
      <Button startIcon={<RefreshIcon />} onClick={() => reload()} disabled={busy}>
        {R.reload}
      </Button>
    </Stack>
  );
}

function ActingDialog({ me, storeId, actions }: { me: Me; storeId: number | null; actions: QueueActions }) {
  const { acting, setActing, onCreate, onLink } = actions;
  if (acting?.action === 'create')
    return (
      <CreateFromLineDialog
        line={acting.line}
        me={me}
        storeId={storeId}
        onClose={() => setActing(null)}
        onCreate={onCreate}
      />
    );
  if (acting?.action === 'link')
    return (
      <LinkReportDialog
        line={acting.line}
        onClose={() => setActing(null)}
        onLink={(payment) => onLink(acting.line.id, payment)}
      />
    );
  return null;
}
