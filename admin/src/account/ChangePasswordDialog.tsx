// Changing one's own password, checked by core's validatePasswordChange. No react-admin here, so the form
// page can load it on demand too; the caller says 密碼更改成功！ its own way.
import { TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { validatePasswordChange } from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import { UI, USERS_UI } from '../messages';
import { changeOwnPassword } from './changeOwnPassword';
import { useServerAction } from '../common/useServerAction';

type Field = 'currentPassword' | 'newPassword' | 'confirmNewPassword';
const FIELDS: Array<{ name: Field; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: USERS_UI.currentPassword, autoComplete: 'current-password' },
  { name: 'newPassword', label: USERS_UI.newPassword, autoComplete: 'new-password' },
  { name: 'confirmNewPassword', label: USERS_UI.confirmNewPassword, autoComplete: 'new-password' },
];

/** `username`: so a new password equal to it is refused before sending. */
export function ChangePasswordDialog({
  onClose,
  onChanged,
  username,
}: {
  onClose: () => void;
  onChanged: () => void;
  username?: string;
}) {
  const [form, setForm] = useState<Record<Field, string>>({
    currentPassword: '',
    newPassword: '',
    confirmNewPassword: '',
  });
  const change = useServerAction(UI.passwordChangeFailed);
  const { errors } = change;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void change.submit(validatePasswordChange(form, username), async (value) => {
      await changeOwnPassword(value);
      onChanged();
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
