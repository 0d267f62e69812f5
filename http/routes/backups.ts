import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import Router from '@koa/router';
import type Koa from 'koa';
import { API_ROUTER } from '../routerOptions.js';
import {
  backupForDownload,
  backupOverview,
  inspectBackup,
  MAX_BACKUP_UPLOAD_BYTES,
  requireBackupAccess,
  restoreBackup,
  RESTORE_WORD,
  setKeepDays,
  takeManualBackup,
  type AppContext,
} from '../../core/index.js';
import { requireFreeSpace } from '../../core/backups/folder.js';
import { fieldRefusal } from '../../core/backups/refusals.js';
import { requireUser, serviceContext, type State } from '../middleware/auth.js';
import { fileUpload, smallBody } from '../middleware/body.js';
import { gate } from '../middleware/gate.js';

const query = (ctx: Koa.Context, k: string) => {
  const v = ctx.query[k];
  return Array.isArray(v) ? v[0] : v;
};

/** 備份: the list, a backup taken and downloaded, the retention, and a file checked, then restored. */
export function backupRoutes(app: AppContext): Router<State> {
  const r = new Router<State>(API_ROUTER);
  const auth = requireUser(app);
  // refused before a byte of a body is read
  const allowed = gate((actor) => requireBackupAccess(actor));
  const limit = app.backups?.maxUploadBytes ?? MAX_BACKUP_UPLOAD_BYTES;
  r.get('/backups', auth, async (ctx) => {
    ctx.body = await backupOverview(serviceContext(app, ctx));
  });
  r.post('/backups', auth, allowed, smallBody, async (ctx) => {
    ctx.status = 201;
    ctx.body = await takeManualBackup(serviceContext(app, ctx));
  });
  r.put('/backups/settings', auth, allowed, smallBody, async (ctx) => {
    const body = ctx.request.body as Record<string, unknown> | undefined;
    ctx.body = { keep_days: await setKeepDays(serviceContext(app, ctx), body?.keep_days) };
  });
  r.post('/backups/check', auth, allowed, roomFor(limit), fileUpload(limit), async (ctx) => {
    ctx.body = await inspectBackup(serviceContext(app, ctx), ctx.state.upload as string, query(ctx, 'filename') ?? '');
  });
  r.post('/backups/restore', auth, allowed, confirmed, roomFor(limit), fileUpload(limit), async (ctx) => {
    ctx.body = await restoreBackup(serviceContext(app, ctx), ctx.state.upload as string, {
      shownAs: query(ctx, 'filename') ?? '',
      confirm: query(ctx, 'confirm'),
    });
  });
  r.get('/backups/:name', auth, async (ctx) => {
    const file = await backupForDownload(serviceContext(app, ctx), ctx.params.name);
    ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
    ctx.set('Content-Length', String(file.bytes));
    ctx.type = 'application/gzip';
    ctx.body = createReadStream(file.path);
  });
  return r;
}

/** The typed word, checked before the file is received. */
const confirmed: Koa.Middleware = async (ctx, next) => {
  if (query(ctx, 'confirm') !== RESTORE_WORD)
    throw fieldRefusal('confirm', 'restore_confirm_required', { word: RESTORE_WORD });
  await next();
};

/** A declared size the temporary folder cannot hold is refused before it is written (one over `limit`: 413 next). */
function roomFor(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > 0 && declared <= limit) await requireFreeSpace(tmpdir(), declared);
    await next();
  };
}
