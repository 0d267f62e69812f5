/** The Koa application without listen (`/api`, JSON in and out), for tests, `remit serve` and embedding programs. */
import Router from '@koa/router';
import Koa from 'koa';
import { DEFAULT_MATCHING, lastBackup, restoreInProgress, type AppContext } from '../core/index.js';
import { healthCheck, type HealthOptions } from '../core/db/health.js';
import { problem } from '../core/errors.js';
import type { State } from './middleware/auth.js';
import { compressJson } from './middleware/compress.js';
import { errorHandler, problemBody } from './middleware/errors.js';
import { refuseWhileRestoring } from './middleware/restoring.js';
import { requestTrace, type RequestLine } from './middleware/requestTrace.js';
import { auditRoutes } from './routes/audit.js';
import { backupRoutes } from './routes/backups.js';
import { closeRoutes } from './routes/closes.js';
import { authRoutes } from './routes/auth.js';
import { paymentRoutes } from './routes/payments.js';
import { publicRoutes } from './routes/public.js';
import { reconcileRoutes } from './routes/reconcile.js';
import { statsRoutes } from './routes/stats.js';
import { storeRoutes } from './routes/stores.js';
import { userRoutes } from './routes/users.js';
import { API_ROUTER } from './routerOptions.js';
import { refuseCrossSite } from './session.js';

export interface AppOptions extends AppContext {
  /** take the client address from X-Forwarded-For (behind a reverse proxy) */
  trustProxy?: boolean;
  /** proxies in front (default 1): the client address is that many entries from X-Forwarded-For's right, no further */
  proxyHops?: number;
  /** where unexpected errors are reported, with the request's id; defaults to stderr */
  log?: (msg: string, err: unknown, requestId?: string) => void;
  /** one line per request once answered (REMIT_LOG=json); none by default */
  requestLog?: (line: RequestLine) => void;
  /** what `/api/health` watches: the data folder (default the working folder) and its thresholds */
  health?: Partial<HealthOptions>;
  /** extra middleware mounted after /api (the back office's static files) */
  after?: Koa.Middleware[];
}

/** Whether a path is the API's, however spelled: every rule for API answers (no-store, the JSON 404) keys on this. */
const isApiPath = (path: string) => {
  const p = path.toLowerCase();
  return p === '/api' || p.startsWith('/api/');
};

export function createApp(opts: AppOptions): Koa<State> {
  const app = new Koa<State>({ proxy: opts.trustProxy ?? false, maxIpsCount: opts.proxyHops ?? 1 });
  // matching always set: reconciliation runs on worker threads, so no request holds the event loop
  const ctx: AppContext = {
    db: opts.db,
    read: opts.read,
    security: opts.security,
    matching: opts.matching ?? DEFAULT_MATCHING,
    backups: opts.backups,
  };
  // Unexpected errors are reported by errorHandler; Koa's default logger would print them twice.
  app.silent = true;

  app.use(requestTrace(opts.requestLog));
  app.use(async (c, next) => {
    c.set('X-Content-Type-Options', 'nosniff');
    c.set('Referrer-Policy', 'no-referrer');
    c.set('X-Frame-Options', 'DENY');
    // set before the answer is made, so errors and 404s carry it too
    if (isApiPath(c.path)) c.set('Cache-Control', 'no-store');
    await next();
  });
  app.use(compressJson());
  // a write that waited past its limit for a restore (another instance's too) is told so, not 資料庫忙碌
  app.use(errorHandler(opts.log, () => restoreInProgress(ctx.db)));
  app.use(async (c, next) => {
    if (c.querystring.includes('%00') || c.querystring.includes('\u0000')) {
      c.status = 400;
      c.body = problemBody(c, problem('nul_character'));
      return;
    }
    await next();
  });

  // a browser's data-changing request from another site never reaches a route
  const crossSite = refuseCrossSite();
  app.use(async (c, next) => (isApiPath(c.path) ? crossSite(c, next) : next()));
  app.use(refuseWhileRestoring(ctx, isApiPath));

  const api = new Router<State>({ ...API_ROUTER, prefix: '/api' });
  // no sign-in: a load balancer asks it; it says what is wrong and nothing about anyone
  const health = healthCheck(opts.read ?? opts.db, {
    dataDir: '.',
    // read beside the writer: a long import on SQLite does not hold the answer
    lastBackup: () => lastBackup({ ...ctx, db: opts.read ?? opts.db }),
    ...opts.health,
  });
  api.get('/health', async (c) => {
    const report = await health();
    c.status = report.ok ? 200 : 503;
    c.body = report;
  });
  for (const routes of [
    publicRoutes(ctx),
    authRoutes(ctx),
    paymentRoutes(ctx),
    userRoutes(ctx),
    storeRoutes(ctx),
    statsRoutes(ctx),
    auditRoutes(ctx),
    reconcileRoutes(ctx),
    closeRoutes(ctx),
    backupRoutes(ctx),
  ]) {
    api.use(routes.routes(), routes.allowedMethods());
  }
  const isApi = isApiPath;
  // Answers for /api paths no route took: 405 (known path, other method) or 404, both JSON.
  app.use(async (c, next) => {
    await next();
    if (!isApi(c.path)) return;
    if (c.status === 405 || c.status === 501) c.body = problemBody(c, problem('method_not_allowed'));
  });
  app.use(api.routes());
  app.use(api.allowedMethods());
  app.use(async (c, next) => {
    if (isApi(c.path)) {
      if (c.body === undefined || c.body === null) {
        c.status = 404;
        c.body = problemBody(c, problem('not_found_route'));
      }
      return;
    }
    await next();
  });
  for (const mw of opts.after ?? []) app.use(mw);
  return app;
}
