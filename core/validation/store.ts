import { MSG } from '../messages.js';
import { FieldErrors, isBlank, isPlainObject, type Validated } from './result.js';

export interface StoreInput {
  name: string;
  code: string;
}

export const STORE_NAME_MAX = 50;

/** A store: a name and a unique short code (letters, digits, `_` and `-`). */
export function validateStore(raw: unknown): Validated<StoreInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (isBlank(input.name) || typeof input.name !== 'string') errors.add('name', MSG.storeNameRequired);
  else if (name.length > STORE_NAME_MAX) errors.add('name', MSG.storeNameTooLong);
  if (isBlank(input.code) || typeof input.code !== 'string') errors.add('code', MSG.storeCodeRequired);
  else if (!/^[A-Za-z0-9_-]{1,20}$/.test(code)) errors.add('code', MSG.storeCodePattern);
  if (!errors.empty) return { ok: false, errors: errors.list };
  return { ok: true, value: { name, code } };
}
