import { TextField } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { validateStore } from '../../../core/validation/store';
import { FormDialog } from '../common/FormDialog';
import type { StoreRecord } from '../common/useStores';
import { STORES_UI as T } from '../messages';
import { describeServerError, fieldMessages } from '../serverError';

type StoreFieldErrors = Partial<Record<'name' | 'code', string>>;
const STORE_FIELDS = ['name', 'code'] as const;

/**
 * Add or edit a store: name and code, checked with core's validateStore before sending; the
 * server's answers (a duplicate code is a 409 on `code`) are shown on the field they concern.
 */
export function StoreFormDialog({ open, store, onClose }: { open: boolean; store: StoreRecord | null; onClose: () => void }) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<StoreFieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(store?.name ?? '');
    setCode(store?.code ?? '');
    setErrors({});
    setMessage(null);
    setSaving(false);
  }, [open, store]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const checked = validateStore({ name, code });
    if (!checked.ok) {
      setErrors(fieldMessages(checked.errors));
      setMessage(null);
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      if (store) await dataProvider.update('stores', { id: store.id, data: checked.value, previousData: store });
      else await dataProvider.create('stores', { data: checked.value });
      notify(store ? T.updated : T.created, { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      const d = describeServerError(err, T.saveFailed, STORE_FIELDS);
      setErrors(d.fields);
      setMessage(d.message);
      setSaving(false);
    }
  };

  const clear = (field: keyof StoreFieldErrors) => errors[field] && setErrors({ ...errors, [field]: undefined });

  return (
    <FormDialog
      open={open}
      titleId="store-form-title"
      title={store ? T.editTitle : T.add}
      onClose={onClose}
      busy={saving}
      error={message}
      errorTestId="store-form-error"
      cancelLabel={T.cancel}
      actionLabel={T.save}
      busyLabel={T.saving}
      onSubmit={submit}
      testId="store-form-dialog"
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
