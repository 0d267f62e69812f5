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
import { serverFieldErrors, serverMessage } from '../serverError';

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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    setFailure(null);
    const checked = validatePasswordChange(form);
    if (!checked.ok) {
      setErrors(Object.fromEntries(checked.errors.map((x) => [x.field, x.message])));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const { token } = await dataProvider.changePassword(checked.value);
      if (token) setToken(token);
      notify(UI.passwordChanged, { type: 'success', messageArgs: { _: UI.passwordChanged } });
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
      setFailure(serverMessage(err) ?? UI.passwordChangeFailed);
      setSending(false);
    }
  }

  return (
    <FormDialog
      open
      titleId="change-password-title"
      title={USERS_UI.changePasswordTitle}
      onClose={onClose}
      busy={sending}
      error={failure}
      errorTestId="change-password-error"
      cancelLabel={USERS_UI.cancel}
      actionLabel={USERS_UI.confirmChange}
      busyLabel={USERS_UI.changing}
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
            setErrors(({ [f.name]: _gone, ...rest }) => rest);
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
