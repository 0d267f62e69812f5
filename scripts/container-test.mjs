#!/usr/bin/env node
/**
 * npm run test:container (CI runs it after the soak, outside npm test): the real Containerfile built with buildah
 * on a base made here from Debian's packages (scripts/container-base.sh: no image registry is reachable here), then
 * the image checked and run as production runs it, its own entrypoint and command:
 * - the image holds no test, no bench, no source map of the server, no secret, every package the server imports,
 *   and runs as a user other than root;
 * - on SQLite: healthy, the first admin signs in (REMIT_ADMIN_PASSWORD), a payment is recorded; stopped (SIGTERM)
 *   and started again in the same working container, the payment and the session are still there (/data kept
 *   the database and its signing secret); the image's HEALTHCHECK passes while it serves and fails once stopped;
 * - the same on PostgreSQL (DATABASE_URL), in a database of its own, dropped after.
 * podman and docker cannot start containers on these machines; `buildah run --isolation chroot` shares the
 * machine's network, so the server listens on a free port of its own. Ends with "N passed, N failed"; exits 1 on
 * any failure.
 *
 *   REMIT_CONTAINER_PG_URL  PostgreSQL server to use (default postgres://postgres@127.0.0.1:5432)
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import pg from 'pg';

const TOP = resolve(import.meta.dirname, '..');
const IMAGE = 'localhost/remit:container-test';
const PG_SERVER = (process.env.REMIT_CONTAINER_PG_URL || 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '');
const PASSWORD = `Ctr-${randomBytes(8).toString('hex')}`;
const OUT = join(TOP, 'test-output');
const results = [];
const cleanups = [];
const since = Date.now();
const seconds = (from) => `${Math.round((Date.now() - from) / 1000)} s`;

function check(name, ok, detail = '') {
  results.push(ok);
  console.log(`${ok ? '✓' : '✗'} ${name}${ok || !detail ? '' : `\n    ${detail}`}`);
}

/** A buildah command that must succeed; its output. */
function buildah(...args) {
  const r = spawnSync('buildah', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`buildah ${args.join(' ')}: ${r.error?.message ?? r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Runs a command with its output in a log file; on failure the log's end says why. */
function logged(cmd, args, logFile) {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(logFile);
    const child = spawn(cmd, args, { cwd: TOP, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', reject);
    child.on('close', (code) => {
      log.end(() => {
        if (code === 0) return resolvePromise(readFileSync(logFile, 'utf8'));
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
        reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}; the end of ${logFile}:\n${tail}`));
      });
    });
  });
}

function freePort() {
  return new Promise((resolvePromise) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePromise(port));
    });
  });
}

/** The processes below `pid`, read from /proc (buildah run → buildah-chroot-exec → node). */
function descendants(pid) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat);
      parent.set(Number(name), { ppid: Number(rest.split(' ')[1]), comm });
    } catch {
      /* gone meanwhile */
    }
  }
  const below = [];
  const walk = (p) => {
    for (const [child, info] of parent)
      if (info.ppid === p) {
        below.push({ pid: child, comm: info.comm });
        walk(child);
      }
  };
  walk(pid);
  return below;
}

/** The image's own entrypoint and command, run in a working container with `env`. */
function serve(ctr, config, env) {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  const command = [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])];
  const child = spawn('buildah', ['run', '--isolation', 'chroot', ...envArgs, ctr, '--', ...command], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { child, out: '', err: '', port: Number(env.PORT) };
  child.stdout.on('data', (d) => (run.out += d));
  child.stderr.on('data', (d) => (run.err += d));
  run.exited = new Promise((done) => child.on('exit', (code) => done(code)));
  run.stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    const node = descendants(child.pid).find((p) => p.comm === 'node');
    // SIGTERM to the server itself, as `docker stop` sends it to process 1
    if (node) process.kill(node.pid, 'SIGTERM');
    else child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await run.exited;
    clearTimeout(late);
    return code;
  };
  cleanups.push(() => run.stop());
  return run;
}

async function waitHealthy(run) {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (run.child.exitCode !== null)
      throw new Error(`the server exited (${run.child.exitCode}):\n${run.out}\n${run.err}`);
    try {
      const res = await fetch(`http://127.0.0.1:${run.port}/api/health`);
      if (res.status === 200) return res.json();
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no healthy answer in 120 s:\n${run.out}\n${run.err}`);
}

async function call(run, method, path, { token, body } = {}) {
  const res = await fetch(`http://127.0.0.1:${run.port}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signIn(run) {
  const login = await call(run, 'POST', '/admin/login', { body: { username: 'admin', password: PASSWORD } });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${JSON.stringify(login.body)}`);
  return login.body.token;
}

/** Records a payment in the first store; the payment's number. */
async function recordPayment(label, run, token, amount) {
  const stores = await call(run, 'GET', '/stores', { token });
  const paid_at = new Date(Date.now() - 3_600_000).toISOString();
  const body = { last_five: '24680', paid_at, amount, note: '容器測試', store_id: stores.body[0].id };
  const created = await call(run, 'POST', '/payments', { token, body });
  check(`${label}: a payment is recorded (${created.status})`, created.status === 201, JSON.stringify(created.body));
  return created.body.uuid;
}

async function findsPayment(run, token, uuid) {
  const got = await call(run, 'GET', `/payments/${uuid}`, { token });
  return got.status === 200 && got.body.uuid === uuid;
}

function nonRoot(label, run) {
  const node = descendants(run.child.pid).find((p) => p.comm === 'node');
  const uids = node && /^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${node.pid}/status`, 'utf8'))?.[1].split(/\s+/);
  check(`${label}: the server runs as uid ${uids?.[0]}, not root`, !!uids && uids.every((u) => u !== '0'));
}

