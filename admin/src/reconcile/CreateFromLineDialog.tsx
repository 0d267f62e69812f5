import { MenuItem, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import {
  checkLastFive,
  lastFiveShown,
  NOTE_MAX_LENGTH,
  storeLabel,
  storesInScope,
  type Me,
} from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import { useStores } from '../common/useStores';
import { RECONCILE_UI as R, UI } from '../messages';
import { LineFacts } from './LineFacts';
import type { BankLine } from './types';

export interface NewFromLine {
  line: number;
  store_id: number;
  last_five?: string;
  note: string;
}

/** What the bank wrote about who paid and why, to start the note with. */
const noteOf = (line: BankLine) =>
  [line.summary, line.counterparty || line.payer, line.note].filter(Boolean).join(' ').slice(0, NOTE_MAX_LENGTH);

/** 建立匯款記錄 from a credit no report explains. Nothing is sent here: the page holds it behind 復原. */
export function CreateFromLineDialog({
  line,
  me,
  storeId,
  onClose,
  onCreate,
}: {
  line: BankLine;
  me: Me;
  storeId: number | null;
  onClose: () => void;
  onCreate: (v: NewFromLine) => void;
}) {
  const f = useNewFromLine(line, me, storeId, onCreate);
  return (
    <FormDialog
      open
      id="create-from-line"
      title={R.createFromLine}
      onClose={onClose}
      action={{ busy: false, failure: null }}
      labels={{ action: R.createFromLine, busy: R.creating }}
      onSubmit={f.submit}
    >
      <Typography variant="body2" color="text.secondary">
        {R.createFromLineHint}
      </Typography>
      <LineFacts line={line} />
      <StoreField f={f} locked={line.store_id !== null} />
      <LastFiveField f={f} />
      <TextField
        size="small"
        label={R.createNote}
        value={f.note}
        onChange={(e) => f.setNote(e.target.value)}
        multiline
        slotProps={{ htmlInput: { maxLength: NOTE_MAX_LENGTH, 'data-testid': 'create-note' } }}
      />
    </FormDialog>
  );
}

type NewFromLineForm = ReturnType<typeof useNewFromLine>;

function StoreField({ f, locked }: { f: NewFromLineForm; locked: boolean }) {
  return (
    <TextField
      select
      size="small"
      label={R.createStore}
      value={f.store}
      onChange={(e) => f.setStore(e.target.value === '' ? '' : Number(e.target.value))}
      disabled={locked}
      required
      error={!!f.errors.store}
      helperText={f.errors.store}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'create-store' } as object } }}
    >
      {f.choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {storeLabel(c)}
        </MenuItem>
      ))}
    </TextField>
  );
}

function LastFiveField({ f }: { f: NewFromLineForm }) {
  const { shown } = f;
  return (
    <TextField
      size="small"
      label={shown ? R.lastFiveFromLine : UI.lastFive}
      value={f.five}
      onChange={(e) => f.setFive(e.target.value)}
      required={!shown}
      error={!!f.errors.five}
      helperText={f.errors.five ?? (shown ? undefined : R.lastFiveAsk)}
      slotProps={{
        input: { readOnly: !!shown },
        htmlInput: { inputMode: 'numeric', maxLength: 5, 'data-testid': 'create-last-five' },
      }}
    />
  );
}

function useNewFromLine(line: BankLine, me: Me, storeId: number | null, onCreate: (v: NewFromLine) => void) {
  const { stores } = useStores();
  const choices = line.store_id !== null ? stores.filter((s) => s.id === line.store_id) : storesInScope(me, stores);
  const only = choices.length === 1 ? choices[0].id : null;
  const [store, setStore] = useState<number | ''>(line.store_id ?? storeId ?? only ?? '');
  const shown = lastFiveShown(line.digits);
  const [five, setFive] = useState(shown ?? '');
  const [note, setNote] = useState(() => noteOf(line));
  const [errors, setErrors] = useState<{ store?: string; five?: string }>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = {
      store: store === '' ? R.storeRequired : undefined,
      five: shown ? undefined : (checkLastFive(five) ?? undefined),
    };
    setErrors(found);
    if (found.store || found.five || store === '') return;
    onCreate({ line: line.id, store_id: store, ...(shown ? {} : { last_five: five.trim() }), note: note.trim() });
  };
  return { choices, store, setStore, shown, five, setFive, note, setNote, errors, submit };
}
