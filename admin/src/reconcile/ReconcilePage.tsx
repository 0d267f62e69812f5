/**
 * The 對帳 page: import a bank statement and see what was read, then the three
 * queues of the matcher's proposals for a period: 建議入帳, 需人工確認, 未入帳候選, 可能為分次或合併付款,
 * 銀行有款無回報 (whose credits can be made payments or linked by hand); when all are empty, why.
 * Loaded on demand, so the back office's first load stays small.
 */
import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Badge, Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Loading, Title, useAddUndoableMutation, useNotify } from 'react-admin';
import {
  canAccess,
  canSwitchStores,
  storeScope,
  storesInScope,
  statementPeriod,
  defaultDateRange,
  EMPTY_REASON_TEXT,
  mayMakePaymentOf,
} from '../../../core/browser';
import type { Me } from '../../../core/browser';
import { DateRangeFields } from '../common/DateRangeFields';
import { Forbidden } from '../common/Forbidden';
import { useSelectedStore } from '../common/storeSelection';
import { useMe } from '../common/useMe';
import { useStores } from '../common/useStores';
import { beginUndoable, UNDO_MS } from '../payments/undoPending';
import { dataProvider } from '../providers/dataProvider';
import { AutoQueue } from './AutoQueue';
import { GroupQueue } from './GroupQueue';
import { NOTHING_HELD, withoutHeld, type Held } from './held';
import { PayersSection } from './PayersSection';
import { RECONCILE_UI as R } from '../messages';
import { ReviewQueue, UnpaidQueue } from './ReviewQueue';
import { StatementUpload } from './StatementUpload';
import { UnreportedQueue } from './UnreportedQueue';
import type { BankLine, ImportedStatement } from './types';
import { CreateFromLineDialog, type NewFromLine } from './CreateFromLineDialog';
import { LinkReportDialog } from './LinkReportDialog';

export default function ReconcilePage() {
  const { me, isPending } = useMe();
  if (isPending) return <Loading />;
  if (!me || !canAccess(me, 'reconcile', 'list')) {
    return <Forbidden title={R.title} message={R.forbidden} testId="reconcile-forbidden" />;
  }
  return <ReconcileView me={me} />;
}

