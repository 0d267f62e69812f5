// 修改 and 刪除 of a cash-out entry on the day's page, each with 復原: the change shows at once and is sent
// only after its notice has gone; the day is then read again, so its figures follow.
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import { IconButton, MenuItem, TextField, Tooltip } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useDelete, useNotify, useUpdate } from 'react-admin';
import {
  CASH_OUT_KINDS,
  EXPENSE_CATEGORIES,
  formatNTD,
  parseInstant,
  taipeiInputValue,
  validateCashOut,
  type DayLine,
} from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import { useServerAction } from '../common/useServerAction';
import { CLOSES_UI as T } from '../messages';
import { ConfirmDialog } from '../payments/ConfirmDialog';
import { serverMessage } from '../serverError';
import { beginUndoable, UNDO_MS } from '../payments/undoPending';

type LineEdit = Pick<DayLine, 'method' | 'category' | 'amount' | 'note' | 'at'>;

/** Lines hidden or changed while their 復原 stands; the day is read again once the change is sent. */
export function useCashOutChanges(reload: () => Promise<void>) {
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [edited, setEdited] = useState<Map<string, LineEdit>>(new Map());
  const forget = (id: string) => {
    setHidden((h) => new Set([...h].filter((x) => x !== id)));
    setEdited((m) => new Map([...m].filter(([x]) => x !== id)));
  };
  const notify = useNotify();
  const failed = (err: unknown) => notify(serverMessage(err) ?? T.cashOutFailed, { type: 'error' });
  // ra-core hands onUndo to its undoable mutation, though its option types leave it out
  const undone = { onUndo: ({ id }: { id?: unknown }) => forget(String(id)) } as never;
  const [remove] = useDelete(undefined, undefined, undone);
  const [update] = useUpdate(undefined, undefined, undone);
  const settled = (id: string, end: () => void) => () => void reload().finally(() => (end(), forget(id)));

  function drop(line: DayLine) {
    const end = beginUndoable();
    setHidden((h) => new Set(h).add(line.id));
    remove(
      'cash-out',
      { id: line.id, previousData: { id: line.id } },
      {
        mutationMode: 'undoable',
        onSuccess: () =>
          notify(T.cashOutDeleted(line.method, formatNTD(line.amount)), {
            type: 'info',
            undoable: true,
            autoHideDuration: UNDO_MS,
          }),
        onSettled: settled(line.id, end),
        onError: failed,
      },
    );
  }

  function change(line: DayLine, next: LineEdit & { kind: string }) {
    const end = beginUndoable();
    setEdited((m) => new Map(m).set(line.id, next));
    const data = { kind: next.kind, category: next.category, amount: next.amount, note: next.note, at: next.at };
    update(
      'cash-out',
      { id: line.id, data, previousData: { id: line.id } },
      {
        mutationMode: 'undoable',
        onSuccess: () =>
          notify(T.cashOutChanged(next.kind, formatNTD(next.amount)), {
            type: 'info',
            undoable: true,
            autoHideDuration: UNDO_MS,
          }),
        onSettled: settled(line.id, end),
        onError: failed,
      },
    );
  }

  const shown = (lines: DayLine[]) =>
    lines.filter((l) => !hidden.has(l.id) || l.type !== 'cash_out').map((l) => ({ ...l, ...edited.get(l.id) }));
  return { drop, change, shown };
}

export function CashOutActions({
  line,
  onDelete,
  onChange,
}: {
  line: DayLine;
  onDelete?: () => void;
  onChange?: (next: LineEdit & { kind: string }) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [editing, setEditing] = useState(false);
  const what = `${line.method} ${formatNTD(line.amount)}`;
  return (
    <>
      {onChange && (
        <Tooltip title={T.editCashOut}>
          <IconButton size="small" aria-label={T.editCashOutOf(what)} onClick={() => setEditing(true)}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {onDelete && (
        <Tooltip title={T.deleteCashOut}>
          <IconButton size="small" color="error" aria-label={T.deleteCashOutOf(what)} onClick={() => setAsking(true)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <ConfirmDialog
        open={asking}
        title={T.deleteCashOut}
        body={T.deleteCashOutBody(what)}
        busy={false}
        onConfirm={() => (setAsking(false), onDelete?.())}
        onClose={() => setAsking(false)}
      />
      {editing && onChange && (
        <EditDialog
          line={line}
          onClose={() => setEditing(false)}
          onSave={(next) => (setEditing(false), onChange(next))}
        />
      )}
    </>
  );
}

function EditDialog({
  line,
  onClose,
  onSave,
}: {
  line: DayLine;
  onClose: () => void;
  onSave: (next: LineEdit & { kind: string }) => void;
}) {
  const [v, setV] = useState({
    kind: line.method,
    category: line.category ?? '',
    amount: String(line.amount),
    note: line.note,
    at: taipeiInputValue(Date.parse(line.at)),
  });
  const action = useServerAction(T.cashOutFailed);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((o) => ({ ...o, [k]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.submit(validateCashOut(v, Date.now()), async (ok) =>
      onSave({
        kind: ok.kind,
        method: ok.kind,
        category: ok.category,
        amount: ok.amount,
        note: ok.note,
        // validateCashOut read the time: an instant, shown as the day's lines show theirs
        at: new Date(parseInstant(v.at) ?? Date.parse(line.at)).toISOString(),
      }),
    );
  };
  return (
    <FormDialog
      open
      id="cash-out-edit"
      title={T.editCashOut}
      onClose={onClose}
      action={action}
      labels={{ action: T.saveCashOut, busy: T.recording }}
      onSubmit={submit}
    >
      <EditFields v={v} set={set} err={action.errors} />
    </FormDialog>
  );
}

type Values = { kind: string; category: string; amount: string; note: string; at: string };

function EditFields({
  v,
  set,
  err,
}: {
  v: Values;
  set: (k: keyof Values) => (e: { target: { value: string } }) => void;
  err: Record<string, string>;
}) {
  return (
    <>
      <TextField select label={T.kind} value={v.kind} onChange={set('kind')}>
        {CASH_OUT_KINDS.map((k) => (
          <MenuItem key={k} value={k}>
            {k}
          </MenuItem>
        ))}
      </TextField>
      {v.kind === CASH_OUT_KINDS[0] && (
        <TextField
          select
          label={T.category}
          value={v.category}
          onChange={set('category')}
          error={!!err.category}
          helperText={err.category}
        >
          {[...new Set([v.category, ...EXPENSE_CATEGORIES].filter(Boolean))].map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        label={T.amount}
        value={v.amount}
        onChange={set('amount')}
        error={!!err.amount}
        helperText={err.amount}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
      <TextField
        label={T.at}
        type="datetime-local"
        value={v.at}
        onChange={set('at')}
        error={!!err.at}
        helperText={err.at}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label={T.note}
        value={v.note}
        onChange={set('note')}
        multiline
        minRows={2}
        error={!!err.note}
        helperText={err.note}
      />
    </>
  );
}