/** The image's HEALTHCHECK, run as the engine runs it: inside the container, with its environment. */
function healthcheck(ctr, config, port) {
  const test = config.Healthcheck?.Test ?? [];
  const argv = test[0] === 'CMD' ? test.slice(1) : ['/bin/sh', '-c', test[1]];
  const r = spawnSync('buildah', ['run', '--isolation', 'chroot', '--env', `PORT=${port}`, ctr, '--', ...argv]);
  return r.status;
}

/** Every file under `dir` whose path matches `re` (the image's own tree, read through its mount). */
function find(dir, re, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // lstat: a link (./data → /data) points into the image, not into this machine
    if (lstatSync(path).isDirectory()) find(path, re, out);
    if (re.test(path)) out.push(path);
  }
  return out;
}

async function buildImage() {
  mkdirSync(OUT, { recursive: true });
  let from = Date.now();
  const base = (await logged('bash', ['scripts/container-base.sh'], join(OUT, 'container-base.log')))
    .trim()
    .split('\n')
    .pop();
  console.log(`== base ${base} (${seconds(from)})`);
  from = Date.now();
  await logged(
    'buildah',
    ['bud', '--isolation', 'chroot', '--layers', '--format', 'docker', '--build-arg', `BASE=${base}`].concat([
      '-f',
      'Containerfile',
      '-t',
      IMAGE,
      '.',
    ]),
    join(OUT, 'container-build.log'),
  );
  console.log(`== built ${IMAGE} from the Containerfile (${seconds(from)}; log: test-output/container-build.log)`);
  return base;
}

// The packages the compiled server names, statically (`import … from 'x'`, `export … from 'x'`, `import 'x'`) or
// dynamically (`import('x')`), each imported in the image: a dev dependency the server uses would fail here.
const IMPORTS_CHECK = `
import { readdirSync, readFileSync } from 'node:fs';
const files = [];
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) {
  const p = d + '/' + e.name; if (e.isDirectory()) walk(p); else if (p.endsWith('.js')) files.push(p); } };
for (const d of ['core', 'http', 'cli', 'migrations']) walk('/app/dist/' + d);
const patterns = [/^(?:import|export)\\s[^;]*?\\sfrom\\s*'([^'.][^']*)'/gm, /^import\\s*'([^'.][^']*)'/gm, /\\bimport\\(\\s*'([^'.][^']*)'\\s*\\)/g];
const specs = new Set(['sqlite3', 'pg']); // the drivers knex loads by name
for (const f of files) for (const re of patterns) for (const m of readFileSync(f, 'utf8').matchAll(re))
  if (!m[1].startsWith('node:')) specs.add(m[1]);
const missing = [];
for (const s of specs) await import(s).catch((e) => missing.push(s + ': ' + e.code));
console.log(JSON.stringify({ specs: [...specs].sort(), missing }));
`;

/** What the image holds: nothing of the tests, the bench, the server's maps or any secret; all the server needs. */
function checkImage(ctr, config, base) {
  const root = buildah('mount', ctr);
  const app = join(root, 'app');
  check('the image holds no test/ and no bench/', !existsSync(join(app, 'test')) && !existsSync(join(app, 'bench')));
  const maps = find(join(app, 'dist'), /\.map$|\.test\.js$/);
  check('the image holds no source map or test of the server', maps.length === 0, maps.slice(0, 5).join(', '));
  const secrets = [...find(app, /\.jwt-secret$|\/\.env(\.|$)/), ...find(join(root, 'data'), /./)];
  check('the image holds no secret: no signing secret, no .env, /data empty', secrets.length === 0, secrets.join(', '));
  const env = (config.Env ?? []).map((e) => e.split('=')[0]);
  const leaked = env.filter((k) => /SECRET|PASSWORD|DATABASE_URL|TOKEN/.test(k));
  check('the image sets no secret in its environment', leaked.length === 0, leaked.join(', '));
  check(`the image runs as ${config.User}, not root`, !!config.User && !/^(root|0)(:|$)/.test(config.User));
  check('the image has a HEALTHCHECK on /api/health', /\/api\/health/.test(JSON.stringify(config.Healthcheck ?? {})));
  const layers = (image) => JSON.parse(JSON.parse(buildah('inspect', '--type', 'image', image)).Manifest).layers;
  const mb = (list) => Math.round(list.reduce((sum, l) => sum + l.size, 0) / 1e6);
  const all = layers(IMAGE);
  const own = all.slice(layers(base).length);
  console.log(`== image ${mb(all)} MB unpacked: the base's ${mb(all) - mb(own)} MB and remit's own ${mb(own)} MB`);
  buildah('umount', ctr);
  const r = spawnSync(
    'buildah',
    ['run', '--isolation', 'chroot', ctr, '--', 'node', '--input-type=module', '-e', IMPORTS_CHECK],
    {
      encoding: 'utf8',
    },
  );
  const found = r.status === 0 ? JSON.parse(r.stdout.trim().split('\n').pop()) : { specs: [], missing: [r.stderr] };
  check(
    `every package the server imports is in the image (${found.specs.length}: ${found.specs.join(', ')})`,
    found.specs.length > 0 && found.missing.length === 0,
    found.missing.join('; '),
  );
}

