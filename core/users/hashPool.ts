// Password hashing on worker threads: bcrypt at cost 12 takes a quarter second of CPU, and a burst of
// sign-ins on the event loop would stall every other request. A full queue fails at once (BusyError).
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BusyError } from '../errors.js';
import { poolCache, WorkerPool, type PoolSettings } from '../workerPool.js';

export type HashingSettings = PoolSettings;

export const DEFAULT_HASHING: HashingSettings = {
  // Leave one core to the event loop that serves everything else.
  threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  queue: 16,
};

type Job = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

const bcryptPath = createRequire(import.meta.url).resolve('bcryptjs');
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', async ({ id, job }) => {
  try {
    const value = job.op === 'hash' ? await bcrypt.hash(job.password, job.cost) : await bcrypt.compare(job.password, job.hash);
    parentPort.postMessage({ id, value });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

const pool = poolCache(
  (s) =>
    new WorkerPool<Job, unknown>(s, {
      spawn: () => new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } }),
      send: (worker, id, job) => worker.postMessage({ id, job }),
      // about how long the queue ahead takes to drain: a few seconds at most
      busy: ({ waiting }) => new BusyError(Math.max(1, Math.ceil((waiting / s.threads) * 0.3))),
      exited: (code) => `password worker exited (${code})`,
    }),
);

export function bcryptHash(
  password: string,
  cost: number,
  settings: HashingSettings = DEFAULT_HASHING,
): Promise<string> {
  return pool(settings).run({ op: 'hash', password, cost }) as Promise<string>;
}

export function bcryptCompare(
  password: string,
  hash: string,
  settings: HashingSettings = DEFAULT_HASHING,
): Promise<boolean> {
  return pool(settings).run({ op: 'compare', password, hash }) as Promise<boolean>;
}
