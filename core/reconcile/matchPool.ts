/**
 * Reconciliation off the main thread. Matching a year of 12 000 reports against 12 000 credits
 * takes seconds of CPU, and reading a 12 MB statement as many; on the event loop either held every
 * other request (a health check waited 3.4 s, two at once 13 s). Here both run on a few worker
 * threads with a bounded queue in front: one more call than the queue holds fails at once with BusyError
 * (503, Retry-After, 對帳計算忙碌中…) instead of spawning workers or piling up work without end.
 *
 * The pool itself (threads, queue, workers that die, idle workers that let a process exit) is
 * core/workerPool.ts, shared with password hashing.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BusyError, problem } from '../errors.js';
import { poolCache, WorkerPool, type PoolSettings } from '../workerPool.js';
import type { MatchOptions } from './match.js';
import type { PagedMatch } from './page.js';
import type { PreparedStatement } from './prepare.js';
import type { ReconcileLine, ReconcileReport, StatementLine } from './types.js';

export { cutPage, type PagedMatch } from './page.js';

/** threads and queue (REMIT_MATCH_THREADS, REMIT_MATCH_QUEUE) */
export type MatchingSettings = PoolSettings;

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
  if (here.endsWith('.js')) return new URL('./matchWorker.js', import.meta.url);
  const built = join(resolve(dirname(here), '..', '..'), 'dist', 'core', 'reconcile', 'matchWorker.js');
  if (!existsSync(built))
    throw new Error(`${built} is missing: run npm run build first (the matcher's worker runs the built code)`);
  return pathToFileURL(built);
}

type MatchJob = {
  kind: 'match';
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  opts: MatchOptions;
  page?: { offset: number; limit: number };
};
/** a statement to read: the bytes go over (moved, not copied), its lines and fingerprints come back in parts */
type ReadJob = {
  kind: 'read';
  bytes: Uint8Array;
  file: string;
  given: string | null;
  lines: StatementLine[];
  prints: string[];
};
type Job = MatchJob | ReadJob;
/** lines and their fingerprints sent back with a read statement, a part at a time */
type StatementPart = { lines: StatementLine[]; prints: string[] };

/** The call's rows in messages of 1 000, letting other requests in between (each copy is made on the event loop). */
async function send(worker: Worker, id: number, job: Job): Promise<void> {
  if (job.kind === 'read') {
    // a copy of its own to move (a Buffer may share its memory with others)
    const bytes = new Uint8Array(job.bytes);
    worker.postMessage({ id, op: 'read', bytes, file: job.file, given: job.given }, [bytes.buffer]);
    return;
  }
  const { reports, lines, opts, page } = job;
  const parts: Array<['reports' | 'lines', unknown[]]> = [];
  for (let i = 0; i < reports.length; i += ROWS_PER_MESSAGE)
    parts.push(['reports', reports.slice(i, i + ROWS_PER_MESSAGE)]);
  for (let i = 0; i < lines.length; i += ROWS_PER_MESSAGE) parts.push(['lines', lines.slice(i, i + ROWS_PER_MESSAGE)]);
  for (const [op, rows] of parts) {
    worker.postMessage({ id, op, rows });
    await new Promise((r) => setImmediate(r));
  }
  worker.postMessage({ id, op: 'run', opts, page });
}

/** The matcher, and the reading of statements, on a pool of worker threads (core/workerPool.ts). */
class MatchPool extends WorkerPool<Job, unknown> {
  constructor(settings: MatchingSettings) {
    super(settings, {
      spawn: () => new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } }),
      send: (worker, id, job) => void send(worker, id, job),
      part: (job, part, more) => {
        if (job.kind !== 'read') return;
        const { lines, prints } = part as StatementPart;
        for (const l of lines) job.lines.push(l);
        for (const p of prints) job.prints.push(p);
        // the next part after other requests had their turn: parts sent at once are all read in one go
        setImmediate(more);
      },
      busy: ({ waiting, running }) =>
        new BusyError(
          Math.min(60, Math.ceil(((waiting + running) / settings.threads) * SECONDS_PER_MATCH)),
          problem('reconcile_busy'),
        ),
      exited: (code) => `reconciliation worker exited (${code})`,
    });
  }

  /** The matcher's result for these reports and lines, cut to `page` (all of it without one). */
  match(
    reports: ReconcileReport[],
    lines: ReconcileLine[],
    opts: MatchOptions,
    page?: { offset: number; limit: number },
  ): Promise<PagedMatch> {
    return this.run({ kind: 'match', reports, lines, opts, page }) as Promise<PagedMatch>;
  }

  /** A statement read and keyed (prepareStatement) on a worker thread; its refusals are the reader's own. */
  async prepare(bytes: Uint8Array, file: string, given: string | null): Promise<PreparedStatement> {
    const job: ReadJob = { kind: 'read', bytes, file, given, lines: [], prints: [] };
    const { read, account } = (await this.run(job)) as PreparedStatement;
    return { read: { ...read, lines: job.lines }, account, prints: job.prints };
  }
}

const pools = poolCache((s) => new MatchPool(s));
export function matchPoolFor(s: MatchingSettings = DEFAULT_MATCHING): MatchPool {
  return pools(s);
}
