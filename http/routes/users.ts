import Router from '@koa/router';
import { createUser, deleteUser, getUser, listUsers, updateUser, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { smallBody } from '../middleware/body.js';
import { listQuery, sendList } from '../list.js';

export function userRoutes(app: AppContext): Router<State> {
  const r = new Router<State>();
  const auth = requireUser(app);

  r.get('/users', auth, async (ctx) => {
    sendList(ctx, 'users', await listUsers(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.post('/users', auth, smallBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createUser(serviceContext(app, ctx), ctx.request.body);
  });
  r.get('/users/:id', auth, async (ctx) => {
    ctx.body = await getUser(serviceContext(app, ctx), ctx.params.id);
  });
  r.put('/users/:id', auth, smallBody, async (ctx) => {
    ctx.body = await updateUser(serviceContext(app, ctx), ctx.params.id, ctx.request.body);
  });
  r.delete('/users/:id', auth, async (ctx) => {
    ctx.body = await deleteUser(serviceContext(app, ctx), ctx.params.id);
  });
  return r;
}
