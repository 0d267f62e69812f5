/**
 * `npm run bench`: the performance goals of the product, each measured against a floor taken in
 * the same run on the same machine (the ratio is the figure that counts; these machines are
 * shared and noisy). Prints a table and writes bench/results.json.
 *
 *   BENCH_QUICK=1   tiny sizes, for the smoke test (no goal is judged)
 *   REMIT_TEST_PG_URL=postgres://…   also runs the dashboard, list and streamed export scenarios on PostgreSQL
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import knexFactory, { type Knex } from 'knex';
import { migrateLatest, openDatabase, formatTaipei } from '../core/index.js';
import { toCollectionStatus } from '../core/paymentStatuses.js';
import { type DbConfig } from '../core/db/connect.js';
import { importWorkbook, payments, seedDatabase, STORES, YEAR_START } from './data.js';
import { benchReconcile } from './reconcile.js';
import { benchReadsBesideImport, benchStreamingExport, benchStreamingExportPg, type BenchKit } from './streaming.js';
import { benchStreamingImport } from './import-streaming.js';
import { benchListBesideReconcile } from './reconcile-beside.js';
import { benchFirstRow } from './first-row.js';
import { benchListBesideStatement } from './statement-beside.js';
import { benchCloses } from './closes.js';

const TOP = resolve(import.meta.dirname, '..', '..');
/** the product as `npm run build` made it; the bench itself is compiled apart, into build/ */
const DIST = join(TOP, 'dist');
const BENCH = import.meta.dirname;
const QUICK = process.env.BENCH_QUICK === '1';
const PG_URL = process.env.REMIT_TEST_PG_URL;
const RUNS = QUICK ? 1 : 3;
/** BENCH_ONLY=import,export,reads,submit,bundles,reconcile,stream,stream-pg,stream-import,beside,reconcile-beside,statement-beside,first-row,closes runs some scenarios only (for profiling) */
const ONLY = process.env.BENCH_ONLY?.split(',');
/** BENCH_STREAM_ROWS=100000 runs the streamed export and import (8, 10) at these sizes only, comma-separated (the 1M runs take minutes) */
const STREAM_ROWS = process.env.BENCH_STREAM_ROWS?.split(',').map(Number);
const wanted = (name: string) => !ONLY || ONLY.includes(name);
const work = mkdtempSync(join(tmpdir(), 'remit-bench-'));

interface Row {
  scenario: string;
  measured: string;
  floor: string;
  ratio: number | null;
  goal: string;
  met: boolean | null;
}
const rows: Row[] = [];
const raw: Record<string, unknown> = {};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const mb = (x: number) => `${(x / 1024 / 1024).toFixed(0)} MB`;
const log = (s: string) => process.stderr.write(`${s}\n`);

function record(r: Row, data: Record<string, unknown>) {
  rows.push(r);
  raw[r.scenario] = { ...data, goal: r.goal, met: r.met };
  log(
    `  ${r.scenario}: ${r.measured} vs ${r.floor}${r.ratio !== null ? ` (${r.ratio.toFixed(2)}x)` : ''} ${r.met === null ? '' : r.met ? 'OK' : 'MISSED'}`,
  );
}

/** Runs bench/child.js in a fresh process; answers its wall time and peak memory. */
function child(mode: string, args: string[]): Promise<{ ms: number; maxRSS: number }> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [join(BENCH, 'child.js'), mode, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH },
    });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => {
      const m = /BENCH (\{.*\})/.exec(err);
      if (code !== 0 || !m) rej(new Error(`${mode} failed (${code}): ${err}`));
      else res(JSON.parse(m[1]));
    });
  });
}

async function freshSqlite(name: string, withStores = true): Promise<string> {
  const file = join(work, `${name}.sqlite`);
  rmSync(file, { force: true });
  const db = openDatabase({ client: 'sqlite', filename: file });
  await migrateLatest(db);
  if (withStores) await seedDatabase(db, 0);
  await db.destroy();
  return file;
}

