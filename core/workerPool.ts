// Worker threads behind a bounded queue (password hashing, reconciliation): a call beyond the queue fails at
// once (a BusyError, HTTP 503) rather than piling up work. A worker answers `{ id, value }` or `{ id, error }`,
// after any `{ id, part }`. Idle workers are unref'd, so a process that used the pool still exits.
import type { Worker } from 'node:worker_threads';
import { fieldErrorOf, ValidationError, type Problem } from './errors.js';

export interface PoolSettings {
  threads: number;
  /** calls allowed to wait for a thread; one more is refused */
  queue: number;
}

interface PoolKind<J> {
  spawn(): Worker;
  /** hands call `id` its job (one message, or several) */
  send(worker: Worker, id: number, job: J): void;
  /** the error for a call refused because the queue is full, given the calls ahead of it */
  busy(ahead: { waiting: number; running: number }): Error;
  /** what a worker's exit says to the call it was running */
  exited(code: number): string;
  /** a part of a long answer, so no one message is long to read; `more` asks for the next */
  part?(job: J, part: unknown, more: () => void): void;
}

/** A refusal travels whole (its messages are for the user), anything else as its stack. */
type WorkerError = string | { validation: { overall: Problem; errors: Array<Problem & { field: string }> } };

export function toWorkerError(err: unknown): WorkerError {
  if (err instanceof ValidationError) {
    const plain = (p: { code: Problem['code']; details: Problem['details']; message: string }): Problem => ({
      code: p.code,
      details: p.details,
      message: p.message,
    });
    return { validation: { overall: plain(err), errors: err.errors.map((e) => ({ field: e.field, ...plain(e) })) } };
  }
  return String((err as Error)?.stack ?? err);
}

function fromWorkerError(e: WorkerError): Error {
  if (typeof e === 'string') return new Error(e);
  return new ValidationError(
    e.validation.errors.map(({ field, ...p }) => fieldErrorOf(field, p)),
    e.validation.overall,
  );
}

interface Pending<J, R> {
  job: J;
  resolve(v: R): void;
  reject(e: unknown): void;
}

export class WorkerPool<J, R> {
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<Pending<J, R>> = [];
  private readonly running = new Map<number, Pending<J, R> & { worker: Worker }>();
  private workers = 0;
  private seq = 0;

  constructor(
    readonly settings: PoolSettings,
    private readonly kind: PoolKind<J>,
  ) {}

  run(job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const p: Pending<J, R> = { job, resolve, reject };
      let worker = this.idle.pop();
      if (!worker && this.workers < this.settings.threads) {
        try {
          worker = this.spawn();
        } catch (err) {
          return reject(err);
        }
      }
      if (worker) return this.start(worker, p);
      if (this.waiting.length >= this.settings.queue)
        return reject(this.kind.busy({ waiting: this.waiting.length, running: this.running.size }));
      this.waiting.push(p);
    });
  }

  /** Calls running and waiting now (tests and the soak script read it). */
  get load(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waiting.length };
  }

  private spawn(): Worker {
    const worker = this.kind.spawn();
    this.workers++;
    worker.unref();
    worker.on(
      'message',
      ({ id, value, error, part }: { id: number; value?: R; error?: WorkerError; part?: unknown }) => {
        const p = this.running.get(id);
        if (!p) return;
        if (part !== undefined) return this.kind.part?.(p.job, part, () => worker.postMessage({ id, op: 'more' }));
        this.running.delete(id);
        if (error !== undefined) p.reject(fromWorkerError(error));
        else p.resolve(value as R);
        const next = this.waiting.shift();
        if (next) this.start(worker, next);
        else {
          worker.unref();
          this.idle.push(worker);
        }
      },
    );
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', (code) => this.lose(worker, new Error(this.kind.exited(code))));
    return worker;
  }

  private start(worker: Worker, p: Pending<J, R>): void {
    const id = ++this.seq;
    this.running.set(id, { ...p, worker });
    worker.ref(); // a call in progress keeps the process alive until it answers
    this.kind.send(worker, id, p.job);
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

  async close(): Promise<void> {
    const all = [...this.idle, ...[...this.running.values()].map((p) => p.worker)];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }
}

/** One pool per settings and kind in a process. */
export function poolCache<P>(make: (s: PoolSettings) => P): (s: PoolSettings) => P {
  const pools = new Map<string, P>();
  return (s) => {
    const key = `${s.threads}/${s.queue}`;
    let pool = pools.get(key);
    if (!pool) pools.set(key, (pool = make(s)));
    return pool;
  };
}
