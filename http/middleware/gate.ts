import type Koa from 'koa';
import { UnauthenticatedError, type Principal } from '../../core/index.js';
import type { State } from './auth.js';

/**
 * Refuses a signed-in caller who lacks what a route needs, before its body is read or inflated:
 * `check` is core's rule (requirePermission and the like), the same one the
 * service applies again to the parsed request. Mount it after `requireUser`, before the body.
 */
export function gate(check: (actor: Principal) => void): Koa.Middleware<State> {
  return async (ctx, next) => {
    if (!ctx.state.actor) throw new UnauthenticatedError();
    check(ctx.state.actor);
    await next();
  };
}
