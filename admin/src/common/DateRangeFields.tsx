import { TextField, type SxProps, type Theme } from '@mui/material';
import { useEffect, useState } from 'react';
import { dateRangeError } from '../../../core/browser';

export interface DateRange {
  /** Taiwan dates `YYYY-MM-DD`, inclusive; empty for no bound */
  from: string;
  to: string;
}

interface Props extends DateRange {
  labels: { from: string; to: string };
  /** called only with a range core's rule accepts */
  onChange: (range: DateRange) => void;
  testids?: { from?: string; to?: string };
  sx?: SxProps<Theme>;
  /** Held by a parent that stays mounted when the fields move with the layout, so a typed range survives. */
  draft?: DateRangeDraft;
}

type DateRangeDraft = [DateRange, (next: DateRange) => void];

/** Follows the applied range whenever that changes. */
export function useDateRangeDraft(from: string, to: string): DateRangeDraft {
  const [draft, setDraft] = useState<DateRange>({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  return [draft, setDraft];
}

/** A reversed range is shown with core's sentence and not passed on, so the screen keeps its last good range. */
export function DateRangeFields({ from, to, labels, onChange, testids, sx, draft: kept }: Props) {
  const own = useDateRangeDraft(from, to);
  const [draft, setDraft] = kept ?? own;
  const error = dateRangeError(draft.from, draft.to);
  const change = (next: DateRange) => {
    setDraft(next);
    if (!dateRangeError(next.from, next.to)) onChange(next);
  };
  const common = { type: 'date', size: 'small', margin: 'none', fullWidth: false, error: !!error, sx } as const;
  return (
    <>
      <TextField
        {...common}
        label={labels.from}
        value={draft.from}
        onChange={(e) => change({ ...draft, from: e.target.value })}
        helperText={error ?? undefined}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { max: draft.to || undefined, 'data-testid': testids?.from },
          formHelperText: { role: 'alert' },
        }}
      />
      <TextField
        {...common}
        label={labels.to}
        value={draft.to}
        onChange={(e) => change({ ...draft, to: e.target.value })}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { min: draft.from || undefined, 'data-testid': testids?.to },
        }}
      />
    </>
  );
}
