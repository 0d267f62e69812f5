import type Koa from 'koa';
import { restoreRunning, type AppContext } from '../../core/index.js';
import { problem } from '../../core/errors.js';
import { problemBody } from './errors.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** While this instance restores a backup, a change would only wait for it: said at once instead (503). */
export function refuseWhileRestoring(app: AppContext, isApi: (path: string) => boolean): Koa.Middleware {
  return async (c, next) => {
    if (isApi(c.path) && !READS.has(c.method) && restoreRunning(app.db)) {
      c.status = 503;
      c.set('Retry-After', '30');
      c.body = problemBody(c, problem('restore_in_progress'));
      return;
    }
    await next();
  };
}
