/**
 * What the server said when a users call failed. Errors from react-admin's dataProvider
 * (HttpError) and from `api()` (ApiError) both carry the JSON body `{message, errors?}`.
 */
interface ErrorBody {
  message?: unknown;
  errors?: Array<{ field?: unknown; message?: unknown }>;
}

function bodyOf(err: unknown): ErrorBody | null {
  const body = (err as { body?: unknown } | null)?.body;
  return body && typeof body === 'object' ? (body as ErrorBody) : null;
}

/** Per-field messages of a 400/409 answer, to show under the fields. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of bodyOf(err)?.errors ?? []) {
    if (typeof e?.field === 'string' && typeof e?.message === 'string' && !out[e.field]) out[e.field] = e.message;
  }
  return out;
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
