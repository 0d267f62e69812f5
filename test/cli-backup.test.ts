/**
 * `remit backup` and `remit restore`: a consistent copy while a running server keeps writing, a restore that
 * brings an older state back (also while the server runs, and from the raw .sqlite files older versions
 * wrote), refusals that leave the database untouched, the backups folder and its retention, and PostgreSQL.
 * The real binary on a temporary database.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, remit, serve } from './helpers/cli.js';
import { createTestDb, PG_URL, type TestDb } from './helpers/db.js';

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
/** The SQLite database a backup holds: its two header lines off (as `gunzip -c | tail -n +3` does). */
function unpacked(file: string): string {
  const raw = gunzipSync(readFileSync(file));
  const start = raw.indexOf(10, raw.indexOf(10) + 1) + 1;
  expect(raw.subarray(0, 13).toString()).toBe('remit-backup ');
  const out = `${file}.sqlite`;
  writeFileSync(out, raw.subarray(start));
  return out;
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

  it('backs up while a server keeps writing; the copy is whole and holds the rows; restore runs beside the server', async () => {
    const srv = serve(['--db', dbFile]);
    const { url } = await srv.ready;
    const backup = join(dir, 'live.backup.gz');
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

      const check = await inspect(unpacked(backup), async (db) => ({
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

      // the server keeps running: the restore replaces the data in one transaction, and the server then
      // answers with the backup's stores; what it replaced is kept in the backups folder
      const restored = await r(['restore', backup, '--yes']);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain('還原前的資料已備份為');
      const now = await api(url, 'GET', '/stores', token);
      expect(now.status).toBe(200);
      expect(now.body.map((x: any) => x.code).sort()).toEqual((await storeCodes(unpacked(backup))).sort());
      const kept = readdirSync(join(dir, 'backups')).filter((f) => f.endsWith('-restore.backup.gz'));
      expect(kept).toHaveLength(1);
      expect(await storeCodes(unpacked(join(dir, 'backups', kept[0])))).toHaveLength(1 + written);
    } finally {
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  }, 60_000);

  it('restore brings an older state back and remit then runs on it', async () => {
    const before = join(dir, 'before.backup.gz');
    expect((await r(['backup', before])).code).toBe(0);
    const codesBefore = await storeCodes(unpacked(before));
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
    const truncated = join(dir, 'truncated.backup.gz');
    const whole = readFileSync(join(dir, 'before.backup.gz'));
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 3)));
    // a raw database file (as older versions wrote them) cut short
    const legacy = readFileSync(unpacked(join(dir, 'before.backup.gz')));
    const truncatedRaw = join(dir, 'truncated.sqlite');
    writeFileSync(truncatedRaw, legacy.subarray(0, Math.floor(legacy.length / 3)));
    const foreign = join(dir, 'foreign.sqlite');
    await inspect(foreign, (db) => db.raw('CREATE TABLE things (id integer primary key)'));
    const newer = join(dir, 'newer.sqlite');
    writeFileSync(newer, legacy);
    await inspect(newer, (db) =>
      db('knex_migrations').insert({ name: '29991231000000_from_the_future', batch: 99, migration_time: new Date() }),
    );

    for (const [file, message] of [
      [text, '不是 SQLite 資料庫檔案'],
      [random, '不是 SQLite 資料庫檔案'],
      [truncated, '備份檔不完整'],
      [truncatedRaw, '備份檔'],
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
    // no temporary files left beside the database, nor unpacked copies in the backups folder
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'backups')).filter((f) => f.startsWith('.'))).toEqual([]);
  }, 60_000);

  it('a raw .sqlite backup, as older versions wrote them, is still restored', async () => {
    const raw = unpacked(join(dir, 'before.backup.gz'));
    const codes = await storeCodes(raw);
    expect((await r(['stores', 'add', '--name', '台南店', '--code', 'TNN'])).code).toBe(0);
    const run = await r(['restore', raw, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(await storeCodes(dbFile)).toEqual(codes);
  }, 60_000);

  it('the backups folder: listed, its retention set, chosen with --backup-dir or REMIT_BACKUP_DIR; imports back up first', async () => {
    const folder = join(dir, 'elsewhere');
    const day = 86_400_000;
    const stamp = (ms: number) => {
      const d = new Date(ms + 8 * 3_600_000).toISOString();
      return `${d.slice(0, 10).replace(/-/g, '')}-${d.slice(11, 19).replace(/:/g, '')}-000`;
    };
    const copyAs = (name: string) => writeFileSync(join(folder, name), readFileSync(join(dir, 'before.backup.gz')));
    expect((await r(['--backup-dir', folder, 'backups'])).stdout).toContain('（還沒有備份）');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder, { recursive: true });
    copyAs(`remit-${stamp(Date.now() - 12 * day)}-daily.backup.gz`);
    copyAs(`remit-${stamp(Date.now() - 12 * day)}-manual.backup.gz`);
    copyAs(`remit-${stamp(Date.now() - 2 * day)}-import.backup.gz`);

    // an import writes a 匯入前 backup into the folder REMIT_BACKUP_DIR names
    const csv = join(dir, 'rows.csv');
    writeFileSync(
      csv,
      '營業日期,後五碼,匯款時間,匯款金額,備註,分店,收款狀態\n2026/11/20,12345,2026/11/20 10:00,500,,TPE,\n',
    );
    const imported = await remit(['--db', dbFile, 'import', csv], { env: { REMIT_BACKUP_DIR: folder } });
    expect(imported.code, imported.stderr).toBe(0);

    const listed = await r(['--backup-dir', folder, 'backups']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`備份目錄：${folder}　自動備份保留 14 天`);
    for (const reason of ['匯入前', '每日', '手動']) expect(listed.stdout).toContain(reason);
    const json = JSON.parse((await r(['--backup-dir', folder, 'backups', '--json'])).stdout);
    expect(json.backups.map((b: any) => b.reason)).toEqual(['import', 'import', 'manual', 'daily']);

    // 10 days: the 12-day-old automatic backup goes, the manual one of the same day stays
    const set = await r(['--backup-dir', folder, 'backups', '--keep-days', '10']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('已設定自動備份保留 10 天');
    const after = JSON.parse((await r(['--backup-dir', folder, 'backups', '--json'])).stdout);
    expect(after.keep_days).toBe(10);
    expect(after.backups.map((b: any) => b.reason)).toEqual(['import', 'import', 'manual']);
    // REMIT_BACKUP_KEEP_DAYS wins, and the setting is then refused with where it comes from
    const env = { REMIT_BACKUP_DIR: folder, REMIT_BACKUP_KEEP_DAYS: '30' };
    const fromEnv = JSON.parse((await remit(['--db', dbFile, 'backups', '--json'], { env })).stdout);
    expect(fromEnv).toMatchObject({ keep_days: 30, keep_days_from_env: true });
    const refused = await remit(['--db', dbFile, 'backups', '--keep-days', '5'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('REMIT_BACKUP_KEEP_DAYS');
    expect((await r(['backups', '--keep-days', '0'])).stderr).toContain('保留天數必須是 1 到 3650 之間的整數');
    expect((await r(['backups', '--keep-days', 'ten'])).code).toBe(2);
  }, 60_000);

  it('usage errors exit 2; a missing database is said, exit 1', async () => {
    expect((await r(['backup'])).code).toBe(2);
    expect((await r(['restore'])).code).toBe(2);
    // a missing database is data, not usage
    const missing = await remit(['--db', join(dir, 'nope.sqlite'), 'backup', join(dir, 'y.backup.gz')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`找不到資料庫 ${join(dir, 'nope.sqlite')}（--db 指定的檔案）`);
    // restore makes the database on a new machine
    const fresh = join(dir, 'new-machine', 'remit.sqlite');
    const made = await remit(['--db', fresh, 'restore', join(dir, 'before.backup.gz'), '--yes']);
    expect(made.code, made.stderr).toBe(0);
    expect(await storeCodes(fresh)).toEqual(await storeCodes(unpacked(join(dir, 'before.backup.gz'))));
  }, 60_000);
});

describe.skipIf(!PG_URL)('remit backup / restore on PostgreSQL', () => {
  let t: TestDb;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    assertBuilt();
    t = await createTestDb('postgres');
    dir = mkdtempSync(join(tmpdir(), 'remit-cli-backup-pg-'));
    const url = `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${t.where}`)}`;
    env = {
      DATABASE_URL: url,
      REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru',
      REMIT_BACKUP_DIR: join(dir, 'backups'),
    };
    const pg = (args: string[]) => remit(args, { env });
    expect((await pg(['users', 'add', '--username', 'boss', '--password', 'boss-pass', '--role', 'admin'])).code).toBe(
      0,
    );
    expect((await pg(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
  });
  afterAll(async () => {
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up PostgreSQL in the one format, restores it there, and the same file restores on SQLite', async () => {
    const pg = (args: string[]) => remit(args, { env });
    const file = join(dir, 'pg.backup.gz');
    const taken = await pg(['backup', file]);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toContain('已備份');
    expect(await storeCodes(unpacked(file))).toEqual(['TPE']);

    expect((await pg(['stores', 'add', '--name', '高雄店', '--code', 'KHH'])).code).toBe(0);
    const back = await pg(['restore', file, '--yes']);
    expect(back.code, back.stderr).toBe(0);
    const listed = JSON.parse((await pg(['stores', 'list', '--json'])).stdout);
    expect(listed.map((s: any) => s.code)).toEqual(['TPE']);
    // ids go on after the restore
    expect((await pg(['stores', 'add', '--name', '台中店', '--code', 'TXG'])).code).toBe(0);

    const sqlite = join(dir, 'from-pg.sqlite');
    const onSqlite = await remit(['--db', sqlite, 'restore', file, '--yes']);
    expect(onSqlite.code, onSqlite.stderr).toBe(0);
    expect(await storeCodes(sqlite)).toEqual(['TPE']);
  }, 90_000);
});
