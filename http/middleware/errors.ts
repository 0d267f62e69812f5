import type Koa from 'koa';
import {
  BusyError,
  ConflictError,
  isDatabaseBusy,
  isDomainError,
  TooManyRequestsError,
  ValidationError,
  type ErrorCode,
  type Problem,
} from '../../core/index.js';
import { ERROR_CODES_HEADER, problem, type FieldError } from '../../core/errors.js';

const STATUS = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  busy: 503,
} as const;

type Answer = { message: string; code?: ErrorCode; details?: Problem['details'] };

/** The sentence, and with ERROR_CODES_HEADER the code and details (old clients never ask). */
function problemFields(ctx: Koa.Context, p: Problem): Answer {
  return ctx.get(ERROR_CODES_HEADER) === '1'
    ? { message: p.message, code: p.code, details: p.details }
    : { message: p.message };
}

/** An error answer's body: its fields, and the request's id (X-Request-Id) for a person to quote. */
export function problemBody(ctx: Koa.Context, p: Problem): Answer & { request_id?: string } {
  return { ...problemFields(ctx, p), request_id: ctx.state.requestId };
}

/**
 * The one place errors become HTTP answers: domain errors with their status, body parsing's with their 4xx, and
 * anything unexpected logged and answered 500 without its details.
 */
export function errorHandler(
  log: (msg: string, err: unknown, requestId?: string) => void = (m, e) => console.error(m, e),
  restoring: () => Promise<boolean> = async () => false,
): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (isDomainError(err)) {
        ctx.status = STATUS[err.kind];
        const body = problemBody(ctx, err);
        if (err instanceof ValidationError)
          ctx.body = {
            ...body,
            errors: err.errors.map((e: FieldError) => ({ field: e.field, ...problemFields(ctx, e) })),
          };
        else if (err instanceof ConflictError && err.field)
          ctx.body = { ...body, errors: [{ field: err.field, ...problemFields(ctx, err) }] };
        // a probable duplicate also names the earlier payment at the top, where older clients read it
        else if (err.code === 'possible_duplicate')
          ctx.body = { ...body, duplicate_of: (err.details as { duplicate_of: string }).duplicate_of };
        else ctx.body = body;
        if (err.kind === 'unauthenticated') ctx.set('WWW-Authenticate', 'Bearer');
        if (err instanceof TooManyRequestsError || err instanceof BusyError)
          ctx.set('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
        return;
      }
      const e = err as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
      const status = e.status ?? e.statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = problemBody(ctx, problem(clientProblem(status, e.type)));
        return;
      }
      if (isDatabaseBusy(err)) {
        // a clerk's payment sent during a large import on SQLite, or a restore: say which, and when to try again
        const restore = await restoring().catch(() => false);
        ctx.status = 503;
        ctx.set('Retry-After', restore ? '30' : '10');
        ctx.body = problemBody(ctx, problem(restore ? 'restore_in_progress' : 'database_busy'));
        return;
      }
      log(`${ctx.method} ${ctx.path} failed`, err, ctx.state.requestId);
      ctx.status = 500;
      ctx.body = problemBody(ctx, problem('internal_error'));
    }
  };
}

function clientProblem(
  status: number,
  type?: string,
):
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'malformed_json'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found_route'
  | 'bad_request' {
  if (status === 413) return 'body_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 400 && (type === 'entity.parse.failed' || type === undefined)) return 'malformed_json';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found_route';
  return 'bad_request';
}
