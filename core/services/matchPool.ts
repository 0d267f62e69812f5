/**
 * Reconciliation off the main thread (issue 22, item 7). Matching a year of 12 000 reports
 * against 12 000 credits takes seconds of CPU; on the event loop it held every other request
 * (a health check waited 3.4 s, two at once 13 s). Here the matcher runs on a few worker threads
 * with a bounded queue in front: one more call than the queue holds fails at once with BusyError
 * (503, Retry-After, 對帳計算忙碌中…) instead of spawning workers or piling up work without end.
 *
 * Idle workers are unref'd, so a process that matched once still exits by itself; a worker that
 * dies (out of its memory limit, say) fails its call and is replaced by the next one.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BusyError } from '../errors.js';
import { MSG } from '../messages.js';
import type { MatchOptions } from '../reconcile/match.js';
import type { PagedMatch } from '../reconcile/page.js';
import type { ReconcileLine, ReconcileReport } from '../reconcile/types.js';

export { cutPage, type PagedMatch } from '../reconcile/page.js';

export interface MatchingSettings {
  /** worker threads matching at once (REMIT_MATCH_THREADS) */
  threads: number;
  /** calls allowed to wait for a thread; one more is refused with BusyError (REMIT_MATCH_QUEUE) */
  queue: number;
}

export const DEFAULT_MATCHING: MatchingSettings = {
  // leave a core to the event loop (and the password workers): one thread on a small server
  threads: Math.max(1, Math.min(2, availableParallelism() - 1)),
  queue: 4,
};

/** A worker's heap limit: a runaway match ends that worker, never the server. */
const WORKER_HEAP_MB = 1536;
/** About how long one large match takes, for Retry-After. */
const SECONDS_PER_MATCH = 5;
/** Rows per message to the worker: each message is copied on the event loop, so none is long. */
const ROWS_PER_MESSAGE = 1_000;

/**
 * The worker's module: beside this file once built (dist/core/…), or the built copy when this
 * runs from the sources (vitest), which `npm test` builds first.
 */
function workerUrl(): URL {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return new URL('../reconcile/matchWorker.js', import.meta.url);
  const built = join(resolve(dirname(here), '..', '..'), 'dist', 'core', 'reconcile', 'matchWorker.js');
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first (the matcher's worker runs the built code)`);
  return pathToFileURL(built);
}

interface Pending {
  job: { reports: ReconcileReport[]; lines: ReconcileLine[]; opts: MatchOptions; page?: { offset: number; limit: number } };
  resolve(v: PagedMatch): void;
  reject(e: unknown): void;
}

export class MatchPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: Pending[] = [];
  private readonly running = new Map<number, Pending & { worker: Worker }>();
  private workers = 0;
  private seq = 0;

  constructor(readonly settings: MatchingSettings) {}

  /** The matcher's result for these reports and lines, cut to `page` (all of it without one). */
  match(reports: ReconcileReport[], lines: ReconcileLine[], opts: MatchOptions, page?: { offset: number; limit: number }): Promise<PagedMatch> {
    return new Promise<PagedMatch>((resolve, reject) => {
      const p: Pending = { job: { reports, lines, opts, page }, resolve, reject };
      let worker = this.idle.pop();
      if (!worker && this.workers < this.settings.threads) {
        try {
          worker = this.spawn();
        } catch (err) {
          return reject(err);
        }
      }
      if (worker) return this.start(worker, p);
      if (this.waiting.length >= this.settings.queue) {
        const ahead = this.waiting.length + this.running.size;
        return reject(new BusyError(Math.min(60, Math.ceil((ahead / this.settings.threads) * SECONDS_PER_MATCH)), MSG.reconcileBusy));
      }
      this.waiting.push(p);
    });
  }

  /** Calls running and waiting now (tests read it). */
  get load(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waiting.length };
  }

  private spawn(): Worker {
    const worker = new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    this.workers++;
    worker.unref();
    worker.on('message', ({ id, paged, error }: { id: number; paged?: PagedMatch; error?: string }) => {
      const p = this.running.get(id);
      if (!p) return;
      this.running.delete(id);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(paged!);
      const next = this.waiting.shift();
      if (next) this.start(worker, next);
      else {
        worker.unref();
        this.idle.push(worker);
      }
    });
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', (code) => this.lose(worker, new Error(`reconciliation worker exited (${code})`)));
    return worker;
  }

  private start(worker: Worker, p: Pending): void {
    const id = ++this.seq;
    this.running.set(id, { ...p, worker });
    worker.ref(); // a match in progress keeps the process alive until it answers
    void this.send(worker, id, p.job);
  }

  /** The call's rows in messages of 1 000, letting other requests in between (each copy is made on the event loop). */
  private async send(worker: Worker, id: number, { reports, lines, opts, page }: Pending['job']): Promise<void> {
    const parts: Array<['reports' | 'lines', unknown[]]> = [];
    for (let i = 0; i < reports.length; i += ROWS_PER_MESSAGE) parts.push(['reports', reports.slice(i, i + ROWS_PER_MESSAGE)]);
    for (let i = 0; i < lines.length; i += ROWS_PER_MESSAGE) parts.push(['lines', lines.slice(i, i + ROWS_PER_MESSAGE)]);
    for (const [op, rows] of parts) {
      worker.postMessage({ id, op, rows });
      await new Promise((r) => setImmediate(r));
    }
    worker.postMessage({ id, op: 'run', opts, page });
  }

  /** A worker that died fails its call; the next call waiting gets a new worker. */
  private lose(worker: Worker, err: unknown): void {
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    let counted = i >= 0;
    for (const [id, p] of this.running) {
      if (p.worker !== worker) continue;
      this.running.delete(id);
      p.reject(err);
      counted = true;
    }
    if (!counted) return;
    this.workers--;
    const next = this.waiting.shift();
    if (next) {
      try {
        this.start(this.spawn(), next);
      } catch (e) {
        next.reject(e);
      }
    }
  }

  /** Stops every worker (a server closing, a test ending). */
  async close(): Promise<void> {
    const all = [...this.idle, ...[...this.running.values()].map((p) => p.worker)];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }
}

const pools = new Map<string, MatchPool>();
/** The process's pool for these settings (one per settings, as the hashing pool). */
export function matchPoolFor(s: MatchingSettings = DEFAULT_MATCHING): MatchPool {
  const key = `${s.threads}/${s.queue}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new MatchPool(s);
    pools.set(key, pool);
  }
  return pool;
}
