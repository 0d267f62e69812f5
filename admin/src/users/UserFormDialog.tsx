/**
 * The add/edit member modal (spec sections 3 "User form", 4, 5 "User form", 6, 8).
 * - username, fixed once created; password and confirmPassword, blank on edit = unchanged;
 * - role 管理員/用戶: choosing 管理員 when creating fills every permission, choosing another role
 *   when creating clears them; with 管理員 the permission boxes are locked (all held);
 * - permissions with labels and descriptions; 所屬分店 (none = 總部) and accessible stores;
 * - is_active on edit only, disabled with the reason for one's own account or, for a
 *   non-admin, an admin account.
 * The rules are core's validateUser and grant rules; the server applies the same.
 */
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
        // why it is locked, readable (a disabled field's helper is greyed below the contrast a person needs)
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

/** The new password and its confirmation, side by side from a tablet up; blank on edit keeps the old one. */
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

/** is_active, on edit only: locked, with the reason, where core's rule denies the toggle. */
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
