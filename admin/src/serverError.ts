// What the server said when a call failed, from HttpError and ApiError alike. Branch on codes, never on text.
import { isErrorCode } from '../../core/browser';
import type { ErrorCode } from '../../core/browser';
import { UI } from './messages';

interface ErrorBody {
  message?: unknown;
  code?: unknown;
  request_id?: unknown;
  errors?: Array<{ field?: unknown; message?: unknown }>;
}

function bodyOf(err: unknown): ErrorBody | null {
  const body = (err as { body?: unknown } | null)?.body;
  return body && typeof body === 'object' ? (body as ErrorBody) : null;
}

/** Undefined on a network failure or time-out. */
export function serverCode(err: unknown): ErrorCode | undefined {
  const code = bodyOf(err)?.code;
  return isErrorCode(code) ? code : undefined;
}

/** The first message per field. */
export function fieldMessages(
  errors: ReadonlyArray<{ field?: unknown; message?: unknown }> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors ?? []) {
    if (typeof e?.field === 'string' && typeof e?.message === 'string' && !out[e.field]) out[e.field] = e.message;
  }
  return out;
}

export function serverFieldErrors(err: unknown): Record<string, string> {
  const errors = bodyOf(err)?.errors;
  return fieldMessages(Array.isArray(errors) ? errors : undefined);
}

/** An unexpected server error (500) ends with its request's id: the one thing the server's log is searched by. */
function quotable(err: unknown, message: string): string {
  const id = bodyOf(err)?.request_id;
  const failed = (err as { status?: unknown } | null)?.status === 500;
  return failed && typeof id === 'string' && id ? UI.withErrorCode(message, id) : message;
}

/** A bare 驗證錯誤 gets the field messages, so the user sees what to fix; undefined with no answer. */
export function serverMessage(err: unknown): string | undefined {
  const body = bodyOf(err);
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message : undefined;
  const details = Object.values(serverFieldErrors(err)).filter((m) => m !== message);
  if (message && details.length) return `${message}：${details.join('，')}`;
  return message ? quotable(err, message) : details.length ? details.join('，') : undefined;
}

/** Messages on the form's `fields` (a 409 duplicate comes on its field), else one message on top. */
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
