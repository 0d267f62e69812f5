/**
 * `remit` run in a folder that is not remit's: the binary, in an empty
 * temporary folder, as someone who forgot to `cd /srv/remit` would run it. Only `remit migrate`,
 * `remit serve` and `remit restore` create a database; every other command refuses with the
 * path it looked at and how to point at the right one, and leaves the folder as it was.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePaymentsWorkbook } from '../core/index.js';
import { assertBuilt, remit } from './helpers/cli.js';
import { createTestDb, PG_URL, type TestDb } from './helpers/db.js';

/** Every kind of command that needs a database: listing, adding, changing, reading files into it, exporting, backing up. */
const COMMANDS: Array<{ args: string[]; input?: string }> = [
  { args: ['users', 'list'] },
  { args: ['users', 'add', '--username', 'boss', '--password-stdin', '--role', 'admin'], input: 'tea-leaf-6\n' },
  { args: ['users', 'unlock', 'admin'] },
  { args: ['stores', 'list'] },
  { args: ['stores', 'add', '--name', '台北店', '--code', 'TPE'] },
  { args: ['stats'] },
  { args: ['audit'] },
  { args: ['export', '-o', 'out.xlsx'] },
  { args: ['export', '--today', '-o', '-'] },
  { args: ['import', 'given.xlsx'] },
  { args: ['reconcile', 'payers'] },
  { args: ['reconcile', 'forget', '1'] },
  { args: ['backup', 'backup.sqlite'] },
];

/** The refusal, word for word: the path, where it came from, how to point at the right one. */
const missing = (path: string, from: string) =>
  `錯誤：找不到資料庫 ${path}（${from}）。\n` +
  '請在 remit 的資料夾中執行，或指定資料庫：--db 檔案或環境變數 REMIT_DB（SQLite），或 DATABASE_URL（PostgreSQL）。新的安裝請先執行 remit migrate 建立資料庫\n';

