import Router from '@koa/router';
import { API_ROUTER } from '../routerOptions.js';
import {
  confirmPairs,
  createFromLine,
  reportsForLine,
  forgetPayer,
  importStatement,
  listPayers,
  listLines,
  markUnpaid,
  proposeMatches,
  unlinkPayment,
  MAX_IMPORT_BYTES,
  PROPOSALS_PAGE,
  requirePermission,
  type AppContext,
} from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { rawBody, smallBody } from '../middleware/body.js';
import { gate } from '../middleware/gate.js';
import { listQuery, sendList } from '../list.js';

const field = (body: unknown, name: string) =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Bank reconciliation: statements in, lines, proposals and decisions (docs/reconciliation.md). */
export function reconcileRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);
  // Refused before the body is read: importing needs manage_payments, deciding confirm_payments.
  const decider = gate((a) => requirePermission(a, 'confirm_payments'));

  r.post(
    '/reconcile/statements',
    auth,
    gate((a) => requirePermission(a, 'manage_payments')),
    rawBody(MAX_IMPORT_BYTES),
    async (ctx) => {
      const statement = await importStatement(serviceContext(app, ctx), {
        bytes: ctx.state.bytes as Uint8Array,
        file: one(ctx.query.filename) ?? '',
        storeId: one(ctx.query.store_id),
        account: one(ctx.query.account),
      });
      ctx.status = 201;
      ctx.body = { statement };
    },
  );
  r.get('/reconcile/lines', auth, async (ctx) => {
    sendList(ctx, 'reconcile/lines', await listLines(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.get('/reconcile/proposals', auth, async (ctx) => {
    // always paged here (200 items a queue by default): a year's answer unpaged is tens of MB
    ctx.body = await proposeMatches(serviceContext(app, ctx), {
      from: one(ctx.query.from),
      to: one(ctx.query.to),
      storeId: one(ctx.query.store_id),
      statement: one(ctx.query.statement),
      offset: one(ctx.query.offset) ?? '0',
      limit: one(ctx.query.limit) || String(PROPOSALS_PAGE),
    });
  });
  r.post('/reconcile/confirm', auth, decider, smallBody, async (ctx) => {
    ctx.body = await confirmPairs(serviceContext(app, ctx), field(ctx.request.body, 'pairs'));
  });
  r.post('/reconcile/from-line', auth, decider, smallBody, async (ctx) => {
    const b = ctx.request.body;
    ctx.status = 201;
    ctx.body = await createFromLine(serviceContext(app, ctx), {
      line: field(b, 'line'),
      store_id: field(b, 'store_id'),
      last_five: field(b, 'last_five'),
      note: field(b, 'note'),
    });
  });
  r.get('/reconcile/lines/:id/reports', auth, decider, async (ctx) => {
    ctx.body = await reportsForLine(serviceContext(app, ctx), ctx.params.id, one(ctx.query.q));
  });
  r.post('/reconcile/unpaid', auth, decider, smallBody, async (ctx) => {
    ctx.body = await markUnpaid(serviceContext(app, ctx), field(ctx.request.body, 'payments'));
  });
  r.post('/reconcile/unlink', auth, decider, smallBody, async (ctx) => {
    ctx.body = await unlinkPayment(serviceContext(app, ctx), field(ctx.request.body, 'payment'));
  });
  r.get('/reconcile/payers', auth, async (ctx) => {
    sendList(ctx, 'reconcile/payers', await listPayers(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.delete('/reconcile/payers/:id', auth, async (ctx) => {
    ctx.body = await forgetPayer(serviceContext(app, ctx), ctx.params.id);
  });
  return r;
}
