import Router from '@koa/router';
import { createStore, deleteStore, getStore, listStorePayments, listStores, updateStore, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { smallBody } from '../middleware/body.js';
import { listQuery, sendList } from '../list.js';

export function storeRoutes(app: AppContext): Router<State> {
  const r = new Router<State>();
  const auth = requireUser(app);

  r.get('/stores', auth, async (ctx) => {
    sendList(ctx, 'stores', await listStores(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.post('/stores', auth, smallBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createStore(serviceContext(app, ctx), ctx.request.body);
  });
  r.get('/stores/:id', auth, async (ctx) => {
    ctx.body = await getStore(serviceContext(app, ctx), ctx.params.id);
  });
  r.get('/stores/:id/payments', auth, async (ctx) => {
    sendList(ctx, 'payments', await listStorePayments(serviceContext(app, ctx), ctx.params.id, listQuery(ctx)));
  });
  r.put('/stores/:id', auth, smallBody, async (ctx) => {
    ctx.body = await updateStore(serviceContext(app, ctx), ctx.params.id, ctx.request.body);
  });
  r.delete('/stores/:id', auth, async (ctx) => {
    ctx.body = await deleteStore(serviceContext(app, ctx), ctx.params.id);
  });
  return r;
}
