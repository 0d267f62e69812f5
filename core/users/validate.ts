/** User form and password-change rules (spec section 5), with the spec's exact messages. */
import { problem, type Problem } from '../errors.js';
import { PERMISSION_KEYS, isPermission, isRole, type Permission, type Role } from '../permissions.js';
import { PERMISSION_LABELS } from '../labels.js';
import { passwordWeakness } from './password.js';
import { FieldErrors, isBlank, isPlainObject, toId, type Validated } from '../validation.js';

import { PASSWORD_MAX_BYTES, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../limits.js';

/** Each key with its name, for the refusal of one that is not: `view_payments（查看匯款）`. */
const VALID_PERMISSIONS = PERMISSION_KEYS.map((k) => `${k}（${PERMISSION_LABELS[k]}）`);

export { PASSWORD_MAX_BYTES };

const byteLength = (s: string) => new TextEncoder().encode(s).length;

function usernameProblem(v: unknown): Problem | null {
  const name = typeof v === 'string' ? v.trim() : '';
  if (name.length < USERNAME_MIN) return problem('username_min', { limit: USERNAME_MIN });
  if (name.length > USERNAME_MAX) return problem('username_max', { limit: USERNAME_MAX });
  if (!/^[A-Za-z0-9_]+$/.test(name)) return problem('username_pattern');
  return null;
}

export function checkUsername(v: unknown): string | null {
  return usernameProblem(v)?.message ?? null;
}

/** By kind: each form words some kinds its own way. */
type NewPasswordProblem = { kind: 'required' | 'min' | 'mismatch' } | { kind: 'max' | 'weak'; problem: Problem };

function newPasswordProblem(password: unknown, confirm: unknown, username?: unknown): NewPasswordProblem | null {
  if (isBlank(password) || typeof password !== 'string') return { kind: 'required' };
  if (password.length < PASSWORD_MIN) return { kind: 'min' };
  if (byteLength(password) > PASSWORD_MAX_BYTES)
    return { kind: 'max', problem: problem('password_max', { limit: PASSWORD_MAX_BYTES }) };
  const weak = passwordWeakness(password, username);
  if (weak) return { kind: 'weak', problem: problem('password_weak', { reason: weak }) };
  if (confirm !== undefined && confirm !== password) return { kind: 'mismatch' };
  return null;
}

/** The member form says 密碼, the change-password form 新密碼. */
type PasswordTexts = Record<'required' | 'min' | 'mismatch', () => Problem>;
const MEMBER_PASSWORD: PasswordTexts = {
  required: () => problem('password_required'),
  min: () => problem('password_min', { limit: PASSWORD_MIN }),
  mismatch: () => problem('password_mismatch'),
};
const NEW_PASSWORD: PasswordTexts = {
  required: () => problem('new_password_required'),
  min: () => problem('new_password_min', { limit: PASSWORD_MIN }),
  mismatch: () => problem('new_password_mismatch'),
};

function passwordFieldProblem(p: NewPasswordProblem, texts: PasswordTexts): Problem {
  return 'problem' in p ? p.problem : texts[p.kind]();
}

/** `confirm` undefined: none was sent (API). `username`: the account's, which the password may not be. */
export function checkNewPassword(
  password: unknown,
  confirm: unknown,
  texts: { required: string; min: string; mismatch: string },
  username?: unknown,
): string | null {
  const p = newPasswordProblem(password, confirm, username);
  if (p === null) return null;
  return 'problem' in p ? p.problem.message : texts[p.kind];
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

/** On edit, the record merged with the changes: a blank password leaves it, the username is not checked. */
export function validateUser(raw: unknown, mode: 'create' | 'edit'): Validated<UserInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();

  if (mode === 'create') {
    const e = usernameProblem(input.username);
    if (e) errors.addProblem('username', e);
  }

  let password: string | undefined;
  const passwordGiven = !isBlank(input.password);
  if (mode === 'create' || passwordGiven) {
    const e = newPasswordProblem(input.password, input.confirmPassword, input.username);
    if (e)
      errors.addProblem(
        e.kind === 'mismatch' ? 'confirmPassword' : 'password',
        passwordFieldProblem(e, MEMBER_PASSWORD),
      );
    else password = input.password as string;
  }

  if (!isRole(input.role)) errors.add('role', 'role_required');
  const role = input.role as Role;

  let permissions: Permission[] = [];
  if (input.permissions !== undefined && input.permissions !== null) {
    if (!Array.isArray(input.permissions))
      errors.add('permissions', 'permissions_invalid', {
        values: [String(input.permissions)],
        valid: VALID_PERMISSIONS,
      });
    else {
      const bad = input.permissions.filter((p) => !isPermission(p)).map(String);
      if (bad.length) errors.add('permissions', 'permissions_invalid', { values: bad, valid: VALID_PERMISSIONS });
      else permissions = PERMISSION_KEYS.filter((k) => (input.permissions as unknown[]).includes(k));
    }
  }
  // The admin role holds every permission (spec section 7: "the admin role sends all permission keys").
  if (role === 'admin') permissions = [...PERMISSION_KEYS];

  let storeId: number | null = null;
  if (!isBlank(input.store_id)) {
    storeId = toId(input.store_id);
    if (storeId === null) errors.add('store_id', 'store_invalid');
  }

  let accessible: number[] = [];
  if (input.accessible_stores !== undefined && input.accessible_stores !== null) {
    const ids = Array.isArray(input.accessible_stores) ? input.accessible_stores.map(toId) : [null];
    if (ids.some((id) => id === null)) errors.add('accessible_stores', 'stores_invalid');
    else accessible = [...new Set(ids as number[])].sort((a, b) => a - b);
  }

  let isActive = true;
  if (input.is_active !== undefined && input.is_active !== null) {
    if (typeof input.is_active !== 'boolean') errors.add('is_active', 'is_active_invalid');
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

interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
}

/** `confirmNewPassword` is checked when sent; `username`, the caller's, the new password may not be. */
export function validatePasswordChange(raw: unknown, username?: string): Validated<PasswordChangeInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();
  if (isBlank(input.currentPassword) || typeof input.currentPassword !== 'string') {
    errors.add('currentPassword', 'current_password_required');
  }
  const e = newPasswordProblem(input.newPassword, input.confirmNewPassword, username);
  if (e)
    errors.addProblem(
      e.kind === 'mismatch' ? 'confirmNewPassword' : 'newPassword',
      passwordFieldProblem(e, NEW_PASSWORD),
    );
  if (!errors.empty) return { ok: false, errors: errors.list };
  return {
    ok: true,
    value: { currentPassword: input.currentPassword as string, newPassword: input.newPassword as string },
  };
}
