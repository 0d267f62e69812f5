/** User form and password-change rules (spec section 5), with the spec's exact messages. */
import { MSG } from '../messages.js';
import { PERMISSION_KEYS, isPermission, isRole, type Permission, type Role } from '../permissions.js';
import { checkPasswordStrength } from './password.js';
import { FieldErrors, isBlank, isPlainObject, toId, type Validated } from './result.js';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
/** bcrypt reads at most 72 bytes; a longer password would be silently cut. */
export const PASSWORD_MAX_BYTES = 72;

const byteLength = (s: string) => new TextEncoder().encode(s).length;

export function checkUsername(v: unknown): string | null {
  const name = typeof v === 'string' ? v.trim() : '';
  if (name.length < USERNAME_MIN) return MSG.usernameMin;
  if (name.length > USERNAME_MAX) return MSG.usernameMax;
  if (!/^[A-Za-z0-9_]+$/.test(name)) return MSG.usernamePattern;
  return null;
}

/**
 * A new password and its confirmation. `confirm` undefined means the caller sent none (API).
 * `username`: the account's, so a password equal to it is refused (with common and repetitive
 * ones, whoever checks: issue 22, item 15).
 */
export function checkNewPassword(
  password: unknown,
  confirm: unknown,
  texts: { required: string; min: string; mismatch: string },
  username?: unknown,
): string | null {
  if (isBlank(password) || typeof password !== 'string') return texts.required;
  if (password.length < PASSWORD_MIN) return texts.min;
  if (byteLength(password) > PASSWORD_MAX_BYTES) return MSG.passwordMax;
  const weak = checkPasswordStrength(password, username);
  if (weak) return weak;
  if (confirm !== undefined && confirm !== password) return texts.mismatch;
  return null;
}

export interface UserInput {
  username: string;
  /** undefined: unchanged (edit with a blank password) */
  password?: string;
  role: Role;
  permissions: Permission[];
  store_id: number | null;
  accessible_stores: number[];
  is_active: boolean;
}

/**
 * The add/edit member form. On edit the caller passes the record merged with the changes;
 * a blank password means unchanged and the username is not checked again (it cannot change).
 */
export function validateUser(raw: unknown, mode: 'create' | 'edit'): Validated<UserInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();

  if (mode === 'create') {
    const e = checkUsername(input.username);
    if (e) errors.add('username', e);
  }

  let password: string | undefined;
  const passwordGiven = !isBlank(input.password);
  if (mode === 'create' || passwordGiven) {
    const e = checkNewPassword(input.password, input.confirmPassword, {
      required: MSG.passwordRequired,
      min: MSG.passwordMin,
      mismatch: MSG.passwordMismatch,
    }, input.username);
    if (e) errors.add(e === MSG.passwordMismatch ? 'confirmPassword' : 'password', e);
    else password = input.password as string;
  }

  if (!isRole(input.role)) errors.add('role', MSG.roleRequired);
  const role = input.role as Role;

  let permissions: Permission[] = [];
  if (input.permissions !== undefined && input.permissions !== null) {
    if (!Array.isArray(input.permissions)) errors.add('permissions', MSG.permissionsInvalid([String(input.permissions)]));
    else {
      const bad = input.permissions.filter((p) => !isPermission(p)).map(String);
      if (bad.length) errors.add('permissions', MSG.permissionsInvalid(bad));
      else permissions = PERMISSION_KEYS.filter((k) => (input.permissions as unknown[]).includes(k));
    }
  }
  // The admin role holds every permission (spec section 7: "the admin role sends all permission keys").
  if (role === 'admin') permissions = [...PERMISSION_KEYS];

  let storeId: number | null = null;
  if (!isBlank(input.store_id)) {
    storeId = toId(input.store_id);
    if (storeId === null) errors.add('store_id', MSG.storeInvalid);
  }

  let accessible: number[] = [];
  if (input.accessible_stores !== undefined && input.accessible_stores !== null) {
    const ids = Array.isArray(input.accessible_stores) ? input.accessible_stores.map(toId) : [null];
    if (ids.some((id) => id === null)) errors.add('accessible_stores', MSG.storesInvalid);
    else accessible = [...new Set(ids as number[])].sort((a, b) => a - b);
  }

  let isActive = true;
  if (input.is_active !== undefined && input.is_active !== null) {
    if (typeof input.is_active !== 'boolean') errors.add('is_active', MSG.isActiveInvalid);
    else isActive = input.is_active;
  }

  if (!errors.empty) return { ok: false, errors: errors.list };
  return {
    ok: true,
    value: {
      username: typeof input.username === 'string' ? input.username.trim() : '',
      password,
      role,
      permissions,
      store_id: storeId,
      accessible_stores: accessible,
      is_active: isActive,
    },
  };
}

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
}

/**
 * The change-password form; `confirmNewPassword` is checked when sent. `username`: the caller's
 * own, so the new password may not be it.
 */
export function validatePasswordChange(raw: unknown, username?: string): Validated<PasswordChangeInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();
  if (isBlank(input.currentPassword) || typeof input.currentPassword !== 'string') {
    errors.add('currentPassword', MSG.currentPasswordRequired);
  }
  const e = checkNewPassword(input.newPassword, input.confirmNewPassword, {
    required: MSG.newPasswordRequired,
    min: MSG.newPasswordMin,
    mismatch: MSG.newPasswordMismatch,
  }, username);
  if (e) errors.add(e === MSG.newPasswordMismatch ? 'confirmNewPassword' : 'newPassword', e);
  if (!errors.empty) return { ok: false, errors: errors.list };
  return { ok: true, value: { currentPassword: input.currentPassword as string, newPassword: input.newPassword as string } };
}
