/**
 * A store's public link, for customers with no account: its own prefix
 * (`/api/public`), no session, no cookie, no token read. The store always comes from the link in
 * the path; the services count every report, and every read, against the abuse limits first.
 *
 * - GET  /api/public/links/:token          the store's name (or 404 連結已失效…)
 * - POST /api/public/links/:token/reports  a report: 201 {tracking, status_path}; the same
 *                                          attempt again (its client_key): 200, the first one's
 * - GET  /api/public/reports/:tracking     its status, amount, time and store name (or 404)
 */
import Router from '@koa/router';
import { publicLinkInfo, publicReportStatus, reportThroughLink, type AppContext } from '../../core/index.js';
import { jsonBody } from '../middleware/body.js';
import type { State } from '../middleware/auth.js';
import { API_ROUTER } from '../routerOptions.js';

/** a report is a few short fields: a note of 1000 characters is some 3 KB */
const reportBody = jsonBody(16 * 1024);

export function publicRoutes(app: AppContext): Router<State> {
  const r = new Router<State>({ ...API_ROUTER, prefix: '/public' });
  r.get('/links/:token', async (ctx) => {
    ctx.body = await publicLinkInfo(app, ctx.params.token, ctx.ip || null);
  });
  r.post('/links/:token/reports', reportBody, async (ctx) => {
    const { receipt, replayed } = await reportThroughLink(app, ctx.params.token, ctx.request.body, ctx.ip || null);
    ctx.body = receipt;
    // the same attempt sent again (its client_key): the first report's receipt, nothing new made
    ctx.status = replayed ? 200 : 201;
  });
  r.get('/reports/:tracking', async (ctx) => {
    ctx.body = await publicReportStatus(app, ctx.params.tracking, ctx.ip || null);
  });
  return r;
}