/** The store the page works on: a branch user's own; else the top bar's choice; a one-store scope is that store without asking. */
function ReconcileView({ me }: { me: Me }) {
  const canImport = canAccess(me, 'reconcile', 'import');
  const canDecide = canAccess(me, 'reconcile', 'decide');
  const [selected] = useSelectedStore();
  const scope = storeScope(me);
  const only = !scope.all && scope.ids.length === 1 ? scope.ids[0] : null;
  const storeId = !canSwitchStores(me) ? me.store_id : (selected ?? only);
  const { stores } = useStores();
  // several stores in scope and none chosen: the upload asks which (the server refuses without one)
  const choices = storeId === null && !scope.all ? storesInScope(me, stores) : null;
  const initial = defaultDateRange();
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [held, setHeld] = useState<Held>(NOTHING_HELD);
  const [imported, setImported] = useState<ImportedStatement[]>([]);
  const notify = useNotify();
  const addUndoable = useAddUndoableMutation();
  const client = useQueryClient();
  const key = ['reconcile', 'proposals', from, to, storeId];
  const proposals = useQuery({
    queryKey: key,
    queryFn: () => dataProvider.reconcileProposals(from, to, storeId),
    enabled: !!from && !!to,
  });
  const refetch = useCallback(() => client.invalidateQueries({ queryKey: ['reconcile'] }), [client]);

  const hold = useCallback(
    (payments: string[], lines: number[], on: boolean) =>
      setHeld((h) => {
        const ps = new Set(h.payments);
        const ls = new Set(h.lines);
        for (const u of payments)
          if (on) ps.add(u);
          else ps.delete(u);
        for (const l of lines)
          if (on) ls.add(l);
          else ls.delete(l);
        return { payments: ps, lines: ls };
      }),
    [],
  );

  /**
   * A decision leaves its queue at once (the counts drop with it) and waits behind 復原, as a
   * change in 匯款記錄 does: nothing is sent until the notice goes, so a wrong click, even
   * 確認入帳 for a whole queue, is taken back with one tap. Sent, the queues are read again.
   */
  // the same functions from one drawing to the next: a card nothing happened to is not drawn again
  const decide = useCallback(
    (payments: string[], lines: number[], message: string, send: () => Promise<unknown>) => {
      hold(payments, lines, true);
      const end = beginUndoable();
      addUndoable(async ({ isUndo }) => {
        if (isUndo) {
          end();
          hold(payments, lines, false);
          return;
        }
        try {
          await send();
        } catch (e) {
          notify(e instanceof Error && e.message ? e.message : R.confirmFailed, { type: 'error' });
        } finally {
          end();
          await refetch();
          hold(payments, lines, false);
        }
      });
      notify(message, { type: 'info', undoable: true, autoHideDuration: UNDO_MS });
    },
    [addUndoable, hold, notify, refetch],
  );
  const onConfirm = useCallback(
    (pairs: Array<{ payment: string; line: number }>) =>
      decide(
        pairs.map((p) => p.payment),
        pairs.map((p) => p.line),
        R.confirmed(pairs.length),
        () => dataProvider.confirmPairs(pairs),
      ),
    [decide],
  );
  const onUnpaid = useCallback(
    (payments: string[]) => decide(payments, [], R.marked(payments.length), () => dataProvider.markUnpaid(payments)),
    [decide],
  );
  // a credit nobody reported: made a payment, or linked to a report found by hand, behind the same 復原
  const [acting, setActing] = useState<{ line: BankLine; action: 'create' | 'link' } | null>(null);
  const onAct = useCallback((line: BankLine, action: 'create' | 'link') => setActing({ line, action }), []);
  const onCreate = useCallback(
    (v: NewFromLine) => {
      setActing(null);
      decide([], [v.line], R.createdFromLine, () => dataProvider.createFromLine(v));
    },
    [decide],
  );
  const onLink = useCallback(
    (line: number, payment: string) => {
      setActing(null);
      decide([payment], [line], R.linked, () => dataProvider.confirmPairs([{ payment, line }]));
    },
    [decide],
  );
  const data = useMemo(() => proposals.data && withoutHeld(proposals.data, held), [proposals.data, held]);
  // The API pages each queue (200 items); the badges count them all.
  const total = data?.page?.total;

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
          <StatementUpload
            storeId={storeId}
            choices={choices}
            onImported={(s) => {
              // the period of every statement imported on this visit, as the CLI takes several files
              const all = [...imported, s];
              setImported(all);
              const period = statementPeriod(all);
              if (period) {
                setFrom(period.from);
                setTo(period.to);
              }
              void refetch();
            }}
          />
        </Paper>
      )}
      <Stack direction="row" useFlexGap spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <DateRangeFields
          from={from}
          to={to}
          labels={{ from: R.from, to: R.to }}
          onChange={(range) => {
            setFrom(range.from);
            setTo(range.to);
          }}
          testids={{ from: 'reconcile-from', to: 'reconcile-to' }}
          sx={{ width: 160 }}
        />
        <Button startIcon={<RefreshIcon />} onClick={() => refetch()} disabled={proposals.isFetching}>
          {R.reload}
        </Button>
      </Stack>
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
      {data && (
        <Stack spacing={3}>
          <Section
            title={R.autoTitle}
            hint={R.autoHint}
            shown={data.auto.length}
            total={total?.auto}
            testid="queue-auto"
          >
            {canDecide ? (
              <AutoQueue key={JSON.stringify(key)} items={data.auto} onConfirm={onConfirm} />
            ) : (
              <ReadOnly n={data.auto.length} />
            )}
          </Section>
          <Section
            title={R.reviewTitle}
            hint={R.reviewHint}
            shown={data.review.length}
            total={total?.review}
            testid="queue-review"
          >
            {canDecide ? (
              <ReviewQueue items={data.review} onConfirm={onConfirm} onUnpaid={onUnpaid} />
            ) : (
              <ReadOnly n={data.review.length} />
            )}
          </Section>
          <Section
            title={R.unpaidTitle}
            hint={R.unpaidSectionHint}
            shown={data.unpaid.length}
            total={total?.unpaid}
            testid="queue-unpaid"
          >
            {canDecide ? (
              <UnpaidQueue items={data.unpaid} onConfirm={onConfirm} onUnpaid={onUnpaid} />
            ) : (
              <ReadOnly n={data.unpaid.length} />
            )}
          </Section>
          <Section
            title={R.groupsTitle}
            hint={R.groupsHint}
            shown={data.suggestions.length}
            total={total?.suggestions}
            testid="queue-groups"
          >
            <GroupQueue items={data.suggestions} />
          </Section>
          <Section
            title={R.unreportedTitle}
            hint={R.unreportedHint}
            shown={data.unreported.length + data.reviewLines.length}
            total={total && total.unreported + total.reviewLines}
            testid="queue-unreported"
          >
            <UnreportedQueue
              items={data.unreported}
              open={data.reviewLines}
              onConfirm={canDecide ? onConfirm : null}
              onAct={canDecide ? onAct : null}
              mayCreate={(line) => mayMakePaymentOf(me, line)}
            />
          </Section>
        </Stack>
      )}
      {acting?.action === 'create' && (
        <CreateFromLineDialog
          line={acting.line}
          me={me}
          storeId={storeId}
          onClose={() => setActing(null)}
          onCreate={onCreate}
        />
      )}
      {acting?.action === 'link' && (
        <LinkReportDialog
          line={acting.line}
          onClose={() => setActing(null)}
          onLink={(payment) => onLink(acting.line.id, payment)}
        />
      )}
      {canAccess(me, 'reconcile', 'payers') && (
        <Paper variant="outlined" sx={{ p: 1.5, mt: 3 }}>
          <PayersSection storeId={storeId} canForget={canDecide} />
        </Paper>
      )}
    </Box>
  );
}

function ReadOnly({ n }: { n: number }) {
  return <Typography color="text.secondary">{n ? `${n}` : R.empty}</Typography>;
}

/** `shown`: the items on this page; `total`: how many the queue has in all (the API pages them). */
function Section({
  title,
  hint,
  shown,
  total,
  testid,
  children,
}: {
  title: string;
  hint: string;
  shown: number;
  total?: number;
  testid: string;
  children: ReactNode;
}) {
  const count = total ?? shown;
  return (
    <Box component="section" data-testid={testid}>
      {/* the count after the title, not over it: a month's 1 404 covered the title's last word */}
      <Badge
        badgeContent={count}
        color="primary"
        max={99999}
        showZero
        sx={{
          alignItems: 'center',
          gap: 1,
          '& .MuiBadge-badge': { position: 'static', transform: 'none', transformOrigin: 'unset' },
        }}
      >
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
      </Badge>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {hint}
      </Typography>
      {count > shown && (
        <Alert severity="info" sx={{ mb: 1 }} data-testid={`${testid}-more`}>
          {R.moreThanShown(shown, count)}
        </Alert>
      )}
      {children}
    </Box>
  );
}
