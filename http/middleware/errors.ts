import type Koa from 'koa';
import { BusyError, ConflictError, isDatabaseBusy, isDomainError, MSG, TooManyRequestsError, ValidationError } from '../../core/index.js';

const STATUS = { validation: 400, unauthenticated: 401, forbidden: 403, not_found: 404, conflict: 409, too_many_requests: 429, busy: 503 } as const;

/**
 * The one place domain errors become HTTP answers: `{message, errors?}` with the matching status.
 * Errors from body parsing keep their 4xx status with a readable message; anything unexpected
 * is logged and answered 500 without its details.
 */
export function errorHandler(log: (msg: string, err: unknown) => void = (m, e) => console.error(m, e)): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (isDomainError(err)) {
        ctx.status = STATUS[err.kind];
        if (err instanceof ValidationError) ctx.body = { message: err.message, errors: err.errors };
        else if (err.kind === 'conflict' && 'field' in err && err.field) ctx.body = { message: err.message, errors: [{ field: err.field, message: err.message }] };
        else if (err instanceof ConflictError && err.details) ctx.body = { message: err.message, ...err.details };
        else ctx.body = { message: err.message };
        if (err.kind === 'unauthenticated') ctx.set('WWW-Authenticate', 'Bearer');
        if (err instanceof TooManyRequestsError || err instanceof BusyError) ctx.set('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
        return;
      }
      const e = err as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
      const status = e.status ?? e.statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = { message: clientMessage(status, e.type) };
        return;
      }
      if (isDatabaseBusy(err)) {
        // a clerk's payment sent during a large import on SQLite: say so, and when to try again
        ctx.status = 503;
        ctx.set('Retry-After', '10');
        ctx.body = { message: MSG.databaseBusy };
        return;
      }
      log(`${ctx.method} ${ctx.path} failed`, err);
      ctx.status = 500;
      ctx.body = { message: MSG.internalError };
    }
  };
}

function clientMessage(status: number, type?: string): string {
  if (status === 413) return MSG.bodyTooLarge;
  if (status === 415) return MSG.unsupportedMediaType;
  if (status === 400 && (type === 'entity.parse.failed' || type === undefined)) return MSG.malformedJson;
  if (status === 401) return MSG.unauthenticated;
  if (status === 403) return MSG.forbidden;
  if (status === 404) return MSG.notFoundRoute;
  return MSG.badRequest;
}
