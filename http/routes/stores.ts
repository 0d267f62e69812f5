import type Router from '@koa/router';
import type Koa from 'koa';
import {
  createStore,
  deleteStore,
  getStore,
  linkFloods,
  listStorePayments,
  listStores,
  removeLinkReports,
  requirePermission,
  storeLink,
  updateStore,
  type AppContext,
  type LinkAction,
} from '../../core/index.js';
import { smallBody } from '../middleware/body.js';
import { gate } from '../middleware/gate.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { listQuery, sendList } from '../list.js';
import { resourceRoutes } from '../resource.js';

export function storeRoutes(app: AppContext): Router<State> {
  const r = resourceRoutes(
    app,
    'stores',
    { list: listStores, create: createStore, get: getStore, update: updateStore, remove: deleteStore },
    'manage_stores',
  );
  r.get('/stores/:id/payments', requireUser(app), async (ctx) => {
    sendList(ctx, 'payments', await listStorePayments(serviceContext(app, ctx), ctx.params.id, listQuery(ctx)));
  });
  // the store's public link: shown (made on first use), rotated, turned off; its address is REMIT_PUBLIC_URL,
  // else the server's (set by remit serve), else this request's
  const link = (action: LinkAction) => async (ctx: Koa.ParameterizedContext<State>) => {
    ctx.body = await storeLink(serviceContext(app, ctx), ctx.params.id, action, `${ctx.protocol}://${ctx.host}`);
  };
  r.get('/stores/:id/link', requireUser(app), link('show'));
  r.post('/stores/:id/link/rotate', requireUser(app), link('rotate'));
  r.post('/stores/:id/link/off', requireUser(app), link('off'));
  // a flood through a link: the stores whose link is flooded today, and removing a flood's reports
  r.get('/links/floods', requireUser(app), async (ctx) => {
    ctx.body = await linkFloods(serviceContext(app, ctx));
  });
  r.post(
    '/stores/:id/link/reports/remove',
    requireUser(app),
    gate((a) => requirePermission(a, 'delete_payments')),
    smallBody,
    async (ctx) => {
      const body = (ctx.request.body ?? {}) as { from?: unknown; to?: unknown };
      ctx.body = await removeLinkReports(serviceContext(app, ctx), ctx.params.id, { from: body.from, to: body.to });
    },
  );
  return r;
}
