/**
 * The streamed scenarios, called by run.ts: streamed export in every format at 100 000 and 1 000 000
 * rows against `sqlite3 -csv` writing the same rows (the floor), with peak RSS of the child process;
 * and list pages read beside `remit import` of 100 000 rows (read pool), against the same list at rest.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import { migrateLatest, openDatabase } from '../core/index.js';
import { importWorkbook, seedDatabaseFast } from './data.js';

export interface BenchKit {
  work: string;
  quick: boolean;
  runs: number;
  record(
    r: { scenario: string; measured: string; floor: string; ratio: number | null; goal: string; met: boolean | null },
    data: Record<string, unknown>,
  ): void;
  child(mode: string, args: string[]): Promise<{ ms: number; maxRSS: number }>;
  serve(env: Record<string, string>, args: string[]): Promise<{ url: string; token: string; stop(): Promise<void> }>;
}

const MB = 1024 * 1024;

/** A page of 25 payments from a running server, timed from the request to its last byte (ms). */
export function timedListPage(server: { url: string; token: string }, query: string): () => Promise<number> {
  return async () => {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/payments?range=${encodeURIComponent('[0,24]')}&${query}`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`list ${res.status}`);
    return performance.now() - t;
  };
}

/** The page's times with nothing else running: the floor a scenario is measured against (after 20 to warm up). */
export async function alone(page: () => Promise<number>, n: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await page();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await page());
  return times;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);

/** The floor: the sqlite3 shell writes the table as CSV (no formatting, no zip). */
function sqliteCsv(db: string, out: string): Promise<number> {
  return new Promise((res, rej) => {
    const started = performance.now();
    const p = spawn(
      'sqlite3',
      [
        '-csv',
        db,
        'select paid_at, last_five, paid_at, amount, note, store_id, status from payments order by paid_at desc, uuid desc',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    p.stdout.pipe(createWriteStream(out));
    p.on('error', rej);
    p.on('close', (code) => (code === 0 ? res(performance.now() - started) : rej(new Error(`sqlite3 exited ${code}`))));
  });
}

/** The floor on PostgreSQL: psql copies the same rows out as CSV (no formatting, no zip). */
function psqlCsv(url: string, out: string): Promise<number> {
  return new Promise((res, rej) => {
    const started = performance.now();
    const sql =
      '\\copy (select paid_at, last_five, paid_at, amount, note, store_id, status from payments order by paid_at desc, uuid desc) to stdout with csv';
    const p = spawn('psql', ['-X', '-q', url, '-c', sql], { stdio: ['ignore', 'pipe', 'inherit'] });
    p.stdout.pipe(createWriteStream(out));
    p.on('error', rej);
    p.on('close', (code) => (code === 0 ? res(performance.now() - started) : rej(new Error(`psql exited ${code}`))));
  });
}

/**
 * The same streamed export from PostgreSQL (keyset pages, as on SQLite), at each size against
 * psql's COPY of the same rows, with peak memory: the export's cost grows in time, not memory.
 */
export async function benchStreamingExportPg(kit: BenchKit, pgUrl: string, sizes: number[]): Promise<void> {
  const schema = `remit_bench_export_${process.pid}`;
  const admin = knexFactory({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 1 } });
  await admin.raw('drop schema if exists ?? cascade', [schema]);
  await admin.raw('create schema ??', [schema]);
  const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const k = openDatabase({ client: 'pg', connectionString: pgUrl, searchPath: schema });
  const peaks: Record<string, number[]> = { xlsx: [], csv: [], json: [] };
  let have = 0;
  try {
    await migrateLatest(k);
    for (const n of sizes) {
      await seedDatabaseFast(k, n - have, `p${n}`);
      have = n;
      await k.raw('vacuum analyze payments');
      const floorRuns: number[] = [];
      for (let i = 0; i <= kit.runs; i++) {
        const t = await psqlCsv(url, join(kit.work, 'floor-pg.csv'));
        if (i > 0) floorRuns.push(t);
      }
      const floor = median(floorRuns);
      for (const format of ['csv', 'xlsx', 'json'] as const) {
        const runs: Array<{ ms: number; maxRSS: number }> = [];
        for (let i = 0; i < kit.runs; i++)
          runs.push(await kit.child('export-cli-pg', [url, join(kit.work, `stream-pg.${format}`)]));
        const t = median(runs.map((r) => r.ms));
        const rss = Math.max(...runs.map((r) => r.maxRSS));
        peaks[format].push(rss);
        const limit = format === 'csv' ? 3 : format === 'xlsx' ? 10 : null;
        kit.record(
          {
            scenario: `8. export ${n.toLocaleString('en')} rows as ${format} (streamed, PostgreSQL)`,
            measured: `${fmt(t)}, peak ${(rss / MB).toFixed(0)} MB${peaks[format].length > 1 ? ` (at ${sizes[0].toLocaleString('en')}: ${(peaks[format][0] / MB).toFixed(0)} MB)` : ''}`,
            floor: `${fmt(floor)} (psql \\copy csv)`,
            ratio: t / floor,
            goal: `${limit ? `≤ ${limit}x, ` : ''}< 300 MB, flat`,
            met:
              !kit.quick && n >= 100_000
                ? (limit === null || t / floor <= limit) && rss < 300 * MB && rss <= peaks[format][0] * 1.5
                : null,
          },
          { rows: n, format, runs, floor: floorRuns },
        );
      }
    }
  } finally {
    await k.destroy();
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.destroy();
  }
}

export async function benchStreamingExport(kit: BenchKit, sizes: number[]): Promise<void> {
  const db = join(kit.work, 'stream-export.sqlite');
  const k = openDatabase({ client: 'sqlite', filename: db });
  await migrateLatest(k);
  const peaks: Record<string, number[]> = { xlsx: [], csv: [], json: [] };
  let have = 0;
  try {
    for (const n of sizes) {
      await seedDatabaseFast(k, n - have, `s${n}`);
      have = n;
      await k.raw('pragma wal_checkpoint(truncate)');
      const floorRuns: number[] = [];
      for (let i = 0; i <= kit.runs; i++) {
        const t = await sqliteCsv(db, join(kit.work, 'floor.csv'));
        if (i > 0) floorRuns.push(t);
      }
      const floor = median(floorRuns);
      for (const format of ['csv', 'xlsx', 'json'] as const) {
        const runs: Array<{ ms: number; maxRSS: number }> = [];
        for (let i = 0; i < kit.runs; i++)
          runs.push(await kit.child('export-cli', [db, join(kit.work, `stream.${format}`)]));
        const t = median(runs.map((r) => r.ms));
        const rss = Math.max(...runs.map((r) => r.maxRSS));
        peaks[format].push(rss);
        const limit = format === 'csv' ? 3 : format === 'xlsx' ? 10 : null;
        const judged = !kit.quick && n >= 100_000;
        kit.record(
          {
            scenario: `8. export ${n.toLocaleString('en')} rows as ${format} (streamed)`,
            measured: `${fmt(t)}, peak ${(rss / MB).toFixed(0)} MB${peaks[format].length > 1 ? ` (at ${sizes[0].toLocaleString('en')}: ${(peaks[format][0] / MB).toFixed(0)} MB)` : ''}`,
            floor: `${fmt(floor)} (sqlite3 -csv)`,
            ratio: t / floor,
            goal: `${limit ? `≤ ${limit}x, ` : ''}< 300 MB, flat`,
            met: judged
              ? (limit === null || t / floor <= limit) && rss < 300 * MB && rss <= peaks[format][0] * 1.5
              : null,
          },
          { rows: n, format, runs, floor: floorRuns },
        );
      }
    }
  } finally {
    await k.destroy();
  }
}

/** List pages while `remit import` writes 100 000 rows into the same database, against the same pages at rest. */
export async function benchReadsBesideImport(kit: BenchKit, n: number): Promise<void> {
  const db = join(kit.work, 'beside.sqlite');
  const k = openDatabase({ client: 'sqlite', filename: db });
  await migrateLatest(k);
  await seedDatabaseFast(k, n, 'base');
  await k.destroy();
  const file = join(kit.work, `beside-${n}.xlsx`);
  writeFileSync(file, importWorkbook(n, 99));
  const server = await kit.serve({}, ['--db', db]);
  const page = timedListPage(server, `filter=${encodeURIComponent(JSON.stringify({ status: '已入帳' }))}`);
  try {
    const rest = await alone(page, kit.quick ? 30 : 300);
    const during: number[] = [];
    let done = false;
    const importing = kit.child('import-cli', [file, db]).finally(() => (done = true));
    while (!done) during.push(await page());
    const imp = await importing;
    const p99 = pct(during, 99);
    kit.record(
      {
        scenario: `9. list p99 during remit import of ${n.toLocaleString('en')} rows (SQLite)`,
        measured: `p99 ${fmt(p99)} over ${during.length} pages (import ${fmt(imp.ms)})`,
        floor: `p99 ${fmt(pct(rest, 99))} at rest`,
        ratio: p99 / pct(rest, 99),
        goal: 'p99 < 50 ms',
        met: kit.quick ? null : p99 < 50,
      },
      {
        rows: n,
        rest: { p50: pct(rest, 50), p99: pct(rest, 99) },
        during: { p50: pct(during, 50), p99, pages: during.length },
        importMs: imp.ms,
      },
    );
  } finally {
    await server.stop();
  }
}
