// The add/edit member dialog, checked with core's validateUser and grant rules, the server's own.
import { FormControl, FormControlLabel, FormHelperText, Box, Switch, TextField } from '@mui/material';
import type { Me, User } from '../../../core/browser';
import { FormDialog } from '../common/FormDialog';
import type { StoreRecord } from '../common/useStores';
import { USERS_UI } from '../messages';
import { AccessibleStoresPicker, HomeStorePicker, PermissionPicker, RolePicker } from './UserPickers';
import { useUserForm, type UserForm } from './useUserForm';

export function UserFormDialog(props: { me: Me; stores: StoreRecord[]; user: User | null; onClose: () => void }) {
  const { me, stores, user, onClose } = props;
  const f = useUserForm(me, user, onClose);
  const { form, errors, save, set, onSubmit } = f;

  return (
    <FormDialog
      open
      id="user-form"
      title={user ? USERS_UI.editTitle : USERS_UI.addTitle}
      onClose={onClose}
      action={save}
      labels={{ action: USERS_UI.save, busy: USERS_UI.saving }}
      onSubmit={onSubmit}
      maxWidth="sm"
    >
      <TextField
        label={USERS_UI.username}
        name="username"
        autoComplete="off"
        value={form.username}
        onChange={(e) => set('username', e.target.value)}
        disabled={Boolean(user)}
        error={Boolean(errors.username)}
        helperText={errors.username ?? (user ? USERS_UI.usernameLocked : USERS_UI.usernameHint)}
        // a disabled field's helper is greyed below readable contrast, and it says why the field is locked
        slotProps={{ formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
        required={!user}
        fullWidth
        autoFocus={!user}
      />
      <PasswordFields f={f} editing={Boolean(user)} />
      <RolePicker f={f} me={me} user={user} />
      <PermissionPicker f={f} />
      <HomeStorePicker f={f} stores={stores} />
      <AccessibleStoresPicker f={f} stores={stores} />

      {user && <ActiveSwitch f={f} />}
    </FormDialog>
  );
}

/** Blank on edit keeps the old password. */
function PasswordFields({ f, editing }: { f: UserForm; editing: boolean }) {
  const { form, errors, set } = f;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
      <TextField
        label={editing ? USERS_UI.newPasswordOptional : USERS_UI.password}
        name="password"
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={(e) => set('password', e.target.value)}
        error={Boolean(errors.password)}
        helperText={errors.password ?? (editing ? USERS_UI.passwordKeepHint : ' ')}
        required={!editing}
        fullWidth
      />
      <TextField
        label={USERS_UI.confirmPassword}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={(e) => set('confirmPassword', e.target.value)}
        error={Boolean(errors.confirmPassword)}
        helperText={errors.confirmPassword ?? ' '}
        required={!editing}
        fullWidth
      />
    </Box>
  );
}

/** Locked, with the reason, where core's rule denies the toggle. */
function ActiveSwitch({ f }: { f: UserForm }) {
  const { form, errors, activeDenial, set } = f;
  return (
    <FormControl error={Boolean(errors.is_active)}>
      <FormControlLabel
        control={
          <Switch
            name="is_active"
            checked={form.is_active}
            onChange={(e) => set('is_active', e.target.checked)}
            disabled={Boolean(activeDenial)}
          />
        }
        label={USERS_UI.isActive}
      />
      {(errors.is_active || activeDenial) && (
        <FormHelperText sx={{ mx: 0 }} data-testid="is-active-reason">
          {errors.is_active ?? activeDenial}
        </FormHelperText>
      )}
    </FormControl>
  );
}
