/**
 * The change-password modal, for one's own account (spec sections 3, 5 "Password change", 8):
 * currentPassword, newPassword, confirmNewPassword checked by core's validatePasswordChange.
 * On success the API answers with a fresh token (older ones stop working): it is stored so the
 * user stays signed in, and 密碼更改成功！ is shown. A failure shows the server's message, else
 * 更改密碼失敗，請稍後再試, in the form.
 */
import { TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { validatePasswordChange } from '../../../core/validation/user';
import { FormDialog } from '../common/FormDialog';
import { UI, USERS_UI } from '../messages';
import type { RemitDataProvider } from '../providers/dataProvider';
import { setToken } from '../session';
import { useServerAction } from '../common/useServerAction';

type Field = 'currentPassword' | 'newPassword' | 'confirmNewPassword';
const FIELDS: Array<{ name: Field; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: USERS_UI.currentPassword, autoComplete: 'current-password' },
  { name: 'newPassword', label: USERS_UI.newPassword, autoComplete: 'new-password' },
  { name: 'confirmNewPassword', label: USERS_UI.confirmNewPassword, autoComplete: 'new-password' },
];

export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const notify = useNotify();
  const [form, setForm] = useState<Record<Field, string>>({ currentPassword: '', newPassword: '', confirmNewPassword: '' });
  const change = useServerAction(UI.passwordChangeFailed);
  const { errors } = change;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void change.submit(validatePasswordChange(form), async (value) => {
      const { token } = await dataProvider.changePassword(value);
      if (token) setToken(token);
      notify(UI.passwordChanged, { type: 'success', messageArgs: { _: UI.passwordChanged } });
      onClose();
    });
  }

  return (
    <FormDialog
      open
      id="change-password"
      title={USERS_UI.changePasswordTitle}
      onClose={onClose}
      action={change}
      labels={{ action: USERS_UI.confirmChange, busy: USERS_UI.changing }}
      onSubmit={onSubmit}
    >
      {FIELDS.map((f, i) => (
        <TextField
          key={f.name}
          label={f.label}
          name={f.name}
          type="password"
          autoComplete={f.autoComplete}
          autoFocus={i === 0}
          value={form[f.name]}
          onChange={(e) => {
            const value = e.target.value;
            setForm((s) => ({ ...s, [f.name]: value }));
            change.clearError(f.name);
          }}
          error={Boolean(errors[f.name])}
          helperText={errors[f.name]}
          required
          fullWidth
        />
      ))}
    </FormDialog>
  );
}
