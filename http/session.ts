/**
 * The back office's session: the token lives in an HttpOnly, SameSite=Strict
 * cookie (Secure when the request came over HTTPS), so no page script can read it; scripts keep
 * sending `Authorization: Bearer`. Requests that change data are refused when the browser says
 * they come from another site (`Sec-Fetch-Site`, else `Origin`), so a forged form or fetch on
 * another site cannot use the cookie.
 */
import type Koa from 'koa';
import { problem } from '../core/errors.js';
import { problemBody } from './middleware/errors.js';

export const SESSION_COOKIE = 'remit_session';

/** The session token a request carries: the Bearer token, else the cookie's; undefined: none; null: a malformed Authorization header. */
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

/**
 * Whether a request comes from another site, as the browser tells it: `Sec-Fetch-Site` when sent
 * (every current browser), else `Origin` compared with the host asked for. Programs send neither,
 * and are not browsers a page could trick.
 */
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