// ---------------------------------------------------------------- 1. import
async function benchImport(n: number) {
  const file = join(work, `import-${n}.xlsx`);
  writeFileSync(file, importWorkbook(n));
  const ours: Array<{ ms: number; maxRSS: number }> = [];
  const floor: Array<{ ms: number; maxRSS: number }> = [];
  for (let i = 0; i <= RUNS; i++) {
    // run 0 is the warm-up (file cache, JIT of the toolchain); both sides start from an empty table
    const a = await child('import-cli', [file, await freshSqlite(`imp-a-${n}`)]);
    const b = await child('import-floor', [file, await freshSqlite(`imp-b-${n}`)]);
    if (i > 0) {
      ours.push(a);
      floor.push(b);
    }
  }
  const o = median(ours.map((x) => x.ms));
  const f = median(floor.map((x) => x.ms));
  const rss = Math.max(...ours.map((x) => x.maxRSS));
  const ratio = o / f;
  record(
    {
      scenario: `1. import ${n.toLocaleString('en')} rows (remit import)`,
      measured: `${ms(o)}, peak ${mb(rss)}`,
      floor: ms(f),
      ratio,
      goal: n >= 100_000 ? '≤ 1.5x, ≤ 600 MB' : 'linear (see 100k)',
      met: QUICK ? null : n >= 100_000 ? ratio <= 1.5 && rss <= 600 * 1024 * 1024 : null,
    },
    { rows: n, ours, floor },
  );
  return o;
}

// ---------------------------------------------------------------- 2. export
async function benchExport(n: number) {
  const dbFile = await freshSqlite(`export-${n}`, false);
  const db = openDatabase({ client: 'sqlite', filename: dbFile });
  const storeIds = await seedDatabase(db, n, 11);
  // The floor's rows: the same table, already in memory, as the export writes them.
  const stores = ((await db('stores').select('*')) as Array<{ id: number; name: string; code: string }>).map((s) => ({
    ...s,
    id: Number(s.id),
  }));
  const all = (await db('payments').select('*').orderBy('paid_at', 'desc')) as Array<Record<string, any>>;
  await db.destroy();
  const table: unknown[][] = [['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店', '點收狀態']];
  for (const p of all) {
    const s = stores.find((x) => x.id === Number(p.store_id))!;
    table.push([
      formatTaipei(Number(p.paid_at), { dateOnly: true }),
      p.last_five,
      formatTaipei(Number(p.paid_at)),
      Number(p.amount),
      p.note,
      `${s.name} (${s.code})`,
      toCollectionStatus(p.status),
    ]);
  }
  const rowsFile = join(work, `export-rows-${n}.json`);
  writeFileSync(rowsFile, JSON.stringify(table));
  void storeIds;
  const ours: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const a = await child('export-cli', [dbFile, join(work, `ours-${n}.xlsx`)]);
    const b = await child('export-floor', [rowsFile, join(work, `floor-${n}.xlsx`)]);
    if (i > 0) {
      ours.push(a.ms);
      floor.push(b.ms);
    }
  }
  const o = median(ours);
  const f = median(floor);
  record(
    {
      scenario: `2. export ${n.toLocaleString('en')} rows (remit export)`,
      measured: ms(o),
      floor: ms(f),
      ratio: o / f,
      goal: '≤ 1.5x',
      met: QUICK ? null : o / f <= 1.5,
    },
    { rows: n, ours, floor },
  );
}

// ---------------------------------------------------------------- server helpers
interface Served {
  url: string;
  token: string;
  stop(): Promise<void>;
}

function serve(env: Record<string, string>, args: string[] = []): Promise<Served> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [join(DIST, 'cli', 'main.js'), ...args, 'serve', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', REMIT_ADMIN_PASSWORD: 'bench-admin-pw', REMIT_BCRYPT_COST: '10', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdout.on('data', async (d) => {
      out += d;
      const m = /已啟動：(http:\/\/\S+)/.exec(out);
      if (!m || out.includes('__seen__')) return;
      out += '__seen__';
      const url = m[1];
      const login = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'bench-admin-pw' }),
      });
      const { token } = (await login.json()) as { token: string };
      res({ url, token, stop: () => new Promise((r) => (p.once('exit', () => r()), p.kill('SIGTERM'))) });
    });
    p.on('exit', (code) => code && rej(new Error(`serve exited ${code}: ${err}`)));
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

