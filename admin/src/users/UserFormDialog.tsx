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
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Switch,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useCreate, useNotify, useRefresh, useUpdate } from 'react-admin';
import {
  PERMISSIONS,
  PERMISSION_KEYS,
  ROLES,
  can,
  inScope,
  isAdmin,
  toggleActiveDenial,
  type Permission,
  type Role,
} from '../../../core/permissions';
import type { Me, User } from '../../../core/types';
import { ROLE_LABELS, storeLabel } from '../../../core/labels';
import { validateUser } from '../../../core/validation/user';
import type { StoreRecord } from '../common/useStores';
import { UI, USERS_UI } from '../messages';
import { reloadMe } from '../providers/me';
import { serverFieldErrors, serverMessage } from './serverError';

interface FormState {
  username: string;
  password: string;
  confirmPassword: string;
  role: Role | '';
  permissions: Permission[];
  store_id: number | null;
  accessible_stores: number[];
  is_active: boolean;
}

function initialState(user: User | null): FormState {
  if (!user) {
    return { username: '', password: '', confirmPassword: '', role: '', permissions: [], store_id: null, accessible_stores: [], is_active: true };
  }
  return {
    username: user.username,
    password: '',
    confirmPassword: '',
    role: user.role,
    permissions: isAdmin(user) ? [...PERMISSION_KEYS] : PERMISSION_KEYS.filter((k) => user.permissions.includes(k)),
    store_id: user.store_id,
    accessible_stores: [...user.accessible_stores],
    is_active: user.is_active,
  };
}

const HQ = '';

