/**
 * Every request's id, sent back in X-Request-Id and named in every error answer so a clerk can quote it, and, when
 * asked for (REMIT_LOG=json), one JSON line per request: what was asked and how it went, never what was sent.
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';

const REQUEST_ID_HEADER = 'X-Request-Id';

/** A caller's id is kept only when it cannot forge a log line or fill one: short, and letters, digits, `.`, `_`, `-`. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's X-Request-Id when safe (a proxy's, to follow a request across both logs), else a new one. */
function requestIdOf(incoming: string | undefined): string {
  return incoming && SAFE_ID.test(incoming) ? incoming : randomBytes(6).toString('hex');
}

/** One request, as a log collector reads it. No body, query, cookie or header value ever enters it. */
export interface RequestLine {
  time: string;
  level: 'info';
  request_id: string;
  method: string;
  /** the route's pattern (`/api/payments/:id`) when one matched, else the path without its query */
  route: string;
  status: number;
  ms: number;
  /** the client left before the answer was sent whole */
  aborted?: true;
}

/** Long enough for any page of ours; a made-up path of megabytes is not copied into every line. */
const MAX_PATH = 200;

function routeOf(ctx: Koa.Context): string {
  // @koa/router's pattern: the same line for every payment, and no id or link token in the log
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : ctx.path.slice(0, MAX_PATH);
}

function lineOf(ctx: Koa.Context, started: number): RequestLine {
  const line: RequestLine = {
    time: new Date().toISOString(),
    level: 'info',
    request_id: ctx.state.requestId,
    method: ctx.method,
    route: routeOf(ctx),
    status: ctx.res.statusCode,
    ms: Math.round((performance.now() - started) * 10) / 10,
  };
  if (!ctx.res.writableFinished) line.aborted = true;
  return line;
}

/** First of all middleware: the id before anything can fail, the line once the answer has left (a stream's too). */
export function requestTrace(write?: (line: RequestLine) => void): Koa.Middleware {
  return async (ctx, next) => {
    const id = requestIdOf(ctx.get(REQUEST_ID_HEADER));
    ctx.state.requestId = id;
    ctx.set(REQUEST_ID_HEADER, id);
    if (write) {
      const started = performance.now();
      ctx.res.once('close', () => write(lineOf(ctx, started)));
    }
    await next();
  };
}

/** REMIT_LOG=json: requests on stdout, failures on stderr, each one JSON line carrying the request's id. */
export const jsonLog = {
  request(line: RequestLine): void {
    process.stdout.write(`${JSON.stringify(line)}\n`);
  },
  error(message: string, err: unknown, requestId?: string): void {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    const line = { time: new Date().toISOString(), level: 'error', request_id: requestId, message, error };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  },
};
