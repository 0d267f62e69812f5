import { Button, ButtonGroup } from '@mui/material';
import { QUICK_RANGES, quickDateRange } from '../../../core/browser';
import { PAYMENTS_UI as P } from '../messages';

export function QuickRanges({
  from,
  to,
  onPick,
}: {
  from?: string;
  to?: string;
  onPick: (range: { from: string; to: string }) => void;
}) {
  const now = Date.now();
  return (
    <ButtonGroup
      size="small"
      variant="outlined"
      aria-label="快速日期"
      data-testid="quick-ranges"
      sx={{ flexShrink: 0 }}
    >
      {QUICK_RANGES.map((name) => {
        const range = quickDateRange(name, now);
        const active = range.from === from && range.to === to;
        return (
          <Button
            key={name}
            variant={active ? 'contained' : 'outlined'}
            aria-pressed={active}
            onClick={() => onPick(range)}
            sx={{ px: 1, minWidth: 0 }}
          >
            {P.quickRanges[name]}
          </Button>
        );
      })}
    </ButtonGroup>
  );
}
