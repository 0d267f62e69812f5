import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { formatNTD, formatTaipei } from '../../../core/browser';
import { Digits } from './Digits';
import { RECONCILE_UI as R } from '../messages';
import { LineFacts } from './LineFacts';
import { PaymentFacts } from './PaymentFacts';
import type { BankLine, Proposals } from './types';

interface Props {
  items: Proposals['unreported'];
  /** credits no proposal took, though some reports could explain them */
  open: Proposals['reviewLines'];
  /** null when the user may not decide */
  onConfirm: ((pairs: Array<{ payment: string; line: number }>) => void) | null;
  /** null when the user may not decide */
  onAct: ((line: BankLine, action: 'create' | 'link') => void) | null;
  /** a line of a statement for every store: only for who reaches every store */
  mayCreate: (line: BankLine) => boolean;
}

/** 銀行有款無回報: credits no report explains, then credits no proposal took with the reports that could. */
export function UnreportedQueue({ items, open, onConfirm, onAct, mayCreate }: Props) {
  if (items.length === 0 && open.length === 0) return <Typography color="text.secondary">{R.empty}</Typography>;
  return (
    <Stack spacing={1}>
      {items.map((u) => (
        <Card variant="outlined" key={u.line.id} data-testid="unreported-item">
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <LineFacts line={u.line} />
            {onAct && <LineActions line={u.line} onAct={onAct} mayCreate={mayCreate(u.line)} />}
          </CardContent>
        </Card>
      ))}
      {open.map((o) => (
        <Card variant="outlined" key={o.line.id} data-testid="open-line-item">
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <LineFacts line={o.line} />
            <Typography variant="overline" component="div" sx={{ mt: 1 }}>
              {R.possibleReports}
            </Typography>
            <Stack spacing={1}>
              {o.candidates.map((c) => (
                <Box key={c.payment.uuid} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
                  <Digits five={c.payment.last_five} digits={o.line.digits} />
                  <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                    <PaymentFacts payment={c.payment} />
                    <Typography variant="caption" color="text.secondary" component="div">
                      {c.reasons.join('、')}（{R.score(c.score)}）
                    </Typography>
                  </Box>
                  {onConfirm && (
                    <Button
                      size="small"
                      variant="outlined"
                      onClick={() => onConfirm([{ payment: c.payment.uuid, line: o.line.id }])}
                    >
                      {R.confirmOne}
                    </Button>
                  )}
                </Box>
              ))}
            </Stack>
            {onAct && <LineActions line={o.line} onAct={onAct} mayCreate={mayCreate(o.line)} />}
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** The label names the credit for a screen reader. */
function LineActions({
  line,
  onAct,
  mayCreate,
}: {
  line: BankLine;
  onAct: NonNullable<Props['onAct']>;
  mayCreate: boolean;
}) {
  const which = `${formatTaipei(Date.parse(line.at), { dateOnly: !line.has_time })} ${formatNTD(line.amount)}`;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      {mayCreate ? (
        <Button
          size="small"
          variant="outlined"
          onClick={() => onAct(line, 'create')}
          aria-label={`${R.createFromLine}：${which}`}
          data-testid="line-create"
        >
          {R.createFromLine}
        </Button>
      ) : null}
      <Button
        size="small"
        variant="outlined"
        onClick={() => onAct(line, 'link')}
        aria-label={`${R.linkToReport}：${which}`}
        data-testid="line-link"
      >
        {R.linkToReport}
      </Button>
      {mayCreate ? null : (
        <Typography variant="caption" color="text.secondary" data-testid="line-shared">
          {R.sharedLineNoCreate}
        </Typography>
      )}
    </Stack>
  );
}
