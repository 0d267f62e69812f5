/**
 * `remit backup` and `remit restore`: a consistent copy while a running
 * server keeps writing, a restore that brings an older state back, and refusals that leave the
 * database untouched. The real binary on a temporary database.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, remit, serve } from './helpers/cli.js';

async function api(url: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Opens a SQLite file read-only-ish for inspection and closes it. */
async function inspect<T>(file: string, fn: (db: ReturnType<typeof knexFactory>) => Promise<T>): Promise<T> {
  const db = knexFactory({ client: 'sqlite3', connection: { filename: file }, useNullAsDefault: true });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}
const storeCodes = (file: string) =>
  inspect(file, async (db) =>
    ((await db('stores').select('code').orderBy('id')) as Array<{ code: string }>).map((r) => r.code),
  );

describe('remit backup / restore', () => {
  let dir: string;
  let dbFile: string;
  const r = (args: string[]) => remit(['--db', dbFile, ...args]);

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-cli-backup-'));
    dbFile = join(dir, 'remit.sqlite');
    // a new installation starts with remit migrate: no other command creates the database
    expect((await r(['migrate'])).code).toBe(0);
    expect((await r(['users', 'add', '--username', 'boss', '--password', 'boss-pass', '--role', 'admin'])).code).toBe(
      0,
    );
    expect((await r(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('explains itself with examples', async () => {
    for (const c of ['backup', 'restore']) {
      const run = await remit([c, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('範例：');
    }
  });

  it('backs up while a server keeps writing; the copy is whole and holds the rows; restore refuses while it runs', async () => {
    const srv = serve(['--db', dbFile]);
    const { url } = await srv.ready;
    const backup = join(dir, 'live.sqlite');
    try {
      const { token } = (await api(url, 'POST', '/admin/login', undefined, { username: 'boss', password: 'boss-pass' }))
        .body;
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          const res = await api(url, 'POST', '/stores', token, { name: `店${written}`, code: `S${written}` });
          expect(res.status).toBe(201);
          written++;
        }
      })();
      while (written < 20) await new Promise((res) => setTimeout(res, 10));
      const run = await r(['backup', backup]);
      const afterBackup = written;
      while (written < afterBackup + 10) await new Promise((res) => setTimeout(res, 10));
      writing = false;
      await writer;
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('已備份');

      const check = await inspect(backup, async (db) => ({
        integrity: (await db.raw('PRAGMA integrity_check')) as Array<{ integrity_check: string }>,
        stores: Number(((await db('stores').count({ n: '*' }).first()) as { n: number }).n),
        users: ((await db('users').select('username')) as Array<{ username: string }>).map((u) => u.username),
        audited: Number(
          (
            (await db('audit_log').where({ entity: 'store', action: 'create' }).count({ n: '*' }).first()) as {
              n: number;
            }
          ).n,
        ),
      }));
      expect(check.integrity).toEqual([{ integrity_check: 'ok' }]);
      expect(check.users).toEqual(['boss']);
      // TPE plus the stores written before the snapshot, and never a half-written one
      expect(check.stores).toBeGreaterThanOrEqual(1 + 20);
      expect(check.stores).toBeLessThan(1 + written);
      expect(check.audited).toBe(check.stores);

      // the target exists now: refused without --force, replaced with it
      const again = await r(['backup', backup]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('--force');
      expect((await r(['backup', backup, '--force'])).code).toBe(0);

      // a running server holds the database: restore says to stop it and changes nothing
      const refused = await r(['restore', backup, '--yes']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('請先停止伺服器');
      const stillThere = await api(url, 'GET', '/stores', token);
      expect(stillThere.status).toBe(200);
      expect(stillThere.body.length).toBe(1 + written);
    } finally {
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  }, 60_000);

  it('restore brings an older state back and remit then runs on it', async () => {
    const before = join(dir, 'before.sqlite');
    expect((await r(['backup', before])).code).toBe(0);
    const codesBefore = await storeCodes(before);
    expect((await r(['stores', 'add', '--name', '高雄店', '--code', 'KHH'])).code).toBe(0);
    expect(await storeCodes(dbFile)).toContain('KHH');

    const noYes = await r(['restore', before]);
    expect(noYes.code).toBe(2);
    const run = await r(['restore', before, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('已還原');
    expect(await storeCodes(dbFile)).toEqual(codesBefore);
    expect(existsSync(`${dbFile}-wal`) && readFileSync(`${dbFile}-wal`).length > 0).toBe(false);
    expect(await inspect(dbFile, (db) => db.raw('PRAGMA integrity_check'))).toEqual([{ integrity_check: 'ok' }]);
    // the backup file itself is left as it was
    expect(existsSync(before)).toBe(true);

    const list = await r(['stores', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((s: any) => s.code)).toEqual(codesBefore);
  }, 60_000);

  it('restore refuses what is not a whole remit database, and changes nothing', async () => {
    const codes = await storeCodes(dbFile);
    const text = join(dir, 'notes.sqlite');
    writeFileSync(text, 'this is not a database\n');
    const random = join(dir, 'random.sqlite');
    writeFileSync(random, randomBytes(64 * 1024));
    const truncated = join(dir, 'truncated.sqlite');
    const whole = readFileSync(join(dir, 'before.sqlite'));
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 3)));
    const foreign = join(dir, 'foreign.sqlite');
    await inspect(foreign, (db) => db.raw('CREATE TABLE things (id integer primary key)'));
    const newer = join(dir, 'newer.sqlite');
    writeFileSync(newer, whole);
    await inspect(newer, (db) =>
      db('knex_migrations').insert({ name: '29991231000000_from_the_future', batch: 99, migration_time: new Date() }),
    );

    for (const [file, message] of [
      [text, '不是 SQLite 資料庫檔案'],
      [random, '不是 SQLite 資料庫檔案'],
      [truncated, '備份檔'],
      [foreign, '不是 remit 的資料庫'],
      [newer, '較新版本'],
      [join(dir, 'missing.sqlite'), '找不到備份檔'],
    ]) {
      const run = await r(['restore', file, '--yes']);
      expect(run.code, `${file}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await storeCodes(dbFile)).toEqual(codes);
    // no temporary files left beside the database
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('usage errors exit 2; PostgreSQL is pointed to pg_dump', async () => {
    expect((await r(['backup'])).code).toBe(2);
    expect((await r(['restore'])).code).toBe(2);
    const pg = await remit(['backup', join(dir, 'x.sqlite')], {
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(pg.code).toBe(2);
    expect(pg.stderr).toContain('pg_dump');
    // a missing database is data, not usage
    const missing = await remit(['--db', join(dir, 'nope.sqlite'), 'backup', join(dir, 'y.sqlite')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`找不到資料庫 ${join(dir, 'nope.sqlite')}（--db 指定的檔案）`);
  });
});
