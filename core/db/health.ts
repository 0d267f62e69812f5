// What `/api/health` tells a load balancer or an operator: does the database answer, is its schema this program's,
// is there disk left where the data lives. Each part is `{ ok, …figures }`; a new part is one more entry.
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Knex } from 'knex';
import { knownMigrationNames } from './migrate.js';

interface HealthPart {
  ok: boolean;
  [figure: string]: unknown;
}

interface HealthReport {
  ok: boolean;
  /** the parts that are not ok, by name: empty when all is well */
  failing: string[];
  [part: string]: HealthPart | boolean | string[];
}

export interface HealthOptions {
  /** the folder whose disk is watched (the SQLite file's) */
  dataDir: string;
  /** low disk: under both of these (a small disk by its share, a large one by the bytes) */
  minFreeBytes?: number;
  minFreeShare?: number;
  /** the migrations and the disk change rarely: read again after this long, so a flood of checks costs nothing */
  cacheMs?: number;
  /** a database that has not answered by then is reported down */
  timeoutMs?: number;
  /** when the newest backup was taken (ms), null before the first: its age is reported, never a failure */
  lastBackup?: () => Promise<number | null>;
}

/** How old the newest backup is: a figure for an operator's monitor. A load balancer must not take an instance
 * out for it, so it is always ok. */
async function backup(lastBackup: () => Promise<number | null>): Promise<HealthPart> {
  const at = await lastBackup();
  if (at === null) return { ok: true, last_at: null, age_hours: null };
  return { ok: true, last_at: new Date(at).toISOString(), age_hours: Math.floor((Date.now() - at) / 360_000) / 10 };
}

const HEALTH_DEFAULTS = {
  minFreeBytes: 1024 ** 3,
  minFreeShare: 0.05,
  cacheMs: 5_000,
  timeoutMs: 3_000,
} as const;

/** A check run once for every caller waiting on it, its answer then kept `ms` (never rejects: each part catches). */
function shared<T>(run: () => Promise<T>, ms: number): () => Promise<T> {
  let current: Promise<T> | undefined;
  let running = false;
  let settledAt = 0;
  return () => {
    if (current && (running || Date.now() - settledAt < ms)) return current;
    running = true;
    current = run().finally(() => {
      running = false;
      settledAt = Date.now();
    });
    return current;
  };
}

function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function database(db: Knex, timeoutMs: number): Promise<HealthPart> {
  const started = performance.now();
  try {
    await withinTime(db.raw('select 1'), timeoutMs);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch {
    // the driver's words may name a host or a user: the answer says only that it failed
    return { ok: false };
  }
}

/** Current: every migration this program knows is applied, and none it does not know (a newer program's). */
async function migrations(db: Knex): Promise<HealthPart> {
  const known = knownMigrationNames();
  const applied = (await db.schema.hasTable('knex_migrations'))
    ? ((await db('knex_migrations').select('name')) as Array<{ name: string }>).map((r) => r.name)
    : [];
  const pending = known.filter((n) => !applied.includes(n)).length;
  const unknown = applied.filter((n) => !known.includes(n)).length;
  return { ok: pending === 0 && unknown === 0, pending, unknown };
}

/** The nearest folder that exists: ./data may not be made yet beside PostgreSQL, the disk is the same. */
async function diskOf(dir: string) {
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      return await statfs(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw err;
    }
  }
}

async function disk(opts: Required<Omit<HealthOptions, 'lastBackup'>>): Promise<HealthPart> {
  try {
    const s = await diskOf(opts.dataDir);
    const free = s.bavail * s.bsize;
    const share = s.blocks > 0 ? s.bavail / s.blocks : 1;
    const low = free < opts.minFreeBytes && share < opts.minFreeShare;
    return { ok: !low, free_mb: Math.floor(free / 1024 ** 2), free_percent: Math.floor(share * 1000) / 10 };
  } catch {
    return { ok: false };
  }
}

/** The check `/api/health` calls: the database every time (one query for all callers at once), the rest cached. */
export function healthCheck(db: Knex, options: HealthOptions): () => Promise<HealthReport> {
  const opts = { ...HEALTH_DEFAULTS, ...options };
  const ping = shared(() => database(db, opts.timeoutMs), 0);
  const schema = shared(
    () => withinTime(migrations(db), opts.timeoutMs).catch((): HealthPart => ({ ok: false })),
    opts.cacheMs,
  );
  const space = shared(() => disk(opts), opts.cacheMs);
  const { lastBackup } = options;
  const newest = lastBackup
    ? shared(
        () => withinTime(backup(lastBackup), opts.timeoutMs).catch((): HealthPart => ({ ok: true, last_at: null })),
        opts.cacheMs,
      )
    : null;
  return async () => {
    const [database, free] = await Promise.all([ping(), space()]);
    const parts: Record<string, HealthPart> = { database };
    // a database that does not answer has no schema to read: it is named once, as down
    if (database.ok) parts.migrations = await schema();
    parts.disk = free;
    if (database.ok && newest) parts.backup = await newest();
    const failing = Object.keys(parts).filter((name) => !parts[name].ok);
    return { ok: failing.length === 0, failing, ...parts };
  };
}
