import Router from '@koa/router';
import { changePassword, login, me, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { smallBody } from '../middleware/body.js';

export function authRoutes(app: AppContext): Router<State> {
  const r = new Router<State>();
  const auth = requireUser(app);

  r.post('/admin/login', smallBody, async (ctx) => {
    const { token } = await login(app, ctx.request.body, ctx.ip || null);
    ctx.body = { token };
  });
  r.get('/admin/me', auth, async (ctx) => {
    ctx.body = await me(serviceContext(app, ctx));
  });
  r.post('/users/change-password', auth, smallBody, async (ctx) => {
    ctx.body = await changePassword(serviceContext(app, ctx), ctx.request.body);
  });
  return r;
}
