import Router from '@koa/router';
import { API_ROUTER } from './routerOptions.js';
import {
  requirePermission,
  type AppContext,
  type ListQuery,
  type ListResult,
  type Permission,
  type ServiceContext,
} from '../core/index.js';
import { requireUser, serviceContext, type State } from './middleware/auth.js';
import { smallBody } from './middleware/body.js';
import { gate } from './middleware/gate.js';
import { listQuery, sendList } from './list.js';

/** The five core services behind one react-admin resource. */
interface ResourceServices<T> {
  list(ctx: ServiceContext, query: ListQuery): Promise<ListResult<T>>;
  create(ctx: ServiceContext, input: unknown): Promise<T>;
  get(ctx: ServiceContext, id: unknown): Promise<T>;
  update(ctx: ServiceContext, id: unknown, patch: unknown): Promise<T>;
  remove(ctx: ServiceContext, id: unknown): Promise<T>;
}

/**
 * `GET/POST /<name>` and `GET/PUT/DELETE /<name>/:id`, each a call to its core service (which checks permission and
 * store). `write`: the permission creating and updating need, checked before the body is read.
 */
export function resourceRoutes<T>(
  app: AppContext,
  name: string,
  s: ResourceServices<T>,
  write: Permission,
): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);
  const writer = gate((actor) => requirePermission(actor, write));
  r.get(`/${name}`, auth, async (ctx) => {
    sendList(ctx, name, await s.list(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.post(`/${name}`, auth, writer, smallBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = await s.create(serviceContext(app, ctx), ctx.request.body);
  });
  r.get(`/${name}/:id`, auth, async (ctx) => {
    ctx.body = await s.get(serviceContext(app, ctx), ctx.params.id);
  });
  r.put(`/${name}/:id`, auth, writer, smallBody, async (ctx) => {
    ctx.body = await s.update(serviceContext(app, ctx), ctx.params.id, ctx.request.body);
  });
  r.delete(`/${name}/:id`, auth, async (ctx) => {
    ctx.body = await s.remove(serviceContext(app, ctx), ctx.params.id);
  });
  return r;
}
