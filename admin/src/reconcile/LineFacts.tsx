import { Box, Typography } from '@mui/material';
import { formatNTD, formatTaipei } from '../../../core/browser';
import { RECONCILE_UI as R } from '../messages';
import type { BankLine } from './types';

/** Without a counterparty, the payer read from 備註. */
export function LineFacts({ line }: { line: BankLine }) {
  const at = Date.parse(line.at);
  return (
    <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {line.has_time ? formatTaipei(at) : `${formatTaipei(at, { dateOnly: true })}${R.dateOnly}`}
        {'　'}
        {formatNTD(line.amount)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1.5 }}>
        {/* a narrow screen breaks between facts, never inside one */}
        <Fact label={R.summary} value={line.summary || '—'} />
        {line.counterparty || !line.payer ? (
          <Fact label={R.counterparty} value={line.counterparty || '—'} />
        ) : (
          <Fact label={R.payerOnLine} value={line.payer} />
        )}
        {line.note && <Fact label={R.note} value={line.note} />}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {R.row(line.file, line.row)}
        {line.account ? `　${R.account}：${line.account}` : ''}
      </Typography>
    </Box>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Box component="span" sx={{ minWidth: 0 }}>
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {label}：
      </Box>
      {value}
    </Box>
  );
}
