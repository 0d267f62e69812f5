import Router from '@koa/router';
import { API_ROUTER } from '../routerOptions.js';
import {
  createPayment,
  exportByTicket,
  exportPaymentsStream,
  exportTicket,
  sampleFile,
  deletePayment,
  deletePayments,
  getPayment,
  importPayments,
  importPaymentFile,
  listPayments,
  refusalOf,
  requireImportPermission,
  requireAnyPermission,
  requirePermission,
  requireSubmitter,
  MAX_STREAM_IMPORT_BYTES,
  updatePayment,
  type AppContext,
} from '../../core/index.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { fileUpload, importBody, smallBody } from '../middleware/body.js';
import { gate } from '../middleware/gate.js';
import { listQuery, sendFile, sendList } from '../list.js';

const field = (body: unknown, name: string) =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;

type Auth = ReturnType<typeof requireUser>;

export function paymentRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);
  // Order matters: the fixed paths (export, sample) before /payments/:id.
  importRoutes(r, app, auth);
  exportRoutes(r, app, auth);
  recordRoutes(r, app, auth);
  return r;
}

/** Imports: rows sent as JSON, a whole file, and the wizard's check that writes nothing. */
function importRoutes(r: Router<State>, app: AppContext, auth: Auth): void {
  // Each route with a body refuses a caller without its permission before reading a byte of it.
  const importer = gate((actor) => requirePermission(actor, 'manage_payments'));
  r.post('/payments/bulk-import', auth, importer, importBody, async (ctx) => {
    const allow = field(ctx.request.body, 'allow_duplicates');
    ctx.body = await importPayments(serviceContext(app, ctx), field(ctx.request.body, 'payments'), {
      allowDuplicates: allow === true,
    });
  });
  // a whole file, streamed to disk: the same core entry as `remit import`
  r.post(
    '/payments/import-file',
    auth,
    async (ctx, next) => {
      requireImportPermission(serviceContext(app, ctx));
      await next();
    },
    fileUpload(MAX_STREAM_IMPORT_BYTES),
    async (ctx) => {
      const q = (k: string) => (Array.isArray(ctx.query[k]) ? ctx.query[k][0] : ctx.query[k]);
      const flag = (k: string) => ['1', 'true'].includes(q(k) ?? '');
      const report = await importPaymentFile(serviceContext(app, ctx), ctx.state.upload as string, {
        name: q('filename') ?? '',
        allowDuplicates: flag('allow_duplicates'),
        dryRun: flag('dry_run'),
        previewRows: 0,
      });
      if (report.errorCount) throw refusalOf(report);
      const { preview: _preview, problems: _problems, ...rest } = report;
      ctx.body = rest;
    },
  );
  // the import wizard's preview: the import's checks in the caller's scope, writing nothing
  r.post('/payments/bulk-import/check', auth, importer, importBody, async (ctx) => {
    ctx.body = await importPayments(serviceContext(app, ctx), field(ctx.request.body, 'payments'), { dryRun: true });
  });
}

/** Downloads: the export (by header or by ticket), the ticket itself, and the sample file. */
function exportRoutes(r: Router<State>, app: AppContext, auth: Auth): void {
  r.get(
    '/payments/export',
    async (ctx, next) => {
      // a link from POST /payments/export-ticket, followed without an Authorization header: the ticket says who asked
      const ticket = ctx.query.ticket;
      if (typeof ticket === 'string' && !ctx.get('authorization'))
        return sendFile(ctx, await exportByTicket(app, ticket, ctx.ip || null));
      await auth(ctx, next);
    },
    async (ctx) => {
      const format = ctx.query.format === 'csv' ? 'csv' : ctx.query.format === 'json' ? 'json' : 'xlsx';
      sendFile(ctx, await exportPaymentsStream(serviceContext(app, ctx), { filter: listQuery(ctx).filter, format }));
    },
  );
  r.post(
    '/payments/export-ticket',
    auth,
    gate((a) => requireAnyPermission(a, 'view_payments', 'manage_payments')),
    smallBody,
    async (ctx) => {
      const body = ctx.request.body;
      const t = await exportTicket(serviceContext(app, ctx), {
        filter: field(body, 'filter'),
        format: field(body, 'format'),
      });
      ctx.body = {
        url: `/payments/export?ticket=${encodeURIComponent(t.ticket)}`,
        file_name: t.fileName,
        count: t.count,
        expires_in_seconds: t.expiresInSeconds,
      };
    },
  );
  r.get('/payments/sample', auth, async (ctx) => {
    sendFile(ctx, await sampleFile(serviceContext(app, ctx)));
  });
}

/** One payment or a list of them: create, list, read, edit, delete. */
function recordRoutes(r: Router<State>, app: AppContext, auth: Auth): void {
  r.post('/payments', auth, gate(requireSubmitter), smallBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createPayment(serviceContext(app, ctx), ctx.request.body);
  });
  r.get('/payments', auth, async (ctx) => {
    sendList(ctx, 'payments', await listPayments(serviceContext(app, ctx), listQuery(ctx)));
  });
  r.delete(
    '/payments',
    auth,
    gate((a) => requirePermission(a, 'delete_payments')),
    smallBody,
    async (ctx) => {
      ctx.body = await deletePayments(serviceContext(app, ctx), field(ctx.request.body, 'uuids'));
    },
  );
  r.get('/payments/:id', auth, async (ctx) => {
    ctx.body = await getPayment(serviceContext(app, ctx), ctx.params.id);
  });
  r.put(
    '/payments/:id',
    auth,
    gate((a) => requirePermission(a, 'edit_payments')),
    smallBody,
    async (ctx) => {
      ctx.body = await updatePayment(serviceContext(app, ctx), ctx.params.id, ctx.request.body);
    },
  );
  r.delete('/payments/:id', auth, async (ctx) => {
    ctx.body = await deletePayment(serviceContext(app, ctx), ctx.params.id);
  });
}
