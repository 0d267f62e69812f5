import Router from '@koa/router';
import { API_ROUTER } from '../routerOptions.js';
import { listAudit, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { listQuery, sendList } from '../list.js';

/** The audit log, read-only (system_admin). */
export function auditRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  r.get('/audit', requireUser(app), async (ctx) => {
    sendList(ctx, 'audit', await listAudit(serviceContext(app, ctx), listQuery(ctx)));
  });
  return r;
}
