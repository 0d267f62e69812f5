/**
 * Reconciliation off the main thread: a year's match or a large statement takes seconds of CPU,
 * which held every other request. A bounded queue: one call too many fails at once (BusyError, 503).
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

export type MatchingSettings = PoolSettings;

export const DEFAULT_MATCHING: MatchingSettings = {
  // leave a core to the event loop (and the password workers): one thread on a small server
  threads: Math.max(1, Math.min(2, availableParallelism() - 1)),
  queue: 4,
};

/** A worker's heap limit: a runaway match ends that worker, never the server. */
const WORKER_HEAP_MB = 1536;
const SECONDS_PER_MATCH = 5;
/** Each message is copied on the event loop, so none is long. */
const ROWS_PER_MESSAGE = 1_000;

/** The worker's module: beside this file once built, else (vitest, from the sources) the built copy. */
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
/** the bytes are moved, not copied; lines and fingerprints come back in parts */
type ReadJob = {
  kind: 'read';
  bytes: Uint8Array;
  file: string;
  given: string | null;
  lines: StatementLine[];
  prints: string[];
};
type Job = MatchJob | ReadJob;
type StatementPart = { lines: StatementLine[]; prints: string[] };

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

  match(
    reports: ReconcileReport[],
    lines: ReconcileLine[],
    opts: MatchOptions,
    page?: { offset: number; limit: number },
  ): Promise<PagedMatch> {
    return this.run({ kind: 'match', reports, lines, opts, page }) as Promise<PagedMatch>;
  }

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
