/** `remit audit`: the audit log as a table or JSON lines, filtered by date and user. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, taipeiDate } from '../core/index.js';
import { assertBuilt, remit } from './helpers/cli.js';

describe('remit audit', () => {
  let dir: string;
  let dbFile: string;
  const r = (args: string[]) => remit(['--db', dbFile, ...args]);

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-cli-audit-'));
    dbFile = join(dir, 'remit.sqlite');
    // a new installation starts with remit migrate: no other command creates the database
    expect((await r(['migrate'])).code).toBe(0);
    expect((await r(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
    expect((await r(['users', 'add', '--username', 'tpe01', '--password', 'clerk-pass', '--store', 'TPE'])).code).toBe(
      0,
    );
    expect((await r(['users', 'deactivate', 'tpe01'])).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a table, newest first, with Chinese labels', async () => {
    const run = await r(['audit']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/時間\s+用戶\s+動作\s+對象\s+編號\s+位址\s+內容/);
    const body = lines.filter((l) => /^\d{4}\/\d{2}\/\d{2} /.test(l));
    expect(body).toHaveLength(3);
    expect(body[0]).toContain('修改');
    expect(body[0]).toContain('會員');
    expect(body[2]).toContain('新增');
    expect(body[2]).toContain('分店');
    // the command line's own entries read 命令列
    expect(run.stdout).toContain('命令列');
    expect(run.stdout).not.toMatch(/\bcli\b/);
  });

  it('says what changed in words, as the back office does: Chinese field names, store names, no JSON', async () => {
    const run = await r(['audit']);
    const body = run.stdout
      .trim()
      .split('\n')
      .filter((l) => /^\d{4}\/\d{2}\/\d{2} /.test(l));
    expect(body[0]).toContain('狀態：啟用 → 停用');
    expect(body[1]).toContain('用戶名：tpe01，角色：用戶，權限：無特殊權限，所屬分店：台北店 (TPE)');
    expect(body[2]).toContain('分店名稱：台北店，分店代碼：TPE');
    expect(run.stdout).not.toMatch(/[{}"]|store_id|is_active|\d{4}-\d{2}-\d{2}T/);
  });

  it('--json prints one entry a line with before and after', async () => {
    const run = await r(['audit', '--json']);
    expect(run.code).toBe(0);
    const entries = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.map((e) => `${e.action} ${e.entity}`)).toEqual(['update user', 'create user', 'create store']);
    expect(entries[0].before).toMatchObject({ username: 'tpe01', is_active: true });
    expect(entries[0].after).toMatchObject({ username: 'tpe01', is_active: false });
    expect(entries[0].at).toMatch(/Z$/);
  });

  it('--since and --user narrow the list', async () => {
    const today = taipeiDate(Date.now());
    expect((await r(['audit', '--since', today, '--json'])).stdout.trim().split('\n')).toHaveLength(3);
    const future = await r(['audit', '--since', addDays(today, 1)]);
    expect(future.code).toBe(0);
    expect(future.stdout).toBe('暫無稽核紀錄\n');
    expect((await r(['audit', '--since', addDays(today, 1), '--json'])).stdout).toBe('');
    const cli = await r(['audit', '--user', 'CLI', '--json']);
    expect(cli.stdout.trim().split('\n')).toHaveLength(3);
    expect((await r(['audit', '--user', 'tpe01', '--json'])).stdout).toBe('');
  });

  it('bad input exits 2 with a message', async () => {
    for (const args of [['--since', '2026-13-01'], ['--since', 'yesterday'], ['--limit', '0'], ['--bogus']]) {
      const run = await r(['audit', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/錯誤|error/i);
    }
    const help = await remit(['audit', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('範例：');
  });
});
