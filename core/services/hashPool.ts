/**
 * Password hashing off the main thread. bcrypt at cost 12 takes a quarter of a second of CPU;
 * run on the event loop, a burst of sign-ins or password checks stalled every other request
 * (issue 10, item 2). Here hashes and comparisons run on a few worker threads, and the queue in
 * front of them is bounded: when it is full the call fails at once with BusyError (HTTP 503
 * with Retry-After) instead of making everyone wait.
 *
 * The workers are unref'd, so a CLI command that hashed one password still exits by itself.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BusyError } from '../errors.js';

export interface HashingSettings {
  /** worker threads hashing at once (REMIT_HASH_THREADS) */
  threads: number;
  /** calls allowed to wait for a thread; one more is refused with BusyError (REMIT_HASH_QUEUE) */
  queue: number;
}

export const DEFAULT_HASHING: HashingSettings = {
  // Leave one core to the event loop that serves everything else.
  threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  queue: 16,
};

type Job = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };
interface Pending {
  job: Job;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

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

class HashPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: Pending[] = [];
  private readonly running = new Map<number, Pending & { worker: Worker }>();
  private workers = 0;
  private seq = 0;

  constructor(readonly settings: HashingSettings) {}

  run<T>(job: Job): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { job, resolve: resolve as (v: unknown) => void, reject };
      const worker = this.idle.pop() ?? (this.workers < this.settings.threads ? this.spawn() : undefined);
      if (worker) return this.start(worker, p);
      if (this.waiting.length >= this.settings.queue) {
        // About how long the queue ahead takes to drain: a few seconds at most.
        return reject(new BusyError(Math.max(1, Math.ceil((this.waiting.length / this.settings.threads) * 0.3))));
      }
      this.waiting.push(p);
    });
  }

  /** Calls running or waiting now (tests and the soak script read it). */
  get load(): number {
    return this.running.size + this.waiting.length;
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } });
    this.workers++;
    worker.unref();
    worker.on('message', ({ id, value, error }: { id: number; value?: unknown; error?: string }) => {
      const p = this.running.get(id);
      if (!p) return;
      this.running.delete(id);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(value);
      const next = this.waiting.shift();
      if (next) this.start(worker, next);
      else {
        worker.unref();
        this.idle.push(worker);
      }
    });
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', (code) => this.lose(worker, new Error(`password worker exited (${code})`)));
    return worker;
  }

  private start(worker: Worker, p: Pending): void {
    const id = ++this.seq;
    this.running.set(id, { ...p, worker });
    worker.ref(); // a hash in progress keeps the process alive until it answers
    worker.postMessage({ id, job: p.job });
  }

  /** A worker that died fails its call and is replaced on the next one. */
  private lose(worker: Worker, err: unknown): void {
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    for (const [id, p] of this.running) {
      if (p.worker !== worker) continue;
      this.running.delete(id);
      this.workers--;
      p.reject(err);
      const next = this.waiting.shift();
      if (next) this.start(this.spawn(), next);
      return;
    }
    if (i >= 0) this.workers--;
  }
}

const pools = new Map<string, HashPool>();
function poolFor(s: HashingSettings = DEFAULT_HASHING): HashPool {
  const key = `${s.threads}/${s.queue}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new HashPool(s);
    pools.set(key, pool);
  }
  return pool;
}

export function bcryptHash(password: string, cost: number, settings?: HashingSettings): Promise<string> {
  return poolFor(settings).run<string>({ op: 'hash', password, cost });
}

export function bcryptCompare(password: string, hash: string, settings?: HashingSettings): Promise<boolean> {
  return poolFor(settings).run<boolean>({ op: 'compare', password, hash });
}
