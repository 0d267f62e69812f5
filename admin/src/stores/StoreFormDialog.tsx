import { TextField } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { validateStore } from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import type { StoreRecord } from '../common/useStores';
import { STORES_UI as T } from '../messages';
import { describeServerError } from '../serverError';
import { useServerAction } from '../common/useServerAction';

const STORE_FIELDS = ['name', 'code'] as const;

/** The server's answers (a duplicate code is a 409 on `code`) show on the field they concern. */
export function StoreFormDialog({
  open,
  store,
  onClose,
}: {
  open: boolean;
  store: StoreRecord | null;
  onClose: () => void;
}) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const save = useServerAction(T.saveFailed, (err) => describeServerError(err, T.saveFailed, STORE_FIELDS));
  const { errors, clearError: clear } = save;

  useEffect(() => {
    if (!open) return;
    setName(store?.name ?? '');
    setCode(store?.code ?? '');
    save.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a new opening only: reset is a fresh function each render
  }, [open, store]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.submit(validateStore({ name, code }), async (value) => {
      if (store) await dataProvider.update('stores', { id: store.id, data: value, previousData: store });
      else await dataProvider.create('stores', { data: value });
      notify(store ? T.updated : T.created, { type: 'success' });
      refresh();
      onClose();
    });
  };

  return (
    <FormDialog
      open={open}
      id="store-form"
      title={store ? T.editTitle : T.add}
      onClose={onClose}
      action={save}
      labels={{ action: T.save, busy: T.saving }}
      onSubmit={submit}
    >
      <TextField
        label={T.name}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          clear('name');
        }}
        error={!!errors.name}
        helperText={errors.name ?? ' '}
        required
        autoFocus
        fullWidth
        slotProps={{ htmlInput: { maxLength: 50, name: 'name' } }}
      />
      <TextField
        label={T.code}
        value={code}
        onChange={(e) => {
          setCode(e.target.value);
          clear('code');
        }}
        error={!!errors.code}
        helperText={errors.code ?? T.codeHint}
        required
        fullWidth
        slotProps={{ htmlInput: { maxLength: 20, name: 'code', autoCapitalize: 'characters', spellCheck: false } }}
      />
    </FormDialog>
  );
}
