// Batching for a busy server (group commit): SQLite takes one writer at a time and every query is a round trip
// through the driver's thread, so calls arriving together share one transaction, each with its own answer or
// error. Kept over a plain insert per request: about four times the submissions a second (docs/performance.md).
import type { Knex } from 'knex';
import { isPostgres } from './connect.js';
import type { Db } from '../context.js';

interface Pending<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

/** Collects calls made while a batch runs; the next batch takes them all (group commit). */
export class Batcher<In, Out> {
  private queue: Array<Pending<In, Out>> = [];
  private running = false;

  constructor(
    /** answers one result per input, in order: a value, or an Error for that input alone */
    private readonly run: (inputs: In[]) => Promise<Array<Out | Error>>,
    private readonly maxBatch = 500,
  ) {}

  push(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.run(batch.map((p) => p.input));
        batch.forEach((p, i) => {
          const r = results[i];
          if (r instanceof Error) p.reject(r);
          else p.resolve(r as Out);
        });
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.running = false;
  }
}

/** One batcher of a kind per database handle; transactions are never batched (they are already one unit). */
export function batcherFor<In, Out>(
  cache: WeakMap<object, Batcher<In, Out>>,
  db: Db,
  make: (root: Knex) => Batcher<In, Out>,
): Batcher<In, Out> | null {
  if ((db as Knex.Transaction).isTransaction) return null;
  let b = cache.get(db);
  if (!b) {
    b = make(db as Knex);
    cache.set(db, b);
  }
  return b;
}

/** Multi-row VALUES as large as the parameter limit allows (knex writes SQLite's as much slower UNION ALLs). */
export async function insertRows<T extends object>(db: Db, table: string, rows: readonly T[]): Promise<void> {
  if (!rows.length) return;
  const cols = Object.keys(rows[0]);
  const perStatement = Math.max(1, Math.floor((isPostgres(db) ? 60_000 : 30_000) / cols.length));
  const one = `(${cols.map(() => '?').join(',')})`;
  const head = `insert into "${table}" (${cols.map((c) => `"${c}"`).join(',')}) values `;
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const bindings: unknown[] = [];
    for (const r of chunk) for (const c of cols) bindings.push((r as Record<string, unknown>)[c] ?? null);
    await db.raw(head + chunk.map(() => one).join(','), bindings as Knex.RawBinding[]);
  }
}
