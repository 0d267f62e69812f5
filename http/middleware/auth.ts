import type Koa from 'koa';
import { authenticateSession, UnauthenticatedError, type AppContext, type ServiceContext } from '../../core/index.js';
import { clearSessionCookie, sessionToken } from '../session.js';

export interface State {
  actor?: ServiceContext['actor'];
  sessionId?: string;
}

/** Requires an active user's session (Bearer token, else the session cookie); sets `ctx.state.actor`. */
export function requireUser(app: AppContext): Koa.Middleware<State> {
  return async (ctx, next) => {
    const token = sessionToken(ctx);
    if (!token) throw new UnauthenticatedError();
    let session;
    try {
      session = await authenticateSession(app, token);
    } catch (err) {
      // a cookie that no longer opens anything is cleared, so the browser stops sending it
      if (err instanceof UnauthenticatedError && !ctx.get('authorization')) clearSessionCookie(ctx);
      throw err;
    }
    ctx.state.actor = session.actor;
    ctx.state.sessionId = session.sessionId;
    await next();
  };
}

/** The service context of a request: database, settings, the signed-in actor and their address. */
export function serviceContext(app: AppContext, ctx: Koa.ParameterizedContext<State>): ServiceContext {
  if (!ctx.state.actor) throw new UnauthenticatedError();
  return { ...app, actor: ctx.state.actor, ip: ctx.ip || null, sessionId: ctx.state.sessionId };
}
