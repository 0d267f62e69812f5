import type Koa from 'koa';
import { UnauthenticatedError, type Principal } from '../../core/index.js';
import type { State } from './auth.js';

/**
 * Refuses a caller who lacks what a route needs before its body is read (`check`: core's rule, which the service
 * applies again). Mount it after `requireUser`, before the body.
 */
export function gate(check: (actor: Principal) => void): Koa.Middleware<State> {
  return async (ctx, next) => {
    if (!ctx.state.actor) throw new UnauthenticatedError();
    check(ctx.state.actor);
    await next();
  };
}
