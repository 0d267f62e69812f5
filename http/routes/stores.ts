import type Router from '@koa/router';
import { createStore, deleteStore, getStore, listStorePayments, listStores, updateStore, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { listQuery, sendList } from '../list.js';
import { resourceRoutes } from '../resource.js';

export function storeRoutes(app: AppContext): Router<State> {
  const r = resourceRoutes(app, 'stores', { list: listStores, create: createStore, get: getStore, update: updateStore, remove: deleteStore }, 'manage_stores');
  r.get('/stores/:id/payments', requireUser(app), async (ctx) => {
    sendList(ctx, 'payments', await listStorePayments(serviceContext(app, ctx), ctx.params.id, listQuery(ctx)));
  });
  return r;
}
