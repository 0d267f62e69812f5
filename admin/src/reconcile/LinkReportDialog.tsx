import { Alert, Box, FormControlLabel, LinearProgress, Radio, RadioGroup, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { FormDialog } from '../common/FormDialog';
import { dataProvider } from '../providers/dataProvider';
import { RECONCILE_UI as R } from '../messages';
import { LineFacts } from './LineFacts';
import { PaymentFacts } from './PaymentFacts';
import type { BankLine } from './types';

// 連結到回報: reports this credit could pay. One of another amount is shown, so the accountant sees why it is
// not offered, but cannot be chosen: a link pays its own amount. The page holds the link behind 復原.
export function LinkReportDialog({
  line,
  onClose,
  onLink,
}: {
  line: BankLine;
  onClose: () => void;
  onLink: (payment: string) => void;
}) {
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const [chosen, setChosen] = useState('');
  const found = useQuery({
    queryKey: ['reconcile', 'reports-for-line', line.id, q],
    queryFn: () => dataProvider.reportsForLine(line.id, q),
  });
  const reports = found.data?.reports ?? [];

  return (
    <FormDialog
      open
      id="link-report"
      title={R.linkToReport}
      onClose={onClose}
      action={{ busy: false, failure: found.isError && found.error instanceof Error ? found.error.message : null }}
      labels={{ action: R.link, busy: R.link }}
      actionDisabled={!chosen}
      maxWidth="sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) onLink(chosen);
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {R.linkHint}
      </Typography>
      <LineFacts line={line} />
      <TextField
        size="small"
        type="search"
        label={R.linkSearch}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'link-search' } }}
      />
      {found.isFetching && <LinearProgress aria-label={R.linkLoading} />}
      {found.isSuccess && reports.length === 0 && <Alert severity="info">{R.linkNone}</Alert>}
      <RadioGroup aria-label={R.linkReports} value={chosen} onChange={(e) => setChosen(e.target.value)} sx={{ gap: 1 }}>
        {reports.map((p) => {
          const differs = p.amount !== line.amount;
          return (
            <FormControlLabel
              key={p.uuid}
              value={p.uuid}
              disabled={differs}
              data-testid="link-report-option"
              control={<Radio />}
              sx={{ alignItems: 'flex-start', mx: 0, '& .MuiRadio-root': { pt: 0.5 } }}
              label={
                <Box>
                  <PaymentFacts payment={p} />
                  {differs && (
                    <Typography variant="caption" color="text.secondary">
                      {R.linkAmountDiffers}
                    </Typography>
                  )}
                </Box>
              }
            />
          );
        })}
      </RadioGroup>
    </FormDialog>
  );
}
