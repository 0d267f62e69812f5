/**
 * The back office's session token is in an HttpOnly, SameSite=Strict cookie no page script can read (scripts send
 * `Authorization: Bearer`); data-changing requests from another site are refused, so a forged form cannot use it.
 */
import type Koa from 'koa';
import { problem } from '../core/errors.js';
import { problemBody } from './middleware/errors.js';

export const SESSION_COOKIE = 'remit_session';

/** The Bearer token, else the cookie's; undefined: none; null: a malformed Authorization header. */
export function sessionToken(ctx: Koa.ParameterizedContext<unknown, object, unknown>): string | null | undefined {
  const header = ctx.get('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    return m ? m[1] : null;
  }
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  return cookie ? cookie : undefined;
}

export function setSessionCookie(
  ctx: Koa.ParameterizedContext<unknown, object, unknown>,
  token: string,
  ttlSeconds: number,
): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    maxAge: ttlSeconds * 1000,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Koa.ParameterizedContext<unknown, object, unknown>): void {
  ctx.cookies.set(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    maxAge: 0,
    expires: new Date(0),
    overwrite: true,
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Another site, as the browser says (Sec-Fetch-Site, else Origin); programs send neither and no page tricks them. */
function isCrossSite(ctx: Koa.ParameterizedContext<unknown, object, unknown>): boolean {
  const site = ctx.get('sec-fetch-site').toLowerCase();
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = ctx.get('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host.toLowerCase() !== ctx.host.toLowerCase();
  } catch {
    return true; // 'null' (a sandboxed frame, a data: page) or garbage
  }
}

/** Refuses (403) requests that change data and come from another site. */
export function refuseCrossSite(): Koa.Middleware {
  return async (ctx, next) => {
    if (!SAFE_METHODS.has(ctx.method) && isCrossSite(ctx)) {
      ctx.status = 403;
      ctx.body = problemBody(ctx, problem('cross_site_refused'));
      return;
    }
    await next();
  };
}
