import { STORE_CODE_MAX, STORE_NAME_MAX } from '../limits.js';
import { FieldErrors, isBlank, isPlainObject, type Validated } from '../validation.js';

interface StoreInput {
  name: string;
  code: string;
}

/** A store: a name and a unique short code (letters, digits, `_` and `-`). */
export function validateStore(raw: unknown): Validated<StoreInput> {
  const input = isPlainObject(raw) ? raw : {};
  const errors = new FieldErrors();
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (isBlank(input.name) || typeof input.name !== 'string') errors.add('name', 'store_name_required');
  else if (name.length > STORE_NAME_MAX) errors.add('name', 'store_name_too_long', { limit: STORE_NAME_MAX });
  if (isBlank(input.code) || typeof input.code !== 'string') errors.add('code', 'store_code_required');
  else if (!new RegExp(`^[A-Za-z0-9_-]{1,${STORE_CODE_MAX}}$`).test(code))
    errors.add('code', 'store_code_pattern', { limit: STORE_CODE_MAX });
  if (!errors.empty) return { ok: false, errors: errors.list };
  return { ok: true, value: { name, code } };
}
