// The add/edit member form's state and save, with core's rules applied.
import { useState, type FormEvent } from 'react';
import { useCreate, useNotify, useRefresh, useUpdate } from 'react-admin';
import {
  PERMISSION_KEYS,
  effectivePermissions,
  mayAssignStore,
  mayGrantPermission,
  mayLeaveWithoutHomeStore,
  toggleActiveDenial,
  validateUser,
} from '../../../core/browser';
import type { Permission, Role, Me, User } from '../../../core/browser';
import { UI, USERS_UI } from '../messages';
import { reloadMe } from '../providers/me';
import { useServerAction } from '../common/useServerAction';

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

function initialState(user: User | null, me?: Me): FormState {
  if (!user) {
    // a branch manager makes accounts of their own store: headquarters is not theirs to choose
    const store_id = me && !mayLeaveWithoutHomeStore(me, { store_id: null }) ? me.store_id : null;
    return {
      username: '',
      password: '',
      confirmPassword: '',
      role: '',
      permissions: [],
      store_id,
      accessible_stores: [],
      is_active: true,
    };
  }
  return {
    username: user.username,
    password: '',
    confirmPassword: '',
    role: user.role,
    permissions: effectivePermissions(user),
    store_id: user.store_id,
    accessible_stores: [...user.accessible_stores],
    is_active: user.is_active,
  };
}

export function useUserForm(me: Me, user: User | null, onClose: () => void) {
  const mode = user ? 'edit' : 'create';
  const persist = usePersistUser(me, user, onClose);

  const [form, setForm] = useState<FormState>(() => initialState(user, me));
  const save = useServerAction(UI.userSaveFailed);
  const { errors, busy: saving } = save;

  const adminRole = form.role === 'admin';
  const activeDenial = user ? toggleActiveDenial(me, user) : null;
  const mayGrant = (p: Permission) => mayGrantPermission(me, p, user);
  const mayAssign = (storeId: number) => mayAssignStore(me, storeId, user);
  const mayHeadquarters = mayLeaveWithoutHomeStore(me, { store_id: null });

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    save.clearError(key);
  };

  function changeRole(role: Role) {
    setForm((f) => {
      // only when creating: admin fills every permission and another role clears them
      if (mode === 'create') return { ...f, role, permissions: role === 'admin' ? [...PERMISSION_KEYS] : [] };
      // editing, the boxes show all held while 管理員 is chosen; going back shows the chosen ones again
      return { ...f, role };
    });
    save.clearError('role');
  }

  const togglePermission = (p: Permission, on: boolean) => set('permissions', withPermission(form.permissions, p, on));
  const toggleStore = (id: number, on: boolean) => set('accessible_stores', withStore(form.accessible_stores, id, on));

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void save.submit(validateUser(draftOf(form, user), mode), persist);
  }

  return {
    form,
    errors,
    save,
    saving,
    adminRole,
    activeDenial,
    mayGrant,
    mayAssign,
    mayHeadquarters,
    set,
    changeRole,
    togglePermission,
    toggleStore,
    onSubmit,
  };
}

/** Kept in PERMISSION_KEYS' order. */
function withPermission(held: Permission[], p: Permission, on: boolean): Permission[] {
  return on ? PERMISSION_KEYS.filter((k) => k === p || held.includes(k)) : held.filter((k) => k !== p);
}

function withStore(ids: number[], id: number, on: boolean): number[] {
  return on ? [...new Set([...ids, id])].sort((a, b) => a - b) : ids.filter((s) => s !== id);
}

/** The record merged with the form; the admin role sends every permission key. */
function draftOf(form: FormState, user: User | null) {
  return {
    ...(user ?? {}),
    ...form,
    username: user ? user.username : form.username,
    permissions:
      form.role === '' ? form.permissions : effectivePermissions({ role: form.role, permissions: form.permissions }),
  };
}

type CheckedUser = Extract<ReturnType<typeof validateUser>, { ok: true }>['value'];

function usePersistUser(me: Me, user: User | null, onClose: () => void) {
  const self = user?.id === me.id;
  const [create] = useCreate();
  const [update] = useUpdate();
  const notify = useNotify();
  const refresh = useRefresh();

  return async (v: CheckedUser) => {
    const data: Record<string, unknown> = {
      role: v.role,
      permissions: v.permissions,
      store_id: v.store_id,
      accessible_stores: v.accessible_stores,
    };
    if (v.password) data.password = v.password;
    if (!user) {
      await create('users', { data: { username: v.username, ...data } }, { returnPromise: true });
      notify(USERS_UI.created, { type: 'success', messageArgs: { _: USERS_UI.created } });
    } else {
      // one cannot deactivate oneself
      if (!self) data.is_active = v.is_active;
      await update('users', { id: user.id, data, previousData: user }, { returnPromise: true });
      notify(USERS_UI.updated, { type: 'success', messageArgs: { _: USERS_UI.updated } });
      // one's own edit changes what the pages may show
      if (self) await reloadMe().catch(() => undefined);
    }
    refresh();
    onClose();
  };
}

export type UserForm = ReturnType<typeof useUserForm>;
