import Router from '@koa/router';
import { API_ROUTER } from '../routerOptions.js';
import {
  closeDay,
  closesBoard,
  deleteCashOut,
  exportDayBook,
  getDay,
  packBoard,
  recordCashOut,
  reopenDay,
  requireCashChange,
  requirePermission,
  updateCashOut,
  requireSubmitter,
  type AppContext,
} from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { smallBody } from '../middleware/body.js';
import { gate } from '../middleware/gate.js';
import { sendFile } from '../list.js';

/** Cash out and the daily close. A route with a body refuses a caller without its permission before reading it. */
export function closeRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);
  const q = (v: unknown) => (Array.isArray(v) ? v[0] : v);

  r.post(
    '/cash-out',
    auth,
    gate((a) => (requirePermission(a, 'record_cash_out'), requireSubmitter(a))),
    smallBody,
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await recordCashOut(serviceContext(app, ctx), ctx.request.body);
    },
  );
  r.put(
    '/cash-out/:id',
    auth,
    gate((a) => requireCashChange(a, 'edit')),
    smallBody,
    async (ctx) => {
      ctx.body = await updateCashOut(serviceContext(app, ctx), ctx.params.id, ctx.request.body);
    },
  );
  r.delete(
    '/cash-out/:id',
    auth,
    gate((a) => requireCashChange(a, 'delete')),
    async (ctx) => {
      ctx.body = await deleteCashOut(serviceContext(app, ctx), ctx.params.id);
    },
  );
  r.get('/closes/day', auth, async (ctx) => {
    ctx.body = await getDay(serviceContext(app, ctx), { store_id: q(ctx.query.store_id), date: q(ctx.query.date) });
  });
  r.get('/closes/board', auth, async (ctx) => {
    const ids = q(ctx.query.store_id);
    // each store's days as columns (core/closes/boardWire.ts): a fifth of the JSON
    ctx.body = packBoard(
      await closesBoard(serviceContext(app, ctx), {
        from: q(ctx.query.from),
        to: q(ctx.query.to),
        store_id: ids ? String(ids).split(',') : undefined,
      }),
    );
  });
  r.get('/closes/daybook', auth, async (ctx) => {
    sendFile(
      ctx,
      await exportDayBook(serviceContext(app, ctx), {
        store_id: q(ctx.query.store_id),
        from: q(ctx.query.from),
        to: q(ctx.query.to),
        format: q(ctx.query.format),
      }),
    );
  });
  r.post(
    '/closes',
    auth,
    gate((a) => requirePermission(a, 'close_day')),
    smallBody,
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await closeDay(serviceContext(app, ctx), ctx.request.body);
    },
  );
  r.post(
    '/closes/reopen',
    auth,
    gate((a) => requirePermission(a, 'manage_payments')),
    smallBody,
    async (ctx) => {
      ctx.body = await reopenDay(serviceContext(app, ctx), ctx.request.body);
    },
  );
  return r;
}
