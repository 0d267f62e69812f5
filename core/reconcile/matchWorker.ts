/**
 * The matcher on a worker thread (core/services/matchPool.ts starts it): reports, lines and
 * options in, the matcher's result out, each message one call. Nothing here but the call, so the
 * worker and the CLI (which calls the matcher directly) always decide the same.
 */
import { parentPort } from 'node:worker_threads';
import { matchReconcile, type MatchOptions } from './match.js';
import type { ReconcileLine, ReconcileReport } from './types.js';

interface Job {
  id: number;
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  opts: MatchOptions;
}

parentPort?.on('message', ({ id, reports, lines, opts }: Job) => {
  try {
    parentPort!.postMessage({ id, result: matchReconcile(reports, lines, opts) });
  } catch (err) {
    parentPort!.postMessage({ id, error: String((err as Error)?.stack ?? err) });
  }
});
