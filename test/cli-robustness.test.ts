/**
 * What an outside review of `remit` found (a read beside an import, files that cannot be written,
 * a pipe closed early, empty flag values, migrate on a stranger's file, a cut audit list, the day
 * book's last five): in-process where the process adds nothing, the binary where it does (locks
 * held by another process, a closed pipe, a file-size limit).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, parseInstant } from '../core/index.js';
import { migrateDownOne } from '../core/db/migrate.js';
import { assertBuilt, BIN, remit } from './helpers/cli.js';
import { runRemit } from './helpers/cliInProcess.js';
import { createTestDb, DB_KINDS, PG_URL, type TestDb } from './helpers/db.js';
import { seed, type Fixture } from './helpers/fixtures.js';

const exportEntries = async (env: Record<string, string>) =>
  (await runRemit(['audit', '--json'], env)).stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { action: string })
    .filter((e) => e.action === 'export');

describe.each(DB_KINDS)('remit in-process on %s: files, empty values, the audit list, the day book', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    dir = mkdtempSync(join(tmpdir(), 'remit-robust-'));
    const now = Date.now();
    for (const [store, lastFive] of [
      [f.stores.A.id, '01234'],
      [f.stores.B.id, '54321'],
    ] as const) {
      await t.db('payments').insert({
        uuid: randomUUID(),
        store_id: store,
        last_five: lastFive,
        paid_at: parseInstant('2026-11-20T10:00')!,
        amount: 1000,
        status: '未確認',
        note: '',
        method: '匯款',
        employee: false,
        created_by: null,
        created_at: now,
        updated_at: now,
      });
    }
    if (t.config.client === 'pg') {
      const url = `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${t.where}`)}`;
      env = { DATABASE_URL: url, REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru' };
    } else env = { REMIT_DB: t.where };
  }, 60_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.cleanup();
  });

  it('a file that cannot be written is one Chinese sentence naming the path and why, exit 1, no temporary file, not audited (item 2)', async () => {
    const before = (await exportEntries(env)).length;
    writeFileSync(join(dir, 'afile'), 'x');
    mkdirSync(join(dir, 'adir'), { recursive: true });
    const cases: Array<[string[], string]> = [
      [
        ['export', '-o', join(dir, 'nodir', 'a.xlsx')],
        `錯誤：無法寫入檔案 ${join(dir, 'nodir', 'a.xlsx')}：目錄 ${join(dir, 'nodir')} 不存在\n`,
      ],
      [
        ['export', '-o', join(dir, 'afile', 'a.xlsx')],
        `錯誤：無法寫入檔案 ${join(dir, 'afile', 'a.xlsx')}：${join(dir, 'afile')} 不是目錄\n`,
      ],
      [
        ['export', '-o', `${join(dir, 'adir')}/`],
        `錯誤：無法寫入檔案 ${join(dir, 'adir')}/：這是一個目錄，請指定檔名（例如 目錄/匯款.xlsx）\n`,
      ],
      [
        [
          'export',
          '--daybook',
          '--store',
          'TPE',
          '--from',
          '2026-11-20',
          '--to',
          '2026-11-20',
          '-o',
          join(dir, 'nodir', 'd.csv'),
        ],
        `錯誤：無法寫入檔案 ${join(dir, 'nodir', 'd.csv')}：目錄 ${join(dir, 'nodir')} 不存在\n`,
      ],
      [
        ['sample', '-o', join(dir, 'nodir', 's.xlsx')],
        `錯誤：無法寫入檔案 ${join(dir, 'nodir', 's.xlsx')}：目錄 ${join(dir, 'nodir')} 不存在\n`,
      ],
    ];
    for (const [args, said] of cases) {
      const r = await runRemit(args, env);
      expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 1, said]);
    }
    expect(readdirSync(dir).sort()).toEqual(['adir', 'afile']);
    expect(readdirSync(join(dir, 'adir'))).toEqual([]);
    expect(await exportEntries(env)).toHaveLength(before);
    // a file written is audited, with the rows written
    const ok = await runRemit(['export', '-o', join(dir, 'adir', 'ok.xlsx')], env);
    expect(ok.code, ok.stderr).toBe(0);
    const after = await exportEntries(env);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({ after: { count: 2, format: 'xlsx' } });
  });

  it('an empty value for an option that takes one is refused with the option named, exit 2; "" still clears where the help says so (item 4)', async () => {
    const cases: Array<[string[], string]> = [
      [['export', '--store', '', '-o', join(dir, 'z.xlsx')], '--store'],
      [['export', '--status', '', '-o', join(dir, 'z.xlsx')], '--status'],
      [['export', '--store', ' , ', '-o', join(dir, 'z.xlsx')], '--store'],
      [['export', '-o', ''], '--output'],
      [['stats', '--store', ''], '--store'],
      [['closes', '--store', ''], '--store'],
      [['--db', '', 'stats'], '--db'],
    ];
    for (const [args, flag] of cases) {
      const r = await runRemit(args, env);
      expect([args.join(' '), r.code, r.stderr]).toEqual([
        args.join(' '),
        2,
        `錯誤：選項 ${flag} 的值不能是空白（不需要時請不要加這個選項）\n`,
      ]);
    }
    expect(existsSync(join(dir, 'z.xlsx'))).toBe(false);
    const cleared = await runRemit(
      ['users', 'edit', f.users.hq_none.username, '--accessible-stores', '', '--json'],
      env,
    );
    expect(cleared.code, cleared.stderr).toBe(0);
  });

  it('audit --json says on stderr that the list was cut at --limit, stdout stays JSON lines (item 6)', async () => {
    const r = await runRemit(['audit', '--limit', '1', '--json'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(() => JSON.parse(lines[0])).not.toThrow();
    expect(r.stderr).toMatch(/^（共 \d+ 筆，只列出最新 1 筆；可用 --limit 或 --since 調整）\n$/);
    const all = await runRemit(['audit', '--limit', '10000', '--json'], env);
    expect(all.stderr).toBe('');
  });

  it('bad values of flags exit 2 naming what to fix; the operator is 命令列; an unfiltered export is audited as 無（全部） (items 8 to 10)', async () => {
    const usage: Array<[string[], string]> = [
      [
        ['cash-out', 'TPE', '--amount', '0', '--kind', '提領'],
        '錯誤：金額必須是 1 到 NT$100,000,000 的整數（新台幣元）\n',
      ],
      [
        ['cash-out', 'TPE', '--amount', '99999999999999999', '--kind', '提領'],
        '錯誤：金額必須是 1 到 NT$100,000,000 的整數（新台幣元）\n',
      ],
      [['cash-out', 'TPE', '--kind', '提領'], '錯誤：請用 --amount 填寫金額（新台幣整數）\n'],
      [['close', 'TPE', '--date', '2026-11-20'], '錯誤：請用 --counted 填寫金額（新台幣整數）\n'],
      [['closes', '--from', '2025-01-01', '--to', '2026-11-27'], '錯誤：日結總覽一次最多 366 天，請縮短日期範圍\n'],
      [['stores', 'link', 'NOPE'], '錯誤：找不到分店代碼「NOPE」（用 remit stores list 查看）\n'],
      [
        ['users', 'add', '--username', 'newbie', '--role', 'superuser', '--password', 'Xq7-long-enough'],
        '錯誤：--role 必須是 admin（管理員） 或 user（用戶），收到「superuser」\n',
      ],
      [['stats', '--from', '2026-02-30'], '錯誤：--from 沒有這一天：2026-02-30（格式正確，但這個日期不存在）\n'],
    ];
    for (const [args, said] of usage) {
      const r = await runRemit(args, env);
      expect([args.join(' '), r.code, r.stderr.replace(/^警告：[^\n]*\n/, '')]).toEqual([args.join(' '), 2, said]);
    }
    expect(
      (await runRemit(['close', 'TPE', '--date', '2026-11-20', '--counted', '0', '--opening', '0'], env)).code,
    ).toBe(0);
    const day = await runRemit(['day', 'TPE', '--date', '2026-11-20'], env);
    expect(day.stdout).toMatch(/結帳者\s+命令列，/);
    const again = await runRemit(['close', 'TPE', '--date', '2026-11-20', '--counted', '0'], env);
    expect(again.stderr).toContain('已經結帳（命令列，');
    const book = join(dir, 'closed.csv');
    expect(
      (
        await runRemit(
          ['export', '--daybook', '--store', 'TPE', '--from', '2026-11-20', '--to', '2026-11-20', '-o', book],
          env,
        )
      ).code,
    ).toBe(0);
    expect(readFileSync(book, 'utf8')).toContain('點收 命令列');
    expect((await runRemit(['export', '-o', join(dir, 'all.xlsx')], env)).code).toBe(0);
    expect((await runRemit(['audit', '--limit', '1'], env)).stdout).toContain('匯出條件：無（全部）');
  });

  it('the day book CSV keeps a last five such as 01234 as text, as the payments CSV does (item 7)', async () => {
    const book = join(dir, 'book.csv');
    const r = await runRemit(
      [
        'export',
        '--daybook',
        '--store',
        'TPE',
        '--from',
        '2026-11-20',
        '--to',
        '2026-11-20',
        '--format',
        'csv',
        '-o',
        book,
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const payments = join(dir, 'payments.csv');
    expect((await runRemit(['export', '--store', 'TPE', '--format', 'csv', '-o', payments], env)).code).toBe(0);
    const protectedCell = '"=""01234"""';
    expect(readFileSync(payments, 'utf8')).toContain(protectedCell);
    expect(readFileSync(book, 'utf8')).toContain(`,${protectedCell},`);
  });
});

describe("remit migrate refuses a file that is not remit's, untouched (item 5)", () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'remit-migrate-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("another program's SQLite database and a CSV are refused with the other commands' words; an empty or new file is migrated", async () => {
    const other = join(dir, 'other.sqlite');
    const k = knexFactory({ client: 'sqlite3', connection: { filename: other }, useNullAsDefault: true });
    await k.schema.createTable('things', (tb) => tb.increments('id'));
    await k.destroy();
    const bytes = readFileSync(other);
    const r = await runRemit(['--db', other, 'migrate'], {});
    expect([r.code, r.stderr]).toEqual([
      1,
      `錯誤：${other} 不是 remit 的資料庫（沒有 remit 的資料表）：請用 --db、REMIT_DB 或 DATABASE_URL 指向正確的資料庫，或在新的檔案上執行 remit migrate\n`,
    ]);
    expect(readFileSync(other).equals(bytes)).toBe(true);
    expect(existsSync(`${other}-wal`)).toBe(false);
    expect((await runRemit(['--db', other, 'stats'], {})).stderr).toBe(r.stderr);

    const csv = join(dir, 'some.csv');
    writeFileSync(csv, '營業日期,帳號後五碼\n2026/11/20,01234\n');
    const c = await runRemit(['--db', csv, 'migrate'], {});
    expect([c.code, c.stderr]).toEqual([
      1,
      `錯誤：${csv} 不是 SQLite 資料庫檔案：請用 --db、REMIT_DB 或 DATABASE_URL 指向正確的資料庫\n`,
    ]);
    expect(readFileSync(csv, 'utf8')).toBe('營業日期,帳號後五碼\n2026/11/20,01234\n');

    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    const e = await runRemit(['--db', empty, 'migrate'], {});
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toMatch(/^已套用 \d+ 個遷移/);
    const fresh = await runRemit(['--db', join(dir, 'new.sqlite'), 'migrate'], {});
    expect(fresh.code, fresh.stderr).toBe(0);
  });
});

describe('the remit binary beside another process, a closed pipe, a file-size limit', () => {
  let dir: string;
  let db: string;
  const run = (args: string[]) => remit(['--db', db, ...args]);

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-robust-bin-'));
    db = join(dir, 'remit.sqlite');
    expect((await run(['migrate'])).code).toBe(0);
    expect((await run(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
    expect((await run(['sample', '-o', join(dir, 's.xlsx')])).code).toBe(0);
    expect((await run(['import', join(dir, 's.xlsx')])).code).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Another process holding SQLite's write lock, as a running `remit import` does. */
  async function holdingWriteLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
    const holder = knexFactory({
      client: 'sqlite3',
      connection: { filename: file },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    });
    await holder.raw('BEGIN IMMEDIATE');
    try {
      return await fn();
    } finally {
      await holder.raw('ROLLBACK');
      await holder.destroy();
    }
  }

  it('commands that only read work while another process writes; a database truly busy is said in Chinese, exit 1 (item 1)', async () => {
    // a copy one migration behind: a command must migrate it, so it needs the lock
    const behind = join(dir, 'behind.sqlite');
    const k = openDatabase({ client: 'sqlite', filename: db });
    await k.raw('VACUUM INTO ?', [behind]);
    await k.destroy();
    const b = openDatabase({ client: 'sqlite', filename: behind });
    await migrateDownOne(b);
    await b.destroy();

    await holdingWriteLock(db, async () => {
      const busyOne = holdingWriteLock(behind, () => remit(['--db', behind, 'stats']));
      for (const args of [
        ['stats', '--json'],
        ['audit', '--json'],
        ['closes', '--json'],
        ['day', 'TPE', '--json'],
        ['reconcile', 'payers'],
        ['stores', 'list'],
      ]) {
        const r = await run(args);
        expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 0, '']);
        expect(r.ms, args.join(' ')).toBeLessThan(5_000);
      }
      // an export writes its audit entry: told not to wait longer (--wait 0), it waits the
      // database's own busy time for the writer, then says so; no file is left
      const out = join(dir, 'during.xlsx');
      const [exported, busy] = await Promise.all([run(['export', '--wait', '0', '-o', out]), busyOne]);
      for (const r of [exported, busy])
        expect([r.code, r.stderr]).toEqual([
          1,
          '錯誤：資料庫忙碌中（另一個程式正在寫入，例如匯入大量資料），請稍後再試\n',
        ]);
      expect(existsSync(out)).toBe(false);
    });
  }, 40_000);

  it('an export beside a running import waits for it, says so once, and finishes with its file and its audit entry once the writer lets go', async () => {
    const out = join(dir, 'after-import.csv');
    const holder = knexFactory({
      client: 'sqlite3',
      connection: { filename: db },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    });
    await holder.raw('BEGIN IMMEDIATE');
    const before = (await run(['audit', '--json'])).stdout.split('\n').filter((l) => l.includes('"export"')).length;
    const child = spawn(process.execPath, [BIN, '--db', db, 'export', '--verbose', '-o', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (d) => ((stderr += d), stderr.includes('等它完成') && resolve())),
    );
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // what the ops person sees while the import runs: the file is written, the export waits
      await waiting;
      expect(stderr).toBe('另一個程式正在寫入資料庫（例如匯入大量資料），等它完成後再寫入匯出紀錄（最多 600 秒）…\n');
    } finally {
      await holder.raw('ROLLBACK');
      await holder.destroy();
    }
    expect(await closed).toBe(0);
    expect(stdout).toMatch(/^已匯出 \d+ 筆記錄：/);
    expect(stderr.match(/等它完成/g)).toHaveLength(1);
    expect(existsSync(out)).toBe(true);
    const after = (await run(['audit', '--json'])).stdout.split('\n').filter((l) => l.includes('"export"')).length;
    expect(after).toBe(before + 1);
    expect((await run(['export', '--wait', 'soon'])).stderr).toBe(
      '錯誤：--wait 必須是 0 以上的整數秒數，收到「soon」\n',
    );
  }, 60_000);

  /** Runs remit with stdout a pipe whose reader has already gone. */
  function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, '--db', db, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '' },
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('output to a pipe whose reader is gone stops quietly (141, as SIGPIPE), and the export is not audited (item 3)', async () => {
    const audited = async () =>
      (await run(['audit', '--json'])).stdout.split('\n').filter((l) => l.includes('"action":"export"')).length;
    const before = await audited();
    for (const args of [
      ['export', '--format', 'json', '-o', '-'],
      [
        'export',
        '--daybook',
        '--store',
        'TPE',
        '--from',
        '2026-11-01',
        '--to',
        '2026-11-30',
        '--format',
        'csv',
        '-o',
        '-',
      ],
      ['closes', '--from', '2026-11-01', '--to', '2026-11-30'],
      ['export', '--help'],
    ]) {
      const r = await closedPipe(args);
      expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 141, '']);
    }
    expect(await audited()).toBe(before);
  });

  it('a file over the size limit (ulimit -f) is said in Chinese, no temporary file left; backup into /proc too (item 2)', async () => {
    const out = join(dir, 'limited');
    mkdirSync(out);
    const big = join(dir, 'big.csv');
    const rows = ['營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態,付款方式'];
    for (let i = 0; i < 3000; i++)
      rows.push(`2026/11/20,${String(i).padStart(5, '0')},2026/11/20 10:00,${100 + i},,TPE,未點收,匯款`);
    writeFileSync(big, rows.join('\n'));
    expect((await run(['import', big])).code).toBe(0);
    const r = spawnSync(
      'sh',
      [
        '-c',
        `ulimit -f 200; exec "${process.execPath}" "${BIN}" --db "${db}" export --format json -o "${join(out, 'a.json')}"`,
      ],
      { encoding: 'utf8' },
    );
    expect([r.status, r.stderr]).toEqual([
      1,
      `錯誤：無法寫入檔案 ${join(out, 'a.json')}：檔案太大（超過系統允許的檔案大小）\n`,
    ]);
    expect(readdirSync(out)).toEqual([]);
    const backup = await run(['backup', '/proc/nope.sqlite']);
    expect([backup.code, backup.stderr]).toEqual([
      1,
      '錯誤：無法寫入檔案 /proc/nope.sqlite：無法在目錄 /proc 中建立檔案\n',
    ]);
  });
});
