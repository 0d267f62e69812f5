/** CLI commands run in-process against a real database: what an operator types and reads. */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment, systemActor } from '../core/index.js';
import { runRemit } from './helpers/cliInProcess.js';
import { createTestDb, DB_KINDS, PG_URL, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { seed } from './helpers/fixtures.js';

describe.each(DB_KINDS)('remit stats and export in-process on %s', (kind) => {
  let t: TestDb;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDb(kind);
    const f = await seed(t.db);
    await createPayment(
      { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null },
      { last_five: '12345', paid_at: '2026-11-10T10:00', amount: 1500, store_id: f.stores.A.id },
    );
    if (t.config.client === 'pg') {
      const url = `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${t.where}`)}`;
      env = { DATABASE_URL: url, REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru' };
    } else env = { REMIT_DB: t.where };
  });
  afterAll(() => t?.cleanup());

  it('remit stats counts the payments of a range', async () => {
    const r = await runRemit(['stats', '--from', '2026-11-10', '--to', '2026-11-10', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ totalPayments: 1, totalAmount: 1500 });
  });

  it('remit stats, export, audit and reconcile refuse a start after the end as a usage error with the one message', async () => {
    const commands = [
      ['stats', '--from', '2026-11-12', '--to', '2026-11-10'],
      ['export', '--from', '2026-11-12', '--to', '2026-11-10', '-o', '-'],
      ['audit', '--since', '2026-11-12', '--until', '2026-11-10'],
      ['reconcile', 'statement.csv', '--from', '2026-11-12', '--to', '2026-11-10'],
    ];
    for (const args of commands) {
      const r = await runRemit(args, env);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toBe('錯誤：開始日期（2026-11-12）不能晚於結束日期（2026-11-10）\n');
      expect(r.stdout, args[0]).toBe('');
    }
  });

  it('remit stats, export, audit and reconcile refuse a date out of range with its flag, never a crash', async () => {
    const commands: Array<[string[], string]> = [
      [['stats', '--from', '9999-12-01', '--to', '9999-12-31'], '--from 日期超出範圍：9999-12-01'],
      [['export', '--from', '2026-11-01', '--to', '9999-12-31', '-o', '-'], '--to 日期超出範圍：9999-12-31'],
      [['audit', '--since', '1999-12-31'], '--since 日期超出範圍：1999-12-31'],
      [['reconcile', 'statement.csv', '--from', '2026-11-01', '--to', '2100-01-01'], '--to 日期超出範圍：2100-01-01'],
    ];
    for (const [args, said] of commands) {
      const r = await runRemit(args, env);
      expect([args[0], r.code, r.stderr]).toEqual([
        args[0],
        2,
        `錯誤：${said}（請輸入 2000-01-01 到 2099-12-31 之間的日期）\n`,
      ]);
    }
  });

  it('remit audit --until keeps the entries up to that Taiwan day', async () => {
    const until = await runRemit(['audit', '--until', '2020-01-01', '--json'], env);
    expect(until.code).toBe(0);
    expect(until.stdout).toBe('');
    const all = await runRemit(['audit', '--json'], env);
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).action),
    ).toContain('create');
  });

  it('remit export -o writes a file only its owner reads (0600), also over an existing 0644 file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-export-mode-'));
    try {
      const fresh = join(dir, 'fresh.xlsx');
      const r = await runRemit(['export', '-o', fresh], env);
      expect(r.code, r.stderr).toBe(0);
      expect(statSync(fresh).mode & 0o777).toBe(0o600);
      const old = join(dir, 'old.csv');
      writeFileSync(old, 'x');
      chmodSync(old, 0o644);
      const again = await runRemit(['export', '--from', '2026-11-10', '--to', '2026-11-10', '-o', old], env);
      expect(again.code, again.stderr).toBe(0);
      expect(statSync(old).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('remit export writes the export to the audit log: the operator, the filter and the rows', async () => {
    const before = await t.db('audit_log').where({ action: 'export' }).count({ n: '*' }).first();
    const r = await runRemit(
      ['export', '--from', '2026-11-10', '--to', '2026-11-10', '--format', 'json', '-o', '-'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = await t.db('audit_log').where({ action: 'export' }).orderBy('id');
    expect(rows.length).toBe(Number((before as { n: number | string }).n) + 1);
    const last = rows[rows.length - 1];
    expect(last).toMatchObject({ actor_username: 'cli', actor_id: null, entity: 'payment' });
    expect(JSON.parse(last.after)).toEqual({
      filter: { paid_at_gte: '2026-11-10', paid_at_lte: '2026-11-10' },
      format: 'json',
      count: 1,
    });
  });

  it('a missing file and a file of the wrong kind are bad data, as a fake .xlsx is: exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-bad-files-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'x');
      writeFileSync(join(dir, 'fake.xlsx'), 'not a spreadsheet');
      const runs = {
        missing: await runRemit(['import', join(dir, 'nope.xlsx')], env),
        wrongKind: await runRemit(['import', join(dir, 'notes.txt')], env),
        fake: await runRemit(['import', join(dir, 'fake.xlsx')], env),
        statement: await runRemit(['reconcile', join(dir, 'nope.csv')], env),
      };
      expect(Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, r.code]))).toEqual({
        missing: 1,
        wrongKind: 1,
        fake: 1,
        statement: 1,
      });
      expect(runs.missing.stderr).toBe(`錯誤：找不到檔案：${join(dir, 'nope.xlsx')}\n`);
      expect(runs.wrongKind.stderr).toBe('錯誤：不是可匯入的檔案：請選擇 .xlsx、.xls 或 .csv 檔案\n');
      expect(runs.statement.stderr).toBe(`錯誤：找不到檔案：${join(dir, 'nope.csv')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names an unknown store code as a usage error', async () => {
    const r = await runRemit(['stats', '--store', 'TPE,NOPE'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('錯誤：找不到分店代碼「NOPE」（用 remit stores list 查看）\n');
  });
});
