import type Koa from 'koa';
import { authenticate, UnauthenticatedError, type AppContext, type ServiceContext } from '../../core/index.js';

export interface State {
  actor?: ServiceContext['actor'];
}

/** Requires `Authorization: Bearer <token>` of an active user; sets `ctx.state.actor`. */
export function requireUser(app: AppContext): Koa.Middleware<State> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw new UnauthenticatedError();
    ctx.state.actor = await authenticate(app, m[1]);
    await next();
  };
}

/** The service context of a request: database, settings, the signed-in actor and their address. */
export function serviceContext(app: AppContext, ctx: Koa.ParameterizedContext<State>): ServiceContext {
  if (!ctx.state.actor) throw new UnauthenticatedError();
  return { ...app, actor: ctx.state.actor, ip: ctx.ip || null };
}
