import { TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useUpdate } from 'react-admin';
import { NOTE_MAX_LENGTH } from '../../../core/validation/payment';
import type { Payment } from '../../../core/types';
import { UI } from '../messages';

/** Note: an editable text field for edit_payments, saved when it loses focus; otherwise text (無備註 when empty). */
export function NoteCell({ record, editable }: { record: Payment; editable: boolean }) {
  const [value, setValue] = useState(record.note);
  const [update] = useUpdate();
  useEffect(() => setValue(record.note), [record.note]);
  if (!editable) {
    return record.note ? (
      <Typography variant="body2">{record.note}</Typography>
    ) : (
      <Typography variant="body2" color="text.disabled">
        {UI.noNote}
      </Typography>
    );
  }
  return (
    <TextField
      size="small"
      value={value}
      placeholder={UI.noNote}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => {
        if (value.trim() === record.note) return;
        update(
          'payments',
          { id: record.id, data: { note: value }, previousData: record },
          { mutationMode: 'pessimistic', onError: (err) => console.error('更新備註失敗', err) },
        );
      }}
      onClick={(e) => e.stopPropagation()}
      slotProps={{ htmlInput: { maxLength: NOTE_MAX_LENGTH, 'aria-label': '備註', 'data-testid': `note-${record.id}` } }}
      sx={{ minWidth: 160 }}
    />
  );
}
