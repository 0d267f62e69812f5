/**
 * A store's public link, for customers with no account: no session, cookie or token is read. The store always comes
 * from the link in the path; the services count every report and read against the abuse limits first.
 */
import Router from '@koa/router';
import { publicLinkInfo, publicReportStatus, reportThroughLink, type AppContext } from '../../core/index.js';
import { jsonBody } from '../middleware/body.js';
import type { State } from '../middleware/auth.js';
import { API_ROUTER } from '../routerOptions.js';

/** a report is a few short fields (a note of 1000 characters is some 3 KB) */
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
