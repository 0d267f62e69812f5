// The member form's pickers; what each offers, locks or explains comes from core's grant rules.
import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import {
  PERMISSIONS,
  PERMISSION_KEYS,
  ROLES,
  isAdmin,
  mayGrantRole,
  ROLE_LABELS,
  storeLabel,
} from '../../../core/browser';
import type { Role, Me, User } from '../../../core/browser';
import type { StoreRecord } from '../common/useStores';
import { USERS_UI } from '../messages';
import type { UserForm } from './useUserForm';

const HQ = '';

export function RolePicker({ f, me, user }: { f: UserForm; me: Me; user: User | null }) {
  const { form, errors, changeRole } = f;
  return (
    <TextField
      select
      label={USERS_UI.role}
      name="role"
      value={form.role}
      onChange={(e) => changeRole(e.target.value as Role)}
      error={Boolean(errors.role)}
      helperText={errors.role ?? (!isAdmin(me) ? USERS_UI.adminOnlyRole : ' ')}
      required
      fullWidth
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid="role-select"
    >
      <MenuItem value="" disabled>
        <Typography color="text.secondary" component="span">
          {USERS_UI.chooseRole}
        </Typography>
      </MenuItem>
      {ROLES.map((r) => (
        // only admins make admins; the server refuses it otherwise
        <MenuItem key={r} value={r} disabled={!mayGrantRole(me, r, user)}>
          {ROLE_LABELS[r]}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Locked, all held, for 管理員. */
export function PermissionPicker({ f }: { f: UserForm }) {
  const { form, errors, adminRole, mayGrant, togglePermission } = f;
  return (
    <FormControl component="fieldset" error={Boolean(errors.permissions)}>
      <FormLabel component="legend">{USERS_UI.permissions}</FormLabel>
      {adminRole && <FormHelperText sx={{ mx: 0 }}>{USERS_UI.adminAllPermissions}</FormHelperText>}
      <FormGroup
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}
        data-testid="permission-checkboxes"
      >
        {PERMISSION_KEYS.map((p) => {
          const granted = mayGrant(p);
          return (
            <FormControlLabel
              key={p}
              sx={{ alignItems: 'flex-start', mr: 0, my: 0.25 }}
              control={
                <Checkbox
                  name={`permissions.${p}`}
                  checked={adminRole || form.permissions.includes(p)}
                  onChange={(e) => togglePermission(p, e.target.checked)}
                  disabled={adminRole || (!granted && !form.permissions.includes(p))}
                  sx={{ pt: 0.5 }}
                />
              }
              label={
                <Box sx={{ pt: 0.75 }}>
                  <Typography variant="body2">{PERMISSIONS[p].label}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {granted || adminRole
                      ? PERMISSIONS[p].description
                      : `${PERMISSIONS[p].description}（${USERS_UI.cannotGrantHint}）`}
                  </Typography>
                </Box>
              }
            />
          );
        })}
      </FormGroup>
      {errors.permissions && <FormHelperText>{errors.permissions}</FormHelperText>}
    </FormControl>
  );
}

export function HomeStorePicker({ f, stores }: { f: UserForm; stores: StoreRecord[] }) {
  const { form, errors, mayAssign, mayHeadquarters, set } = f;
  return (
    <TextField
      select
      label={USERS_UI.homeStore}
      name="store_id"
      value={form.store_id === null ? HQ : String(form.store_id)}
      onChange={(e) => set('store_id', e.target.value === HQ ? null : Number(e.target.value))}
      error={Boolean(errors.store_id)}
      helperText={errors.store_id ?? ' '}
      fullWidth
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid="store-select"
    >
      <MenuItem value={HQ} disabled={!mayHeadquarters && form.store_id !== null}>
        {USERS_UI.headquartersOption}
      </MenuItem>
      {stores.map((s) => (
        <MenuItem key={s.id} value={String(s.id)} disabled={!mayAssign(s.id) && form.store_id !== s.id}>
          {storeLabel(s)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function AccessibleStoresPicker({ f, stores }: { f: UserForm; stores: StoreRecord[] }) {
  const { form, errors, adminRole, mayAssign, toggleStore } = f;
  return (
    <FormControl component="fieldset" error={Boolean(errors.accessible_stores)}>
      <FormLabel component="legend">{USERS_UI.accessibleStores}</FormLabel>
      {adminRole && <FormHelperText sx={{ mx: 0 }}>{USERS_UI.adminAllStores}</FormHelperText>}
      {stores.length === 0 ? (
        <FormHelperText sx={{ mx: 0 }}>{USERS_UI.noStores}</FormHelperText>
      ) : (
        <FormGroup
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}
          data-testid="store-checkboxes"
        >
          {stores.map((s) => (
            <FormControlLabel
              key={s.id}
              sx={{ mr: 0 }}
              control={
                <Checkbox
                  name={`accessible_stores.${s.id}`}
                  checked={form.accessible_stores.includes(s.id)}
                  onChange={(e) => toggleStore(s.id, e.target.checked)}
                  disabled={!mayAssign(s.id) && !form.accessible_stores.includes(s.id)}
                />
              }
              label={storeLabel(s)}
            />
          ))}
        </FormGroup>
      )}
      {errors.accessible_stores && <FormHelperText>{errors.accessible_stores}</FormHelperText>}
    </FormControl>
  );
}
