import type { FieldError } from '../../../core/errors';

export type StoreField = 'name' | 'code';
export type StoreFieldErrors = Partial<Record<StoreField, string>>;

/** Field errors of a list (core's validateStore, or the server's `errors`), keyed by field. */
export function byField(errors: readonly FieldError[] | undefined): StoreFieldErrors {
  const out: StoreFieldErrors = {};
  for (const e of errors ?? []) if ((e.field === 'name' || e.field === 'code') && !out[e.field]) out[e.field] = e.message;
  return out;
}

/**
 * What a failed store call says: the server's field errors (a 409 duplicate code comes as one
 * on `code`) and, when no field explains it, the server's message or the fallback.
 */
export function describeError(err: unknown, fallback: string): { fields: StoreFieldErrors; message: string | null } {
  const e = err as { body?: { message?: unknown; errors?: unknown } | null } | null;
  const list = Array.isArray(e?.body?.errors) ? (e.body.errors as FieldError[]) : undefined;
  const fields = byField(list);
  if (Object.keys(fields).length) return { fields, message: null };
  const serverMessage = typeof e?.body?.message === 'string' ? e.body.message : null;
  // a time-out or a network failure has no body, and its own message is technical English
  return { fields, message: serverMessage || fallback };
}
