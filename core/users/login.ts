import { FieldErrors, isBlank, isPlainObject, type Validated } from '../validation.js';

interface LoginInput {
  username: string;
  password: string;
}

/** Login: username and password both required (spec section 5). */
export function validateLogin(raw: unknown): Validated<LoginInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();
  if (isBlank(input.username) || typeof input.username !== 'string') errors.add('username', 'login_username_required');
  if (isBlank(input.password) || typeof input.password !== 'string') errors.add('password', 'login_password_required');
  if (!errors.empty) return { ok: false, errors: errors.list };
  return { ok: true, value: { username: (input.username as string).trim(), password: input.password as string } };
}
