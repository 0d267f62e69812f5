import Router from '@koa/router';
import { API_ROUTER } from '../routerOptions.js';
import { statsCharts, statsSummary, type AppContext } from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';

export function statsRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  r.get('/stats/summary', requireUser(app), async (ctx) => {
    const { store_id, from, to } = ctx.query;
    const ids = store_id === undefined || store_id === '' ? undefined : String(store_id).split(',');
    ctx.body = await statsSummary(serviceContext(app, ctx), { store_id: ids, from, to });
  });
  r.get('/stats/charts', requireUser(app), async (ctx) => {
    const { store_id, from, to } = ctx.query;
    const ids = store_id === undefined || store_id === '' ? undefined : String(store_id).split(',');
    ctx.body = await statsCharts(serviceContext(app, ctx), { store_id: ids, from, to });
  });
  return r;
}