describe('remit outside its folder creates no database', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-elsewhere-'));
    // a file for `remit import` to be given: the database is refused before the file is read
    writeFileSync(join(dir, 'given.xlsx'), 'not looked at');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(COMMANDS.map((c) => [c.args.join(' '), c] as const))(
    'remit %s refuses, naming ./data/remit.sqlite under this folder, and creates nothing',
    async (_name, c) => {
      const r = await remit(c.args, { cwd: dir, input: c.input });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe(
        missing(join(dir, 'data', 'remit.sqlite'), `預設位置 ./data/remit.sqlite，在目前的資料夾 ${dir} 之下`),
      );
      expect(r.stdout).toBe('');
      expect(readdirSync(dir)).toEqual(['given.xlsx']);
    },
  );

  it('names REMIT_DB or --db when that is where the path came from', async () => {
    const viaEnv = await remit(['stats'], { cwd: dir, env: { REMIT_DB: join(dir, 'shop', 'remit.sqlite') } });
    expect([viaEnv.code, viaEnv.stderr]).toEqual([
      1,
      missing(join(dir, 'shop', 'remit.sqlite'), 'REMIT_DB 指定的檔案'),
    ]);
    const viaFlag = await remit(['--db', 'other.sqlite', 'users', 'list'], { cwd: dir });
    expect([viaFlag.code, viaFlag.stderr]).toEqual([1, missing(join(dir, 'other.sqlite'), '--db 指定的檔案')]);
    expect(readdirSync(dir)).toEqual(['given.xlsx']);
  });

  it('remit sample needs no database: it writes the sample (naming 總店 (HQ)) and nothing else', async () => {
    const r = await remit(['sample'], { cwd: dir });
    expect([r.code, r.stderr, r.stdout]).toEqual([0, '', '已產生範例檔：匯款記錄_匯入範例.xlsx\n']);
    expect(readdirSync(dir).sort()).toEqual(['given.xlsx', '匯款記錄_匯入範例.xlsx'].sort());
    const parsed = parsePaymentsWorkbook(readFileSync(join(dir, '匯款記錄_匯入範例.xlsx')), {
      stores: [{ id: 1, name: '總店', code: 'HQ' }],
    });
    expect([parsed.errors, parsed.rows.length]).toEqual([[], 7]);
    rmSync(join(dir, '匯款記錄_匯入範例.xlsx'));
  });

  it('a file that is empty, or not SQLite, is said to be so and left as it was', async () => {
    const sub = mkdtempSync(join(dir, 'files-'));
    writeFileSync(join(sub, 'empty.sqlite'), '');
    const empty = await remit(['--db', 'empty.sqlite', 'users', 'list'], { cwd: sub });
    expect([empty.code, empty.stderr]).toEqual([
      1,
      `錯誤：資料庫 ${join(sub, 'empty.sqlite')} 是空的，還沒有建立資料表：新的安裝請先執行 remit migrate（或 --db 指向正確的資料庫）\n`,
    ]);
    writeFileSync(join(sub, 'notes.sqlite'), 'shopping list\n');
    const text = await remit(['--db', 'notes.sqlite', 'stats'], { cwd: sub });
    expect([text.code, text.stderr]).toEqual([
      1,
      `錯誤：${join(sub, 'notes.sqlite')} 不是 SQLite 資料庫檔案：請用 --db、REMIT_DB 或 DATABASE_URL 指向正確的資料庫\n`,
    ]);
    expect(readdirSync(sub).sort()).toEqual(['empty.sqlite', 'notes.sqlite']);
    expect(statSync(join(sub, 'empty.sqlite')).size).toBe(0);
    expect(readFileSync(join(sub, 'notes.sqlite'), 'utf8')).toBe('shopping list\n');
  });

  it('another program’s SQLite database is not taken for remit’s', async () => {
    const sub = mkdtempSync(join(dir, 'other-'));
    const made = await remit(['--db', 'theirs.sqlite', 'migrate'], { cwd: sub });
    expect(made.code, made.stderr).toBe(0);
    // a database with tables but no remit migrations: strip remit's record of them
    const knex = (await import('knex')).default({
      client: 'sqlite3',
      connection: { filename: join(sub, 'theirs.sqlite') },
      useNullAsDefault: true,
    });
    await knex.schema.dropTable('knex_migrations');
    await knex.destroy();
    const r = await remit(['--db', 'theirs.sqlite', 'stores', 'list'], { cwd: sub });
    expect([r.code, r.stderr]).toEqual([
      1,
      `錯誤：${join(sub, 'theirs.sqlite')} 不是 remit 的資料庫（沒有 remit 的資料表）：請用 --db、REMIT_DB 或 DATABASE_URL 指向正確的資料庫，或在新的檔案上執行 remit migrate\n`,
    ]);
  });

  it('remit migrate creates the database a new installation starts with; then the others work', async () => {
    const sub = mkdtempSync(join(dir, 'new-'));
    const made = await remit(['migrate'], { cwd: sub });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^已套用 \d+ 個遷移/);
    expect(statSync(join(sub, 'data', 'remit.sqlite')).isFile()).toBe(true);
    const list = await remit(['users', 'list'], { cwd: sub });
    expect([list.code, list.stdout]).toEqual([0, '暫無會員記錄\n']);
  });

  it('remit restore puts a backup in place on a new machine', async () => {
    const old = mkdtempSync(join(dir, 'old-'));
    expect((await remit(['migrate'], { cwd: old })).code).toBe(0);
    expect((await remit(['stores', 'add', '--name', '台北店', '--code', 'TPE'], { cwd: old })).code).toBe(0);
    expect((await remit(['backup', join(old, 'b.sqlite')], { cwd: old })).code).toBe(0);
    const fresh = mkdtempSync(join(dir, 'fresh-'));
    mkdirSync(join(fresh, 'data'));
    const restored = await remit(['restore', join(old, 'b.sqlite'), '--yes'], { cwd: fresh });
    expect(restored.code, restored.stderr).toBe(0);
    expect((await remit(['stores', 'list'], { cwd: fresh })).stdout).toContain('台北店');
  });
});

describe.skipIf(!PG_URL)('remit on PostgreSQL from any folder', () => {
  let t: TestDb;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDb('postgres');
    dir = mkdtempSync(join(tmpdir(), 'remit-elsewhere-pg-'));
  });
  afterAll(async () => {
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('DATABASE_URL is used as before: the command works and no SQLite file appears', async () => {
    const url = `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${t.where}`)}`;
    const r = await remit(['stores', 'list', '--json'], {
      cwd: dir,
      env: { DATABASE_URL: url, REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
