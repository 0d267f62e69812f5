// JSON calls to /api with the session cookie, never a token in a header; a 401 ends the session.
import { ERROR_CODES_HEADER, type ErrorCode, type ErrorDetails } from '../../core/browser';
import { API_BASE, LOGIN_PATH, TIMEOUT_MS } from './config';
import { currentPath, loginUrlFor } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: {
      message?: string;
      code?: ErrorCode;
      details?: ErrorDetails;
      errors?: Array<{ field: string; message: string; code?: ErrorCode; details?: ErrorDetails }>;
      duplicate_of?: string;
      /** X-Request-Id, in every error answer */
      request_id?: string;
    } | null,
  ) {
    super(message);
  }
}

/** On every page but sign-in, the form's too, so it never shows a stale username. */
export function handleUnauthorized(): void {
  const path = window.location.pathname;
  if (!path.startsWith(LOGIN_PATH)) window.location.assign(loginUrlFor(currentPath()));
}

interface CallOptions {
  /** sent as application/octet-stream in place of a JSON body */
  bytes?: Blob;
  /** for a call that may take longer (a bank statement) */
  timeoutMs?: number;
}

export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<T> {
  // every error answer then names its code and details (core/errors.ts)
  const headers: Record<string, string> = { Accept: 'application/json', [ERROR_CODES_HEADER]: '1' };
  if (options.bytes) headers['Content-Type'] = 'application/octet-stream';
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${API_BASE}${path}`, {
    method,
    headers,
    body: options.bytes ?? (body === undefined ? undefined : JSON.stringify(body)),
    credentials: 'same-origin',
    signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
  });
  const text = await res.text();
  const json = parseJson(text);
  if (!res.ok) refused(res, json);
  return json as T;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function refused(res: Response, json: unknown): never {
  if (res.status === 401) handleUnauthorized();
  const b = (json ?? null) as ApiError['body'];
  throw new ApiError(res.status, b?.message ?? res.statusText, b);
}

/** Fetched, not linked: a refusal becomes an ApiError for the page to say, not a page of JSON. */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const res = await fetch(`${API_BASE}${path}`, {
    headers: { [ERROR_CODES_HEADER]: '1' },
    credentials: 'same-origin',
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) refused(res, parseJson(await res.text()));
  const blob = await res.blob();
  const named = /filename\*=UTF-8''([^;]+)/i.exec(res.headers.get('content-disposition') ?? '');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = named ? decodeURIComponent(named[1]) : fallbackName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
