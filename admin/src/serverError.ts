/**
 * What the server said when a call failed: the one mapper of the back office's dialogs. Errors from react-admin's dataProvider
 * (HttpError) and from `api()` (ApiError) both carry the JSON body `{message, code, details, errors?}`: the back office asks
 * for codes (core/errors.ts, ERROR_CODES_HEADER) and branches on them, never on the text.
 */
import { isErrorCode } from '../../core/browser';
import type { ErrorCode } from '../../core/browser';

interface ErrorBody {
  message?: unknown;
  code?: unknown;
  errors?: Array<{ field?: unknown; message?: unknown }>;
}

function bodyOf(err: unknown): ErrorBody | null {
  const body = (err as { body?: unknown } | null)?.body;
  return body && typeof body === 'object' ? (body as ErrorBody) : null;
}

/** The code of the server's answer (core/errors.ts), or undefined when there is none (network failure, time-out). */
export function serverCode(err: unknown): ErrorCode | undefined {
  const code = bodyOf(err)?.code;
  return isErrorCode(code) ? code : undefined;
}

/** The first message per field of an error list (core's validators' or the server's), keyed by field. */
export function fieldMessages(
  errors: ReadonlyArray<{ field?: unknown; message?: unknown }> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors ?? []) {
    if (typeof e?.field === 'string' && typeof e?.message === 'string' && !out[e.field]) out[e.field] = e.message;
  }
  return out;
}

/** Per-field messages of a 400/409 answer, to show under the fields. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  const errors = bodyOf(err)?.errors;
  return fieldMessages(Array.isArray(errors) ? errors : undefined);
}

/**
 * The server's message, or undefined when there is none (network failure, time-out): the caller
 * then shows the spec's fallback. A validation answer's generic 驗證錯誤 is completed with the
 * field messages, so the user sees what to fix.
 */
export function serverMessage(err: unknown): string | undefined {
  const body = bodyOf(err);
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message : undefined;
  const details = Object.values(serverFieldErrors(err)).filter((m) => m !== message);
  if (message && details.length) return `${message}：${details.join('，')}`;
  return message ?? (details.length ? details.join('，') : undefined);
}

/**
 * A failed save of a form with `fields`: the server's messages for those fields (a 409 duplicate
 * comes as one on its field) and, when none of them explains it, the server's message or `fallback`.
 */
export function describeServerError(
  err: unknown,
  fallback: string,
  fields: readonly string[],
): { fields: Record<string, string>; message: string | null } {
  const all = serverFieldErrors(err);
  const shown = Object.fromEntries(Object.entries(all).filter(([f]) => fields.includes(f)));
  if (Object.keys(shown).length) return { fields: shown, message: null };
  // a time-out or a network failure has no body, and its own message is technical English
  return { fields: shown, message: serverMessage(err) ?? fallback };
}