// ---------------------------------------------------------------- 3 and 4. dashboard and list at growing sizes
async function benchReads(kind: 'SQLite' | 'PostgreSQL', sizes: number[]) {
  let config: DbConfig;
  let env: Record<string, string>;
  let args: string[] = [];
  let cleanup = async () => {};
  if (kind === 'PostgreSQL') {
    const schema = `remit_bench_${process.pid}`;
    const admin = knexFactory({ client: 'pg', connection: PG_URL });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.raw('create schema ??', [schema]);
    await admin.destroy();
    config = { client: 'pg', connectionString: PG_URL!, searchPath: schema };
    const url = `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    env = { DATABASE_URL: url, REMIT_JWT_SECRET: 'b7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru', HOST: '127.0.0.1' };
    cleanup = async () => {
      const a = knexFactory({ client: 'pg', connection: PG_URL });
      await a.raw('drop schema if exists ?? cascade', [schema]);
      await a.destroy();
    };
  } else {
    const file = join(work, 'reads.sqlite');
    rmSync(file, { force: true });
    config = { client: 'sqlite', filename: file };
    env = {};
    args = ['--db', file];
  }
  const db: Knex = openDatabase(config);
  await migrateLatest(db);
  await seedDatabase(db, 0);
  const server = await serve(env, args);
  const auth = { authorization: `Bearer ${server.token}` };
  const storeIds = ((await db('stores').select('id').orderBy('id')) as Array<{ id: number }>).map((s) => Number(s.id));
  let have = 0;
  const listP99: number[] = [];
  try {
    for (const [i, n] of sizes.entries()) {
      await seedDatabase(db, n - have, 100 + i);
      have = n;
      // A settled table, as autovacuum leaves it: statistics, and the visibility map that lets
      // counts be answered from the index alone.
      if (kind === 'PostgreSQL') await db.raw('vacuum analyze');
      else await db.raw('pragma optimize');

      // 3. the dashboard: SQL aggregation over HTTP versus every row loaded and summed in JS
      const summary = () => fetch(`${server.url}/api/stats/summary`, { headers: auth }).then((r) => r.json());
      const inJs = async () => {
        const all = (await db('payments').select('store_id', 'status', 'amount')) as Array<{
          store_id: number;
          status: string;
          amount: number;
        }>;
        const by = new Map<number, { n: number; amount: number; ok: number; pending: number; failed: number }>();
        for (const p of all) {
          const s = by.get(Number(p.store_id)) ?? { n: 0, amount: 0, ok: 0, pending: 0, failed: 0 };
          s.n++;
          s.amount += Number(p.amount);
          if (p.status === '已入帳') s.ok++;
          else if (p.status === '未確認') s.pending++;
          else s.failed++;
          by.set(Number(p.store_id), s);
        }
        return by;
      };
      await summary();
      const ours: number[] = [];
      for (let r = 0; r < Math.max(RUNS, 5); r++) ours.push(await timed(summary));
      const floorRuns: number[] = [];
      await inJs();
      for (let r = 0; r < RUNS; r++) floorRuns.push(await timed(inJs));
      const o = median(ours);
      const f = median(floorRuns);
      const big = n >= 1_000_000;
      record(
        {
          scenario: `3. dashboard at ${n.toLocaleString('en')} payments (${kind})`,
          measured: ms(o),
          floor: `${ms(f)} (load all, sum in JS)`,
          ratio: f / o,
          goal: big ? (kind === 'SQLite' ? '≥ 20x faster, < 300 ms' : '≥ 20x faster') : 'context',
          met: QUICK || !big ? null : f / o >= 20 && (kind !== 'SQLite' || o < 300),
        },
        { rows: n, ours, floor: floorRuns },
      );

      // 4. one page of the list with status + store + a month of dates, sorted, with the total
      const r = (await import('./data.js')).rng(5);
      const page = () => {
        const start = YEAR_START + Math.floor(r() * 330) * 86_400_000;
        const from = new Date(start + 8 * 3600_000).toISOString().slice(0, 10);
        const to = new Date(start + 8 * 3600_000 + 30 * 86_400_000).toISOString().slice(0, 10);
        const filter = {
          status: ['未確認', '已入帳', '未入帳'][Math.floor(r() * 3)],
          store_id: storeIds[Math.floor(r() * storeIds.length)],
          paid_at_gte: from,
          paid_at_lte: to,
        };
        const q = `sort=${encodeURIComponent('["paid_at","DESC"]')}&range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`;
        return fetch(`${server.url}/api/payments?${q}`, { headers: auth }).then(async (res) => {
          if (!res.headers.get('content-range')) throw new Error('no Content-Range');
          await res.arrayBuffer();
        });
      };
      for (let w = 0; w < 20; w++) await page();
      const lat: number[] = [];
      for (let k = 0; k < (QUICK ? 30 : 300); k++) lat.push(await timed(page));
      const p99 = pct(lat, 99);
      listP99.push(p99);
      const flat = listP99.length > 1 ? p99 / listP99[0] : 1;
      record(
        {
          scenario: `4. list page at ${n.toLocaleString('en')} payments (${kind})`,
          measured: `p99 ${ms(p99)}, p50 ${ms(pct(lat, 50))}`,
          floor: listP99.length > 1 ? `p99 at ${sizes[0].toLocaleString('en')}: ${ms(listP99[0])}` : '-',
          ratio: listP99.length > 1 ? flat : null,
          goal: big ? 'p99 < 50 ms, flat' : 'p99 < 50 ms',
          met: QUICK ? null : p99 < 50 && (!big || p99 <= Math.max(listP99[0] * 2, listP99[0] + 5)),
        },
        { rows: n, latencies: { p50: pct(lat, 50), p90: pct(lat, 90), p99 } },
      );
    }
  } finally {
    await server.stop();
    await db.destroy();
    await cleanup();
  }
}

// ---------------------------------------------------------------- 5. concurrent submissions
/**
 * 50 keep-alive clients posting payments, each a different one. A warm-up by time finds the rate; the measured run
 * is then a fixed number of requests (about `seconds` worth), so every request sent is answered
 * and the rows written can be matched against the 201s exactly.
 */
async function cannon(
  url: string,
  headers: Record<string, string>,
  body: () => string,
  seconds: number,
  beforeMeasured: () => Promise<void> = async () => {},
) {
  // each request its own body (setupRequest): the same payment sent twice is a possible duplicate (409)
  const opts = {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ method: 'POST', setupRequest: (req: Record<string, unknown>) => ({ ...req, body: body() }) }],
    connections: 50,
    pipelining: 1,
  };
  const run = (extra: Record<string, number>) =>
    new Promise<autocannon.Result>((res, rej) =>
      autocannon({ ...opts, ...extra }, (err, result) => (err ? rej(err) : res(result))),
    );
  const warm = await run({ duration: 2 });
  await new Promise((r) => setTimeout(r, 500)); // the warm-up's last answers land
  await beforeMeasured();
  const started = performance.now();
  const result = await run({ amount: Math.max(500, Math.round(warm.requests.average * seconds)) });
  const elapsed = (performance.now() - started) / 1000;
  return { ...result, rps: (result['2xx'] + result.non2xx) / elapsed };
}

async function benchSubmit() {
  const seconds = QUICK ? 2 : 10;
  // A different payment each time (last five and amount), as a shop's clerks send them.
  let sent = 0;
  const body = () => {
    const n = sent++;
    return JSON.stringify({
      last_five: String(n % 100_000).padStart(5, '0'),
      paid_at: '2026-11-18T09:15',
      amount: 100 + Math.floor(n / 100_000),
      note: '壓測',
      store_id: 1,
    });
  };

  const floorDb = await freshSqlite('floor-post');
  const floor = await new Promise<{ url: string; stop: () => Promise<void> }>((res, rej) => {
    const p = spawn(process.execPath, [join(BENCH, 'floor-server.js'), floorDb], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    p.stdout.on('data', (d) => {
      const m = /LISTENING (\S+)/.exec(String(d));
      if (m) res({ url: m[1], stop: () => new Promise((r) => (p.once('exit', () => r()), p.kill('SIGTERM'))) });
    });
    p.on('exit', (c) => c && rej(new Error(`floor server exited ${c}`)));
  });
  const f = await cannon(`${floor.url}/payments`, {}, body, seconds);
  await floor.stop();

  const dbFile = await freshSqlite('ours-post');
  const server = await serve({}, ['--db', dbFile]);
  const db = openDatabase({ client: 'sqlite', filename: dbFile });
  let before = 0;
  const o = await cannon(
    `${server.url}/api/payments`,
    { authorization: `Bearer ${server.token}` },
    body,
    seconds,
    async () => {
      before = Number(((await db('payments').count({ n: '*' }).first()) as any).n);
    },
  );
  await server.stop();
  const after = Number(((await db('payments').count({ n: '*' }).first()) as any).n);
  await db.destroy();
  const ok = o['2xx'];
  const errors = o.errors + o.timeouts + o.non2xx;
  const ratio = o.rps / f.rps;
  record(
    {
      scenario: '5. POST /api/payments, 50 clients',
      measured: `${o.rps.toFixed(0)} req/s, ${errors} errors, ${after - before} rows for ${ok} 201s`,
      floor: `${f.rps.toFixed(0)} req/s (bare Koa + insert)`,
      ratio,
      goal: '≥ 0.5x, no errors, rows = 201s',
      met: QUICK ? null : ratio >= 0.5 && errors === 0 && after - before === ok,
    },
    {
      ours: { rps: o.rps, ok, errors, rows: after - before, p99: o.latency.p99 },
      floor: { rps: f.rps, p99: f.latency.p99 },
    },
  );
}

// ---------------------------------------------------------------- 6. bundles
function benchBundles() {
  const root = join(DIST, 'admin');
  const initial = (html: string) => {
    const text = readFileSync(join(root, html), 'utf8');
    const files = [...text.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    return { files, gzip: files.reduce((n, f) => n + gzipSync(readFileSync(join(root, f.slice(1)))).length, 0) };
  };
  const form = initial('index.html');
  const office = initial('admin.html');
  const xlsxInitial = [...form.files, ...office.files].some((f) =>
    readFileSync(join(root, f.slice(1)), 'utf8').includes('SheetJS'),
  );
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB gzip`;
  record(
    {
      scenario: '6a. submission page JavaScript',
      measured: kb(form.gzip),
      floor: '-',
      ratio: null,
      goal: '≤ 150 KB gzip',
      met: form.gzip <= 150 * 1024,
    },
    form,
  );
  record(
    {
      scenario: '6b. back office initial JavaScript',
      measured: kb(office.gzip),
      floor: '-',
      ratio: null,
      goal: '≤ 500 KB gzip',
      met: office.gzip <= 500 * 1024,
    },
    office,
  );
  record(
    {
      scenario: '6c. spreadsheet library on first load',
      measured: xlsxInitial ? 'loaded' : 'not loaded (on demand)',
      floor: '-',
      ratio: null,
      goal: 'only when importing',
      met: !xlsxInitial,
    },
    { xlsxInitial },
  );
}

// ---------------------------------------------------------------- main
const startedAt = Date.now();
log(`remit bench${QUICK ? ' (quick)' : ''}: work in ${work}`);
try {
  if (wanted('bundles')) benchBundles();
  if (wanted('import')) for (const n of QUICK ? [500] : [10_000, 100_000]) await benchImport(n);
  if (wanted('export')) await benchExport(QUICK ? 500 : 100_000);
  if (wanted('reads')) await benchReads('SQLite', QUICK ? [1_000, 5_000] : [10_000, 100_000, 1_000_000]);
  if (wanted('reads') && PG_URL) await benchReads('PostgreSQL', QUICK ? [1_000, 5_000] : [10_000, 100_000, 1_000_000]);
  if (wanted('submit')) await benchSubmit();
  if (wanted('reconcile')) await benchReconcile(record, QUICK, RUNS);
  const kit: BenchKit = { work, quick: QUICK, runs: QUICK ? 1 : 2, record, child, serve };
  if (wanted('stream'))
    await benchStreamingExport(kit, STREAM_ROWS ?? (QUICK ? [2_000, 10_000] : [100_000, 1_000_000]));
  if ((wanted('stream') || wanted('stream-pg')) && PG_URL)
    await benchStreamingExportPg(kit, PG_URL, QUICK ? [2_000, 10_000] : [100_000, 1_000_000]);
  if (wanted('stream-import'))
    await benchStreamingImport(kit, STREAM_ROWS ?? (QUICK ? [2_000, 10_000] : [100_000, 1_000_000]));
  if (wanted('beside')) await benchReadsBesideImport(kit, QUICK ? 2_000 : 100_000);
  if (wanted('reconcile-beside')) await benchListBesideReconcile(kit, QUICK ? 1 : 12);
  if (wanted('statement-beside')) await benchListBesideStatement(kit);
  if (wanted('first-row')) await benchFirstRow(kit);
  if (wanted('closes')) await benchCloses(kit, 'SQLite');
  if (wanted('closes') && PG_URL) await benchCloses(kit, 'PostgreSQL', PG_URL);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const head = ['scenario', 'measured', 'floor', 'ratio', 'goal', 'met'];
const lines = rows.map((r) => [
  r.scenario,
  r.measured,
  r.floor,
  r.ratio === null ? '' : `${r.ratio.toFixed(2)}x`,
  r.goal,
  r.met === null ? '' : r.met ? 'yes' : 'NO',
]);
const table = [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...lines.map((l) => `| ${l.join(' | ')} |`),
].join('\n');
console.log(table);
const seconds = (Date.now() - startedAt) / 1000;
console.log(
  `\n${rows.filter((r) => r.met === false).length} goals missed; ${seconds.toFixed(0)} s; node ${process.version}`,
);
mkdirSync(join(TOP, 'bench'), { recursive: true });
if (!QUICK)
  writeFileSync(
    join(TOP, 'bench', 'results.json'),
    `${JSON.stringify(ONLY ? mergedResults() : { at: new Date().toISOString(), seconds, node: process.version, rows, raw }, null, 2)}\n`,
  );

/**
 * A run of some scenarios (BENCH_ONLY) replaces those scenarios' rows in results.json and keeps
 * the others' from the last run, each row saying when it was measured.
 */
function mergedResults() {
  const file = join(TOP, 'bench', 'results.json');
  const scenarioOf = (s: string) => /^(\d+)/.exec(s)?.[1] ?? s;
  let old: {
    at?: string;
    seconds?: number;
    node?: string;
    rows?: Array<Row & { at?: string }>;
    raw?: Record<string, unknown>;
  } = {};
  try {
    old = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    /* none yet */
  }
  const now = new Date().toISOString();
  const ran = new Set(rows.map((r) => scenarioOf(r.scenario)));
  const kept = (old.rows ?? [])
    .filter((r) => !ran.has(scenarioOf(r.scenario)))
    .map((r) => ({ ...r, at: r.at ?? old.at }));
  const merged = [...kept, ...rows.map((r) => ({ ...r, at: now }))].sort(
    (a, b) => Number(scenarioOf(a.scenario)) - Number(scenarioOf(b.scenario)) || a.scenario.localeCompare(b.scenario),
  );
  return {
    at: old.at ?? now,
    seconds: old.seconds ?? seconds,
    node: process.version,
    partial: { at: now, only: ONLY, seconds },
    rows: merged,
    raw: { ...(old.raw ?? {}), ...raw },
  };
}
void payments;
void STORES;
