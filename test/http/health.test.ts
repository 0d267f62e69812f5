/**
 * `/api/health`, what a load balancer, `docker compose ps` and an operator's monitor ask: 200 `{ok: true, …}` when
 * the database answers, its migrations are this program's and the data folder has disk left; 503 naming the parts
 * that are not, for anyone, signed in or not, and nothing about any person in either answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase, takeManualBackup } from '../../core/index.js';
import { migrateDownOne, migrateLatest } from '../../core/db/migrate.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed } from '../helpers/fixtures.js';
import { listenApi, type Listening } from '../helpers/server.js';

async function health(server: Listening) {
  const res = await fetch(`${server.url}/api/health`);
  return { status: res.status, body: await res.json(), cacheControl: res.headers.get('cache-control') };
}

describe.each(DB_KINDS)('/api/health on %s', (kind) => {
  let t: TestDb | undefined;
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    await t?.cleanup();
    server = t = undefined;
  });

  it('answers 200 ok for anyone when the database answers, is current and has disk, and names nobody', async () => {
    t = await createTestDb(kind);
    server = await listenApi({ db: t.db });
    const res = await health(server);
    expect(res.status).toBe(200);
    expect(res.cacheControl).toBe('no-store');
    expect(res.body).toMatchObject({
      ok: true,
      failing: [],
      database: { ok: true },
      migrations: { ok: true, pending: 0, unknown: 0 },
      disk: { ok: true },
    });
    expect(res.body.disk.free_mb).toBeGreaterThan(0);
    expect(res.body.disk.free_percent).toBeGreaterThan(0);
    // figures only: no user, store, address or path in it
    expect(JSON.stringify(res.body)).not.toMatch(/admin|總店|\/tmp|127\.0\.0\.1|postgres:/);
  });

  it('reads the schema once for a flood of checks: a few seconds of cache, one query for those waiting together', async () => {
    t = await createTestDb(kind);
    let schemaReads = 0;
    let pings = 0;
    t.db.on('query', (q: { sql: string; bindings?: unknown[] }) => {
      if (q.sql.includes('knex_migrations') || q.bindings?.includes('knex_migrations')) schemaReads++;
      if (/^select 1$/i.test(q.sql)) pings++;
    });
    server = await listenApi({ db: t.db });
    const answers = await Promise.all(Array.from({ length: 40 }, () => health(server!)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // whether the table exists, then its names: read once, not forty times
    expect(schemaReads).toBeLessThanOrEqual(2);
    expect(pings).toBeLessThan(40);
  });

  it('answers 503 naming the migrations when one is pending', async () => {
    t = await createTestDb(kind);
    await migrateDownOne(t.db);
    server = await listenApi({ db: t.db, health: { cacheMs: 500 } });
    const res = await health(server);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      ok: false,
      failing: ['migrations'],
      database: { ok: true },
      migrations: { ok: false, pending: 1, unknown: 0 },
    });
    // the schema made current again: ok once the cached answer is over
    await migrateLatest(t.db);
    await expect.poll(async () => (await health(server!)).status, { timeout: 15_000, interval: 500 }).toBe(200);
  });

  it('reports the newest backup’s time and age, and never fails for it', async () => {
    t = await createTestDb(kind);
    const dir = mkdtempSync(join(tmpdir(), 'remit-health-backups-'));
    try {
      server = await listenApi({ db: t.db, backups: { dir }, health: { cacheMs: 0 } });
      const before = await health(server);
      expect(before.status).toBe(200);
      expect(before.body.backup).toEqual({ ok: true, last_at: null, age_hours: null });
      const f = await seed(t.db);
      await takeManualBackup({ db: t.db, security: TEST_SECURITY, actor: f.users.admin, ip: null, backups: { dir } });
      const after = await health(server);
      expect(after.status).toBe(200);
      expect(after.body.failing).toEqual([]);
      expect(Date.now() - Date.parse(after.body.backup.last_at)).toBeLessThan(60_000);
      expect(after.body.backup).toMatchObject({ ok: true, age_hours: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 503 naming the disk when it is low', async () => {
    t = await createTestDb(kind);
    // every disk is "low" under thresholds no disk meets
    server = await listenApi({ db: t.db, health: { minFreeBytes: Number.MAX_SAFE_INTEGER, minFreeShare: 1.01 } });
    const res = await health(server);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false, failing: ['disk'], disk: { ok: false } });
  });
});

describe('/api/health when the database does not answer', () => {
  let db: ReturnType<typeof openDatabase> | undefined;
  let server: Listening | undefined;
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
  });

  it.each(DB_KINDS)('answers 503 naming the database on %s, without the driver words', async (kind) => {
    await server?.close();
    await db?.destroy();
    // a PostgreSQL server nobody listens for, or a SQLite file in a folder that does not exist
    db =
      kind === 'postgres'
        ? openDatabase({ client: 'pg', connectionString: 'postgres://remit:secret@127.0.0.1:9/remit' })
        : knexFactory({
            client: 'sqlite3',
            connection: { filename: '/nonexistent/remit.sqlite' },
            useNullAsDefault: true,
          });
    server = await listenApi({ db, errors: [] });
    const res = await health(server);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false, failing: ['database'], database: { ok: false } });
    expect(res.body.migrations).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/secret|ECONNREFUSED|SQLITE_CANTOPEN|nonexistent/);
  });
});
