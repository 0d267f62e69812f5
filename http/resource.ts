import Router from '@koa/router';
import { API_ROUTER } from './routerOptions.js';
import type { AppContext, ListQuery, ListResult, ServiceContext } from '../core/index.js';
import { requireUser, serviceContext, type State } from './middleware/auth.js';
import { smallBody } from './middleware/body.js';
import { listQuery, sendList } from './list.js';

/** The five core services behind one react-admin resource. */
export interface ResourceServices<T> {
  list(ctx: ServiceContext, query: ListQuery): Promise<ListResult<T>>;
  create(ctx: ServiceContext, input: unknown): Promise<T>;
  get(ctx: ServiceContext, id: unknown): Promise<T>;
  update(ctx: ServiceContext, id: unknown, patch: unknown): Promise<T>;
  remove(ctx: ServiceContext, id: unknown): Promise<T>;
}

/**
 * `GET/POST /<name>` and `GET/PUT/DELETE /<name>/:id` for a resource, each a call to its core
 * service (which checks the permission and the store boundary), on a router of its own that
 * the caller may extend with more routes.
 */
export function resourceRoutes<T>(app: AppContext, name: string, s: ResourceServices<T>): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);
  r.get(`/${name}`, auth, async (ctx) => {
    sendList(ctx, name, await s.list(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.post(`/${name}`, auth, smallBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = await s.create(serviceContext(app, ctx), ctx.request.body);
  });
  r.get(`/${name}/:id`, auth, async (ctx) => {
    ctx.body = await s.get(serviceContext(app, ctx), ctx.params.id);
  });
  r.put(`/${name}/:id`, auth, smallBody, async (ctx) => {
    ctx.body = await s.update(serviceContext(app, ctx), ctx.params.id, ctx.request.body);
  });
  r.delete(`/${name}/:id`, auth, async (ctx) => {
    ctx.body = await s.remove(serviceContext(app, ctx), ctx.params.id);
  });
  return r;
}
