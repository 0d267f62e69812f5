/**
 * `remit users`, `remit stores` and `remit stats` as an operator or a script runs them: the real
 * binary as a child process on a temporary database, checked by its output, its exit code and
 * what the core then sees in the same database.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPayment,
  formatTaipei,
  login,
  openDatabase,
  statsSummary,
  systemActor,
  updatePayment,
} from '../core/index.js';
import { authenticate } from '../core/users/auth.js';
import { type SecuritySettings } from '../core/context.js';
import { displayWidth } from '../cli/table.js';
import { assertBuilt, BIN, remit, type Run } from './helpers/cli.js';
import { runRemit } from './helpers/cliInProcess.js';

const ENV = { PATH: process.env.PATH ?? '', REMIT_BCRYPT_COST: '10' };

const security: SecuritySettings = { jwtSecret: 'test-secret-'.repeat(4), tokenTtlSeconds: 600, bcryptCost: 10 };

describe('remit users / stores / stats', () => {
  let dir: string;
  let dbFile: string;
  let db: Knex;
  const r = (args: string[], opts: { stdin?: string | 'open'; timeoutMs?: number } = {}) =>
    remit(['--db', dbFile, ...args], { input: opts.stdin, timeoutMs: opts.timeoutMs });
  const canLogin = (username: string, password: string) =>
    login({ db, security }, { username, password }).then(
      () => 'ok',
      (e: Error) => e.message,
    );

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-cli-admin-'));
    dbFile = join(dir, 'remit.sqlite');
    // a new installation starts with remit migrate: no other command creates the database
    expect((await r(['migrate'])).code).toBe(0);
    for (const [name, code] of [
      ['台北店', 'TPE'],
      ['台中店', 'TXG'],
      ['高雄店', 'KHH'],
    ]) {
      expect((await r(['stores', 'add', '--name', name, '--code', code])).code).toBe(0);
    }
    expect(
      (await r(['users', 'add', '--username', 'boss', '--password-stdin', '--role', 'admin'], { stdin: 'boss-pass\n' }))
        .code,
    ).toBe(0);
    db = openDatabase({ client: 'sqlite', filename: dbFile });
  });
  afterAll(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every command explains itself with examples', async () => {
    const commands = [
      ['users'],
      ['users', 'list'],
      ['users', 'add'],
      ['users', 'edit'],
      ['users', 'passwd'],
      ['users', 'remove'],
      ['users', 'activate'],
      ['users', 'deactivate'],
      ['stores'],
      ['stores', 'list'],
      ['stores', 'add'],
      ['stores', 'edit'],
      ['stores', 'remove'],
      ['stats'],
    ];
    // help needs no process of its own: the same command tree, in-process
    const runs = await Promise.all(commands.map((c) => runRemit([...c, '--help'], {})));
    runs.forEach((run, i) => {
      expect(run.code, commands[i].join(' ')).toBe(0);
      expect(run.stdout, commands[i].join(' ')).toContain('範例：');
      expect(run.stdout, commands[i].join(' ')).toContain(`remit ${commands[i].join(' ')}`);
    });
    expect(runs[4].stdout).toContain('--password-stdin');
  });

  it('users add reads the password from stdin, and never waits for a missing one', async () => {
    const added = await r(
      [
        'users',
        'add',
        '--username',
        'tpe01',
        '--password-stdin',
        '--permissions',
        'view_payments,edit_payments',
        '--store',
        'TPE',
        '--accessible-stores',
        'TXG',
        '--json',
      ],
      {
        stdin: 'clerk-pass\nignored second line\n',
      },
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      username: 'tpe01',
      role: 'user',
      permissions: ['view_payments', 'edit_payments'],
    });
    expect(await canLogin('tpe01', 'clerk-pass')).toBe('ok');

    // a stdin without a final newline (printf "%s" "$PW") works too
    expect(
      (await r(['users', 'add', '--username', 'hq01', '--password-stdin'], { stdin: 'hq-pass-1' })).stdout,
    ).toContain('已新增用戶 hq01');
    expect(await canLogin('hq01', 'hq-pass-1')).toBe('ok');

    const empty = await r(['users', 'add', '--username', 'nopw', '--password-stdin'], { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--password-stdin');
    const both = await r(['users', 'add', '--username', 'nopw', '--password', 'tea-leaf-6', '--password-stdin'], {
      stdin: 'abcdef\n',
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('只能擇一');

    // No terminal and no value: say which flag is missing and exit 2 at once, even when stdin
    // is a pipe nobody writes to or closes.
    for (const stdin of [undefined, 'open'] as const) {
      const noPassword = await r(['users', 'add', '--username', 'nopw'], { stdin, timeoutMs: 10_000 });
      expect(noPassword.code).toBe(2);
      expect(noPassword.stderr).toContain('--password');
      expect(noPassword.stderr).toContain('--password-stdin');
      expect(noPassword.ms).toBeLessThan(8_000);
      const noUsername = await r(['users', 'add', '--password', 'tea-leaf-6'], { stdin, timeoutMs: 10_000 });
      expect(noUsername.code).toBe(2);
      expect(noUsername.stderr).toContain('--username');
    }
    const mismatch = await r(['users', 'add', '--username', 'ab', '--password-stdin'], { stdin: '123\n' });
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('用戶名至少需要3個字符');
    expect(mismatch.stderr).toContain('密碼至少需要6個字符');
    expect((await r(['users', 'add', '--username', 'TPE01', '--password', 'tea-leaf-6'])).stderr).toContain(
      '用戶名已存在',
    );
  });

  it('--password still works but warns on stderr that the process list shows it; stdin and prompts do not', async () => {
    const flag = await r(['users', 'add', '--username', 'flag01', '--password', 'tea-leaf-6', '--json']);
    expect(flag.code).toBe(0);
    expect(flag.stderr).toContain('警告：--password 會讓密碼出現在處理程序清單（ps）');
    expect(flag.stderr).toContain('--password-stdin');
    expect(JSON.parse(flag.stdout)).toMatchObject({ username: 'flag01' });
    const reset = await r(['users', 'passwd', 'flag01', '--password', 'tea-leaf-8']);
    expect([reset.code, reset.stderr.includes('警告：--password')]).toEqual([0, true]);
    const piped = await r(['users', 'add', '--username', 'flag02', '--password-stdin'], { stdin: 'tea-leaf-9\n' });
    expect([piped.code, piped.stderr]).toEqual([0, '']);
    // the usage error for a missing password names only the safe ways
    const none = await r(['users', 'add', '--username', 'flag03']);
    expect(none.stderr).toContain('--password-stdin');
    expect(none.stderr).not.toMatch(/--password 或/);
    await db('users').whereIn('username', ['flag01', 'flag02']).delete(); // the next tests list the users
  });

  it('refuses common, repetitive and username-equal passwords, saying why', async () => {
    for (const [name, pw, why] of [
      ['weak01', '123456', '重複或連續'],
      ['weak02', 'password', '太常見'],
      ['weak03', 'aaaaaa', '重複或連續'],
      ['weak04', 'weak04', '不能是用戶名'],
    ]) {
      const run = await r(['users', 'add', '--username', name, '--password-stdin'], { stdin: `${pw}\n` });
      expect([name, run.code, run.stderr.includes(why)]).toEqual([name, 1, true]);
    }
    expect(
      await db('users').whereIn('username', ['weak01', 'weak02', 'weak03', 'weak04']).count({ n: '*' }).first(),
    ).toEqual({ n: 0 });
    const reset = await r(['users', 'passwd', 'tpe01', '--password-stdin'], { stdin: 'TPE01!\n' });
    expect([reset.code, reset.stderr.includes('不能是用戶名')]).toEqual([1, true]);
    expect(await canLogin('tpe01', 'clerk-pass')).toBe('ok');
  });

  it('users list shows the users tab as a table aligned by display width, and JSON for scripts', async () => {
    const run = await r(['users', 'list']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['編號', '用戶名', '角色', '權限', '分店', '狀態', '建立時間']);
    const boss = lines.find((l) => l.includes('boss'))!;
    const tpe = lines.find((l) => l.includes('tpe01'))!;
    const hq = lines.find((l) => l.includes('hq01'))!;
    expect(boss).toContain('管理員');
    expect(boss).toContain('會員管理、分店管理');
    expect(boss).toContain('可存取所有分店');
    expect(tpe).toMatch(/用戶\s+查看匯款、編輯匯款\s+台北店 \(TPE\)、台中店 \(TXG\)\s+啟用/);
    expect(hq).toMatch(/無特殊權限\s+無分店權限\s+啟用/);
    // CJK text is two columns wide: the status column starts at the same column on every line
    const statusAt = (l: string) => displayWidth(l.slice(0, l.search(/(狀態|啟用|停用)/)));
    for (const l of [boss, tpe, hq]) expect(statusAt(l)).toBe(statusAt(lines[0]));

    const json = await r(['users', 'list', '--json']);
    const users = JSON.parse(json.stdout) as Array<{ username: string; created_at: string }>;
    expect(users.map((u) => u.username)).toEqual(['boss', 'tpe01', 'hq01']);
    expect(json.stdout).not.toMatch(/password/);
    // created time in Taiwan time
    expect(boss).toContain(formatTaipei(Date.parse(users[0].created_at)));
  });

  it('users edit changes role, permissions, stores and status through the same rules as the API', async () => {
    const edited = await r([
      'users',
      'edit',
      'tpe01',
      '--permissions',
      'view_payments',
      '--no-store',
      '--accessible-stores',
      'KHH,TXG',
    ]);
    expect(edited.code).toBe(0);
    expect(edited.stdout).toContain('已更新用戶 tpe01');
    expect(edited.stdout).toMatch(/權限\s+查看匯款\n/);
    expect(edited.stdout).toMatch(/分店\s+台中店 \(TXG\)、高雄店 \(KHH\)/);

    const json = await r(['users', 'edit', 'TPE01', '--store', 'tpe', '--accessible-stores', '', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      username: 'tpe01',
      store_id: 1,
      accessible_stores: [],
      permissions: ['view_payments'],
    });

    const inactive = await r(['users', 'edit', 'hq01', '--inactive']);
    expect(inactive.stdout).toMatch(/狀態\s+停用/);
    expect(await canLogin('hq01', 'hq-pass-1')).toBe('此帳戶已停用，請聯絡管理員');
    expect((await r(['users', 'edit', 'hq01', '--active'])).stdout).toMatch(/狀態\s+啟用/);

    const cases: Array<[string[], number, string]> = [
      [['users', 'edit', 'nobody', '--role', 'admin'], 1, '找不到用戶「nobody」'],
      [['users', 'edit', 'tpe01'], 2, '請指定要修改的項目'],
      [['users', 'edit', 'tpe01', '--active', '--inactive'], 2, '只能擇一'],
      [['users', 'edit', 'tpe01', '--permissions', 'view_payments,fly'], 1, '無效的權限：fly'],
      [['users', 'edit', 'tpe01', '--role', 'boss'], 2, '--role 必須是 admin（管理員） 或 user（用戶），收到「boss」'],
      [['users', 'edit', 'tpe01', '--store', 'NOPE'], 2, '找不到分店代碼「NOPE」'],
      [['users', 'edit', 'boss', '--role', 'user'], 1, '至少需要保留一位啟用中的管理員'],
      [['users', 'edit', 'boss', '--inactive'], 1, '至少需要保留一位啟用中的管理員'],
    ];
    // all refused, nothing written: run side by side (concurrent CLI runs must not trip each other)
    const runs = await Promise.all(cases.map(([args]) => r(args)));
    cases.forEach(([args, code, message], i) => {
      expect(runs[i].code, args.join(' ')).toBe(code);
      expect(runs[i].stderr, args.join(' ')).toContain(message);
    });
  });

  it('users unlock lets an account sign in again from the addresses that kept failing', async () => {
    const signIn = (password: string) =>
      login({ db, security }, { username: 'boss', password }, '192.0.2.77').then(
        () => 'ok',
        (e: Error) => e.message,
      );
    for (let i = 0; i < 10; i++) expect(await signIn('wrong-guess')).toBe('用戶名或密碼錯誤');
    expect(await signIn('boss-pass')).toMatch(/^登入失敗次數過多/);
    const run = await r(['users', 'unlock', 'BOSS']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('已解除用戶 boss 的登入限制（清除 10 筆登入失敗紀錄）\n');
    expect(await signIn('boss-pass')).toBe('ok');
    const missing = await r(['users', 'unlock', 'nobody']);
    expect(missing.code).toBe(1);
  });

  it('users deactivate and activate toggle sign-in; the last active admin is protected', async () => {
    const off = await r(['users', 'deactivate', 'tpe01']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('已停用用戶 tpe01');
    expect((await r(['users', 'list'])).stdout).toMatch(/tpe01.*停用/);
    expect(await canLogin('tpe01', 'clerk-pass')).toBe('此帳戶已停用，請聯絡管理員');
    const on = await r(['users', 'activate', 'tpe01']);
    expect(on.stdout).toContain('已啟用用戶 tpe01');
    expect(await canLogin('tpe01', 'clerk-pass')).toBe('ok');

    const lastAdmin = await r(['users', 'deactivate', 'boss']);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toContain('至少需要保留一位啟用中的管理員');
    const unknown = await r(['users', 'activate', 'ghost']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('找不到用戶「ghost」');
  });

  it('users passwd resets a password: the old one and older tokens stop working, the new one signs in', async () => {
    const before = await login({ db, security }, { username: 'tpe01', password: 'clerk-pass' });
    expect((await authenticate({ db, security }, before.token)).username).toBe('tpe01');

    const run = await r(['users', 'passwd', 'tpe01', '--password-stdin'], { stdin: 'fresh-pass-2\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('已重設用戶 tpe01 的密碼');
    expect(await canLogin('tpe01', 'clerk-pass')).toBe('用戶名或密碼錯誤');
    expect(await canLogin('tpe01', 'fresh-pass-2')).toBe('ok');
    await expect(authenticate({ db, security }, before.token)).rejects.toThrow('登入已失效');

    expect((await r(['users', 'passwd', 'tpe01', '--password', 'third-pass-3'])).code).toBe(0);
    expect(await canLogin('tpe01', 'third-pass-3')).toBe('ok');

    const short = await r(['users', 'passwd', 'tpe01', '--password', '123']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('密碼至少需要6個字符');
    const missing = await r(['users', 'passwd', 'tpe01'], { stdin: 'open', timeoutMs: 10_000 });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--password-stdin');
    const unknown = await r(['users', 'passwd', 'ghost', '--password', 'tea-leaf-6']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('找不到用戶「ghost」');
    expect(await canLogin('tpe01', 'third-pass-3')).toBe('ok');
  });

  it('users remove needs --yes without a terminal and keeps the last admin', async () => {
    const noYes = await r(['users', 'remove', 'hq01'], { stdin: 'open', timeoutMs: 10_000 });
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect(await canLogin('hq01', 'hq-pass-1')).toBe('ok');

    const removed = await r(['users', 'remove', 'hq01', '--yes']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('已刪除用戶 hq01');
    expect(await canLogin('hq01', 'hq-pass-1')).toBe('用戶名或密碼錯誤');

    const again = await r(['users', 'remove', 'hq01', '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('找不到用戶「hq01」');
    const boss = await r(['users', 'remove', 'boss', '--yes']);
    expect(boss.code).toBe(1);
    expect(boss.stderr).toContain('至少需要保留一位啟用中的管理員');

    // with a second admin the first may go
    expect(
      (await r(['users', 'add', '--username', 'boss2', '--password', 'boss-pass-2', '--role', 'admin'])).code,
    ).toBe(0);
    expect((await r(['users', 'remove', 'boss2', '--yes'])).code).toBe(0);
  });

  it('stores list, edit and remove', async () => {
    const list = await r(['stores', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0].split(/\s+/)).toEqual(['編號', '分店代碼', '分店名稱', '建立時間']);
    expect(list.stdout).toMatch(/1\s+TPE\s+台北店\s+\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/);
    expect(JSON.parse((await r(['stores', 'list', '--json'])).stdout).map((s: { code: string }) => s.code)).toEqual([
      'TPE',
      'TXG',
      'KHH',
    ]);

    const renamed = await r(['stores', 'edit', 'txg', '--name', '台中旗艦店']);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toContain('已更新分店 台中旗艦店 (TXG)');
    const recoded = await r(['stores', 'edit', 'TXG', '--code', 'TXG1', '--json']);
    expect(JSON.parse(recoded.stdout)).toMatchObject({ name: '台中旗艦店', code: 'TXG1' });

    const cases: Array<[string[], number, string]> = [
      [['stores', 'edit', 'NOPE', '--name', 'x'], 2, '找不到分店代碼「NOPE」（用 remit stores list 查看）'],
      [['stores', 'edit', 'TXG1'], 2, '--name 或 --code'],
      [['stores', 'edit', 'TXG1', '--code', 'tpe'], 1, '分店代碼已存在'],
      [['stores', 'edit', 'TXG1', '--code', 'bad code!'], 1, '分店代碼只能包含'],
      [['stores', 'edit', 'TXG1', '--name', ''], 2, '選項 --name 的值不能是空白'],
      [['stores', 'remove', 'TPE', '--yes'], 1, '此分店仍有匯款記錄或用戶，無法刪除'],
      [['stores', 'remove', 'NOPE', '--yes'], 2, '找不到分店代碼「NOPE」（用 remit stores list 查看）'],
      [['stores', 'link', 'NOPE'], 2, '找不到分店代碼「NOPE」（用 remit stores list 查看）'],
      [['stores', 'remove', 'TXG1'], 2, '--yes'],
    ];
    const runs = await Promise.all(cases.map(([args]) => r(args, { stdin: 'open', timeoutMs: 10_000 })));
    cases.forEach(([args, code, message], i) => {
      expect(runs[i].code, args.join(' ')).toBe(code);
      expect(runs[i].stderr, args.join(' ')).toContain(message);
    });

    const removed = await r(['stores', 'remove', 'TXG1', '--yes']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('已刪除分店 台中旗艦店 (TXG1)');
    expect((await r(['stores', 'list'])).stdout).not.toContain('TXG1');
  });

  it('stats shows the dashboard: four totals and the per-store table, filtered by store and Taiwan dates', async () => {
    const ctx = { db, security, actor: systemActor('test'), ip: null };
    const pay = async (store_id: number, paid_at: string, amount: number, status?: string) => {
      const p = await createPayment(ctx, { store_id, last_five: '01234', paid_at, amount });
      if (status) await updatePayment(ctx, p.uuid, { status });
    };
    const KHH = 3;
    await pay(1, '2026-11-17T23:59', 1000, '已入帳');
    await pay(1, '2026-11-18T00:00', 234_567);
    await pay(1, '2026-11-18T09:15', 1200, '未入帳');
    await pay(KHH, '2026-11-19T10:00', 50, '已入帳');

    const all = await r(['stats']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/總分店數\s+2\n/);
    expect(all.stdout).toMatch(/總收款筆數\s+4\n/);
    expect(all.stdout).toMatch(/總金額\s+NT\$236,817\n/);
    expect(all.stdout).toMatch(/已入帳筆數\s+2\n/);
    expect(all.stdout).toMatch(/分店代碼\s+分店名稱\s+筆數\s+金額\s+已入帳\s+未確認\s+未入帳/);
    expect(all.stdout).toMatch(/TPE\s+台北店\s+3\s+NT\$236,767\s+1\s+1\s+1\n/);
    expect(all.stdout).toMatch(/KHH\s+高雄店\s+1\s+NT\$50\s+1\s+0\s+0\n/);

    // --from/--to are inclusive Taiwan days: 2026-11-17T23:59 Taiwan time is out, 00:00 on the 18th is in
    const day = await r(['stats', '--store', 'tpe', '--from', '2026-11-18', '--to', '2026-11-18']);
    expect(day.code).toBe(0);
    expect(day.stdout).toContain('期間：2026-11-18 起 至 2026-11-18');
    expect(day.stdout).toMatch(/總分店數\s+1\n/);
    expect(day.stdout).toMatch(/TPE\s+台北店\s+2\s+NT\$235,767\s+0\s+1\s+1\n/);
    expect(day.stdout).not.toContain('KHH');

    const json = await r(['stats', '--store', 'TPE,KHH', '--from', '2026-11-18', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(await statsSummary(ctx, { store_id: [1, KHH], from: '2026-11-18' }));

    const badDate = await r(['stats', '--from', '2026-13-01']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toBe('錯誤：--from 沒有這一天：2026-13-01（格式正確，但這個日期不存在）\n');
    const badStore = await r(['stats', '--store', 'NOPE']);
    expect(badStore.code).toBe(2);
    expect(badStore.stderr).toContain('找不到分店代碼「NOPE」');
  });

  it('an empty database says so instead of printing empty tables', async () => {
    const fresh = join(dir, 'empty.sqlite');
    expect((await remit(['--db', fresh, 'migrate'])).code).toBe(0);
    expect((await remit(['--db', fresh, 'users', 'list'])).stdout).toBe('暫無會員記錄\n');
    expect((await remit(['--db', fresh, 'stores', 'list'])).stdout).toContain('尚無分店');
    expect(JSON.parse((await remit(['--db', fresh, 'users', 'list', '--json'])).stdout)).toEqual([]);
    const stats = await remit(['--db', fresh, 'stats']);
    expect(stats.stdout).toMatch(/總分店數\s+0\n/);
    expect(stats.stdout).toContain('沒有分店資料');
  });

  // On a terminal the same commands prompt instead (`script` gives the child a pseudo-terminal).
  const hasScript = spawnSync('script', ['--version']).status === 0;
  describe.skipIf(!hasScript)('on a terminal', () => {
    /** Runs remit under a pseudo-terminal, typing each answer once its prompt text appears. */
    function onTerminal(args: string[], answers: Array<[prompt: string, keys: string]>): Promise<Run> {
      const started = Date.now();
      const command = [process.execPath, BIN, '--db', dbFile, ...args]
        .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
        .join(' ');
      return new Promise((resolve, reject) => {
        const child = spawn('script', ['-qec', command, '/dev/null'], { env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        let seen = 0;
        const pending = [...answers];
        child.stdout.on('data', (d) => {
          out += d;
          const next = pending[0];
          const at = next ? out.indexOf(next[0], seen) : -1;
          if (next && at >= 0) {
            pending.shift();
            seen = at + next[0].length;
            setTimeout(() => child.stdin.write(next[1]), 100);
          }
        });
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`remit ${args.join(' ')} on a terminal did not finish\n${out}`));
        }, 20_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout: out, stderr: '', raw: Buffer.from(out), ms: Date.now() - started });
        });
      });
    }

    it('passwd prompts twice without echo; a mismatch is refused with the spec message', async () => {
      const ok = await onTerminal(
        ['users', 'passwd', 'tpe01'],
        [
          ['新密碼：', 'typed-pass-4\r'],
          ['再次輸入新密碼：', 'typed-pass-4\r'],
        ],
      );
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('已重設用戶 tpe01 的密碼');
      expect(ok.stdout).not.toContain('typed-pass-4');
      expect(await canLogin('tpe01', 'typed-pass-4')).toBe('ok');

      const mismatch = await onTerminal(
        ['users', 'passwd', 'tpe01'],
        [
          ['新密碼：', 'other-pass-5\r'],
          ['再次輸入新密碼：', 'other-pass-6\r'],
        ],
      );
      expect(mismatch.code).toBe(1);
      expect(mismatch.stdout).toContain('密碼確認不匹配');
      expect(await canLogin('tpe01', 'typed-pass-4')).toBe('ok');
    });

    it('remove asks first, showing username and role; "no" changes nothing', async () => {
      const no = await onTerminal(['users', 'remove', 'tpe01'], [['(y/N)', 'n\r']]);
      expect(no.stdout).toContain('確定要刪除用戶 tpe01（用戶）嗎？');
      expect(no.code).toBe(1);
      expect(no.stdout).toContain('已取消');
      expect(await canLogin('tpe01', 'typed-pass-4')).toBe('ok');
      const yes = await onTerminal(['users', 'remove', 'tpe01'], [['(y/N)', 'y\r']]);
      expect(yes.code).toBe(0);
      expect(yes.stdout).toContain('已刪除用戶 tpe01');
    });
  });
});