export function UserFormDialog(props: { me: Me; stores: StoreRecord[]; user: User | null; onClose: () => void }) {
  const { me, stores, user, onClose } = props;
  const mode = user ? 'edit' : 'create';
  const self = user?.id === me.id;
  const fullScreen = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const [create] = useCreate();
  const [update] = useUpdate();
  const notify = useNotify();
  const refresh = useRefresh();

  const [form, setForm] = useState<FormState>(() => initialState(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const adminRole = form.role === 'admin';
  const activeDenial = user ? toggleActiveDenial(me, user) : null;
  // What a non-admin may grant: only what they hold themselves (taking away is always allowed).
  const mayGrant = (p: Permission) => can(me, p) || Boolean(user?.permissions.includes(p));
  const heldStores = new Set([...(user?.accessible_stores ?? []), ...(user?.store_id != null ? [user.store_id] : [])]);
  const mayAssign = (storeId: number) => isAdmin(me) || inScope(me, storeId) || heldStores.has(storeId);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => {
      if (!e[key]) return e;
      const { [key]: _gone, ...rest } = e;
      return rest;
    });
  };

  function changeRole(role: Role) {
    setForm((f) => {
      // Spec section 4: only when creating, admin fills every permission and another role clears them.
      if (mode === 'create') return { ...f, role, permissions: role === 'admin' ? [...PERMISSION_KEYS] : [] };
      // When editing, the boxes show all held while 管理員 is chosen; going back shows the chosen ones again.
      return { ...f, role };
    });
    setErrors(({ role: _gone, ...rest }) => rest);
  }

  function togglePermission(p: Permission, on: boolean) {
    set('permissions', on ? PERMISSION_KEYS.filter((k) => k === p || form.permissions.includes(k)) : form.permissions.filter((k) => k !== p));
  }

  function toggleStore(id: number, on: boolean) {
    set('accessible_stores', on ? [...new Set([...form.accessible_stores, id])].sort((a, b) => a - b) : form.accessible_stores.filter((s) => s !== id));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    setFailure(null);
    const raw = {
      ...(user ?? {}),
      ...form,
      username: user ? user.username : form.username,
      // The admin role sends every permission key (spec section 7).
      permissions: form.role === 'admin' ? [...PERMISSION_KEYS] : form.permissions,
    };
    const checked = validateUser(raw, mode);
    if (!checked.ok) {
      setErrors(Object.fromEntries(checked.errors.map((x) => [x.field, x.message])));
      return;
    }
    setErrors({});
    const v = checked.value;
    const data: Record<string, unknown> = {
      role: v.role,
      permissions: v.permissions,
      store_id: v.store_id,
      accessible_stores: v.accessible_stores,
    };
    if (v.password) data.password = v.password;
    setSaving(true);
    try {
      if (!user) {
        await create('users', { data: { username: v.username, ...data } }, { returnPromise: true });
        notify(USERS_UI.created, { type: 'success', messageArgs: { _: USERS_UI.created } });
      } else {
        // is_active is sent only when not editing oneself (spec section 7).
        if (!self) data.is_active = v.is_active;
        await update('users', { id: user.id, data, previousData: user }, { returnPromise: true });
        notify(USERS_UI.updated, { type: 'success', messageArgs: { _: USERS_UI.updated } });
        // Saving one's own edit reloads the profile (spec section 6).
        if (self) await reloadMe().catch(() => undefined);
      }
      refresh();
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
      setFailure(serverMessage(err) ?? UI.userSaveFailed);
      setSaving(false);
    }
  }

  const storeOptions = stores;

  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby="user-form-title"
      slotProps={{ paper: { component: 'form', onSubmit, noValidate: true } as object }}
    >
      <DialogTitle id="user-form-title">{user ? USERS_UI.editTitle : USERS_UI.addTitle}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {failure && (
          <Alert severity="error" data-testid="user-form-error">
            {failure}
          </Alert>
        )}
        <TextField
          label={USERS_UI.username}
          name="username"
          autoComplete="off"
          value={form.username}
          onChange={(e) => set('username', e.target.value)}
          disabled={Boolean(user)}
          error={Boolean(errors.username)}
          helperText={errors.username ?? (user ? USERS_UI.usernameLocked : USERS_UI.usernameHint)}
          required={!user}
          fullWidth
          autoFocus={!user}
        />
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
          <TextField
            label={user ? USERS_UI.newPasswordOptional : USERS_UI.password}
            name="password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
            error={Boolean(errors.password)}
            helperText={errors.password ?? (user ? USERS_UI.passwordKeepHint : ' ')}
            required={!user}
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
            required={!user}
            fullWidth
          />
        </Box>
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
            // Only admins create or promote admins (the server refuses it otherwise).
            <MenuItem key={r} value={r} disabled={r === 'admin' && !isAdmin(me) && user?.role !== 'admin'}>
              {ROLE_LABELS[r]}
            </MenuItem>
          ))}
        </TextField>

        <FormControl component="fieldset" error={Boolean(errors.permissions)}>
          <FormLabel component="legend">{USERS_UI.permissions}</FormLabel>
          {adminRole && <FormHelperText sx={{ mx: 0 }}>{USERS_UI.adminAllPermissions}</FormHelperText>}
          <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }} data-testid="permission-checkboxes">
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
                        {granted || adminRole ? PERMISSIONS[p].description : `${PERMISSIONS[p].description}（${USERS_UI.cannotGrantHint}）`}
                      </Typography>
                    </Box>
                  }
                />
              );
            })}
          </FormGroup>
          {errors.permissions && <FormHelperText>{errors.permissions}</FormHelperText>}
        </FormControl>

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
          <MenuItem value={HQ}>{USERS_UI.headquarters}</MenuItem>
          {storeOptions.map((s) => (
            <MenuItem key={s.id} value={String(s.id)} disabled={!mayAssign(s.id) && form.store_id !== s.id}>
              {storeLabel(s)}
            </MenuItem>
          ))}
        </TextField>

        <FormControl component="fieldset" error={Boolean(errors.accessible_stores)}>
          <FormLabel component="legend">{USERS_UI.accessibleStores}</FormLabel>
          {adminRole && <FormHelperText sx={{ mx: 0 }}>{USERS_UI.adminAllStores}</FormHelperText>}
          {storeOptions.length === 0 ? (
            <FormHelperText sx={{ mx: 0 }}>{USERS_UI.noStores}</FormHelperText>
          ) : (
            <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }} data-testid="store-checkboxes">
              {storeOptions.map((s) => (
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

        {user && (
          <FormControl error={Boolean(errors.is_active)}>
            <FormControlLabel
              control={<Switch name="is_active" checked={form.is_active} onChange={(e) => set('is_active', e.target.checked)} disabled={Boolean(activeDenial)} />}
              label={USERS_UI.isActive}
            />
            {(errors.is_active || activeDenial) && (
              <FormHelperText sx={{ mx: 0 }} data-testid="is-active-reason">
                {errors.is_active ?? activeDenial}
              </FormHelperText>
            )}
          </FormControl>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose} disabled={saving}>
          {USERS_UI.cancel}
        </Button>
        <Button type="submit" variant="contained" disabled={saving}>
          {saving ? USERS_UI.saving : USERS_UI.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