/** Two starts of one working container: what the first recorded, the second finds. */
async function twoStarts(label, ctr, config, env) {
  const port = await freePort();
  const first = serve(ctr, config, { ...env, PORT: String(port), REMIT_LOG: 'json' });
  const health = await waitHealthy(first);
  check(`${label}: /api/health answers 200 with every part ok`, health.ok === true && health.failing.length === 0);
  nonRoot(label, first);
  const token = await signIn(first);
  const uuid = await recordPayment(label, first, token, 4321);
  const line = await loggedLine(first, (l) => l.method === 'POST' && l.route === '/api/payments' && l.status === 201);
  check(`${label}: REMIT_LOG=json logged the payment as one JSON line`, !!line?.request_id, first.out);
  check(`${label}: the password appears in no log`, !(first.out + first.err).includes(PASSWORD));
  check(`${label}: stopped with SIGTERM, the server exits 0`, (await first.stop()) === 0, first.err);

  const second = serve(ctr, config, { ...env, PORT: String(port) });
  await waitHealthy(second);
  check(
    `${label}: started again, the session still opens (the signing secret was kept)`,
    (await call(second, 'GET', '/admin/me', { token })).status === 200,
  );
  check(`${label}: started again, the payment is there`, await findsPayment(second, token, uuid));
  check(`${label}: the image's HEALTHCHECK passes while the server answers`, healthcheck(ctr, config, port) === 0);
  check(`${label}: stopped again, exits 0`, (await second.stop()) === 0, second.err);
  check(`${label}: the HEALTHCHECK fails once the server is gone`, healthcheck(ctr, config, port) !== 0);
}

/** The server's line about a request, once written (it follows the answer; the pipe from the container may lag). */
async function loggedLine(run, match) {
  const until = Date.now() + 10_000;
  for (;;) {
    const line = run.out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find(match);
    if (line || Date.now() > until) return line;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** /data is the container's volume (buildah keeps it beside the container, as docker a named volume): read inside. */
function dataFiles(ctr) {
  const files = ['/data/remit.sqlite', '/data/remit.sqlite.jwt-secret'];
  const r = spawnSync('buildah', ['run', '--isolation', 'chroot', ctr, '--', 'stat', '-c', '%a %u', ...files], {
    encoding: 'utf8',
  });
  const modes = r.stdout.trim().split('\n');
  check(
    `the database and its signing secret are in /data, owner-only, owned by the server user (${modes.join(', ')})`,
    r.status === 0 && modes.length === 2 && modes.every((m) => /^600 [1-9]\d*$/.test(m)),
    r.stderr,
  );
}

async function withDatabase(fn) {
  const name = `remit_ctest_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${PG_SERVER}/postgres` });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    await fn(`${PG_SERVER}/${name}`);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function main() {
  const base = await buildImage();
  const config = JSON.parse(buildah('inspect', '--type', 'image', IMAGE)).Docker.config;
  const sqliteCtr = buildah('from', '--name', `remit-ctest-${randomBytes(4).toString('hex')}`, IMAGE);
  cleanups.push(() => buildah('rm', sqliteCtr));
  checkImage(sqliteCtr, config, base);

  let from = Date.now();
  await twoStarts('SQLite', sqliteCtr, config, { REMIT_ADMIN_PASSWORD: PASSWORD });
  dataFiles(sqliteCtr);
  console.log(`== SQLite runs (${seconds(from)})`);

  from = Date.now();
  await withDatabase(async (url) => {
    const pgCtr = buildah('from', '--name', `remit-ctest-${randomBytes(4).toString('hex')}`, IMAGE);
    cleanups.push(() => buildah('rm', pgCtr));
    const env = {
      DATABASE_URL: url,
      REMIT_JWT_SECRET: randomBytes(48).toString('base64url'),
      REMIT_ADMIN_PASSWORD: PASSWORD,
    };
    await twoStarts('PostgreSQL', pgCtr, config, env);
  });
  console.log(`== PostgreSQL runs (${seconds(from)})`);
}

try {
  await main();
} catch (err) {
  check('the container test ran to its end', false, err.stack ?? String(err));
} finally {
  for (const clean of cleanups.reverse())
    await Promise.resolve()
      .then(clean)
      .catch(() => undefined);
}
const failed = results.filter((ok) => !ok).length;
console.log(`== container test: ${seconds(since)} in all`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
