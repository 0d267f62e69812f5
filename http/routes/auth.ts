import Router from '@koa/router';
import { API_ROUTER } from '../routerOptions.js';
import { changePassword, login, me, signOut, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { smallBody } from '../middleware/body.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../session.js';

export function authRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);

  // the token is answered (scripts' Bearer token) and set as the HttpOnly cookie the pages use: they never store it
  r.post('/admin/login', smallBody, async (ctx) => {
    const { token } = await login(app, ctx.request.body, ctx.ip || null);
    setSessionCookie(ctx, token, app.security.tokenTtlSeconds);
    ctx.body = { token };
  });
  // the session is revoked on the server, for every instance
  r.post('/admin/logout', async (ctx) => {
    const token = sessionToken(ctx);
    if (token) await signOut(app, token, ctx.ip || null);
    clearSessionCookie(ctx);
    ctx.status = 204;
  });
  r.get('/admin/me', auth, async (ctx) => {
    ctx.body = await me(serviceContext(app, ctx));
  });
  r.post('/users/change-password', auth, smallBody, async (ctx) => {
    const answer = await changePassword(serviceContext(app, ctx), ctx.request.body);
    setSessionCookie(ctx, answer.token, app.security.tokenTtlSeconds);
    ctx.body = answer;
  });
  return r;
}
