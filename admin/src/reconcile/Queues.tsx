// The 對帳 page's queues for the period, each a titled section with its count.
import { Alert, Badge, Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { mayMakePaymentOf, type Me } from '../../../core/browser';
import { RECONCILE_UI as R } from '../messages';
import { AutoQueue } from './AutoQueue';
import { GroupQueue } from './GroupQueue';
import { ReviewQueue, UnpaidQueue } from './ReviewQueue';
import { UnreportedQueue } from './UnreportedQueue';
import type { Proposals } from './types';
import type { QueueActions } from './useDecisions';

interface QueuesProps {
  data: Proposals;
  me: Me;
  /** null: the user may not decide, and the first three queues are counted only */
  actions: QueueActions | null;
  /** a new period or store starts 建議入帳's choices afresh */
  autoKey: string;
}

export function Queues(props: QueuesProps) {
  const { data, me, actions } = props;
  // the API pages each queue; the badges count them all
  const total = data.page?.total;
  return (
    <Stack spacing={3}>
      <DecisionQueues {...props} />
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
          onConfirm={actions ? actions.onConfirm : null}
          onAct={actions ? actions.onAct : null}
          mayCreate={(line) => mayMakePaymentOf(me, line)}
        />
      </Section>
    </Stack>
  );
}

function DecisionQueues({ data, actions, autoKey }: QueuesProps) {
  const total = data.page?.total;
  return (
    <>
      <Section title={R.autoTitle} hint={R.autoHint} shown={data.auto.length} total={total?.auto} testid="queue-auto">
        {actions ? (
          <AutoQueue key={autoKey} items={data.auto} onConfirm={actions.onConfirm} />
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
        {actions ? (
          <ReviewQueue items={data.review} onConfirm={actions.onConfirm} onUnpaid={actions.onUnpaid} />
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
        {actions ? (
          <UnpaidQueue items={data.unpaid} onConfirm={actions.onConfirm} onUnpaid={actions.onUnpaid} />
        ) : (
          <ReadOnly n={data.unpaid.length} />
        )}
      </Section>
    </>
  );
}

function ReadOnly({ n }: { n: number }) {
  return <Typography color="text.secondary">{n ? `${n}` : R.empty}</Typography>;
}

/** `total`: the queue's items in all, `shown` those on this page. */
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
      {/* after the title, not over it: a four-digit count covered the title's last word */}
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
