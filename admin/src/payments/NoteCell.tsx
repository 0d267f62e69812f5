import { TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { NOTE_MAX_LENGTH } from '../../../core/browser';
import type { Payment } from '../../../core/browser';
import { UI } from '../messages';
import { useHoldLayout } from './layoutHold';
import { useInlineSave } from './useInlineSave';

/** Saved on blur or Enter; Escape or a failed save puts the stored note back. */
export function NoteCell({ record, editable, fullWidth }: { record: Payment; editable: boolean; fullWidth?: boolean }) {
  const [value, setValue] = useState(record.note);
  const [typing, setTyping] = useState(false);
  useHoldLayout(typing);
  const [save] = useInlineSave(record);
  const cancelled = useRef(false);
  useEffect(() => setValue(record.note), [record.note]);
  if (!editable) {
    return record.note ? (
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {record.note}
      </Typography>
    ) : (
      <Typography variant="body2" color="text.secondary">
        {UI.noNote}
      </Typography>
    );
  }
  return (
    <TextField
      size="small"
      variant="standard"
      margin="none"
      value={value}
      placeholder={UI.noNote}
      fullWidth={fullWidth}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
        if (e.key === 'Escape') {
          cancelled.current = true;
          setValue(record.note);
          (e.target as HTMLInputElement).blur();
        }
      }}
      onFocus={() => setTyping(true)}
      onBlur={() => {
        setTyping(false);
        if (cancelled.current) {
          cancelled.current = false;
          return;
        }
        if (value.trim() === record.note) return;
        save({ note: value }, () => setValue(record.note));
      }}
      onClick={(e) => e.stopPropagation()}
      // whole on hover; on the field's box, not the input, so a screen reader does not read it twice
      slotProps={{
        input: { title: value || undefined },
        htmlInput: { maxLength: NOTE_MAX_LENGTH, 'aria-label': '備註', 'data-testid': `note-${record.id}` },
      }}
      sx={{ minWidth: fullWidth ? 0 : 140, '& .MuiInputBase-input': { py: 0.25, fontSize: '0.875rem' } }}
    />
  );
}
