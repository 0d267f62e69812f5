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
  /**
   * The typed range, kept by a parent that stays mounted (useDateRangeDraft) where the fields move
   * between containers as the layout changes (匯款記錄's filters fold behind 篩選 on a phone): a
   * range typed but not applied (reversed) then survives a phone turned sideways.
   */
  draft?: DateRangeDraft;
}

type DateRangeDraft = [DateRange, (next: DateRange) => void];

/** The range as typed, following the applied one whenever that changes. */
export function useDateRangeDraft(from: string, to: string): DateRangeDraft {
  const [draft, setDraft] = useState<DateRange>({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  return [draft, setDraft];
}

/**
 * A start and an end date of a filter (payments, dashboard, reconciliation). A start after the
 * end is shown under the start with core's own sentence (the one the API and the CLI answer)
 * and is not passed on, so the screen keeps its last good range instead of asking for nothing.
 */
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
