/**
 * `remit import`, `remit export` and `remit sample` as the ops person and cron run them: the real
 * binary, real .xlsx and .xls files, no terminal.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, parsePaymentsWorkbook } from '../core/index.js';
import { HEADERS } from '../core/payments/sheetFile.js';
import { assertBuilt, remit } from './helpers/cli.js';

const stores = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
];

function workbook(rows: unknown[][], bookType: 'xlsx' | 'biff8' = 'xlsx'): Buffer {
  const ws = XLSX.utils.aoa_to_sheet([HEADERS, ...rows]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, '匯款記錄');
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
}

const good = [
  ['2026/11/18', { t: 's', v: '01234', z: '@' }, '2026/11/18 09:15', 1500, '早班', '台北店', '已點收'],
  ['2026/11/18', { t: 'n', v: 2345, z: '00000' }, '2026-11-18 10:30', 2300, '', 'TXG', ''],
  [],
  ['2026/11/19', '11111', '2026/11/19 20:00', 800, '晚班', '台中店 (TXG)', '未點收'],
];

describe('remit import / export / sample', () => {
  let dir: string;
  let db: string;
  const run = (args: string[], extra: { input?: string } = {}) => remit(['--db', db, ...args], { cwd: dir, ...extra });
  const count = async () => {
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      return Number(((await k('payments').count({ n: '*' }).first()) as any).n);
    } finally {
      await k.destroy();
    }
  };

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-xl-'));
    db = join(dir, 'remit.sqlite');
    // a new installation starts with remit migrate: no other command creates the database
    expect((await run(['migrate'])).code).toBe(0);
    expect((await run(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
    expect((await run(['stores', 'add', '--name', '台中店', '--code', 'TXG'])).code).toBe(0);
    writeFileSync(join(dir, 'good.xlsx'), workbook(good));
    writeFileSync(join(dir, 'good.xls'), workbook(good, 'biff8'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a good .xlsx, then the same file again adds nothing', async () => {
    const first = await run(['import', 'good.xlsx']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('共 3 筆資料，3 筆可匯入');
    expect(first.stdout).toContain('成功匯入 3 筆記錄');
    expect(await count()).toBe(3);

    const again = await run(['import', 'good.xlsx']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('略過 3 筆與已有記錄重複的資料');
    expect(again.stdout).toContain('成功匯入 0 筆記錄');
    expect(await count()).toBe(3);

    const xls = await run(['import', 'good.xls', '--json']);
    expect(xls.code).toBe(0);
    expect(JSON.parse(xls.stdout)).toMatchObject({
      rows: 3,
      dry_run: false,
      imported: 0,
      would_import: 0,
      skipped: 3,
      duplicates: [2, 3, 5],
    });
  });

  it('imports nothing when any row is invalid, listing the first five errors and how many more, exit 1', async () => {
    const bad = Array.from({ length: 7 }, (_, i) => ['2026/11/18', '123', '2026/11/18 09:00', 100 + i, '', '', '']);
    writeFileSync(
      join(dir, 'bad.xlsx'),
      workbook([...good, ...bad, ['2026/11/18', '22222', '', 5, '', '沒有這家', '']]),
    );
    const before = await count();
    const r = await run(['import', 'bad.xlsx']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('第 6 行：後五碼必須是5位數字');
    expect(r.stdout).toContain('…還有 4 個錯誤');
    expect(r.stderr).toContain('沒有匯入任何記錄');
    expect(await count()).toBe(before);
    const json = JSON.parse((await run(['import', 'bad.xlsx', '--json'])).stdout);
    expect(json.errors).toContain('第 13 行：匯款時間不能為空');
    expect(json.errors).toContain('第 13 行：找不到對應的分店「沒有這家」');
    expect(json).toMatchObject({ imported: 0, would_import: 0, skipped: 0, duplicates: [], skipped_rows: [] });
  });

  it('--dry-run reports without writing; --allow-duplicates stores repeats', async () => {
    const before = await count();
    const dry = await run(['import', 'good.xlsx', '--dry-run', '--allow-duplicates']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('試算完成：將匯入 3 筆記錄（未寫入）');
    expect(await count()).toBe(before);
    const dup = await run(['import', 'good.xlsx', '--allow-duplicates']);
    expect(dup.stdout).toContain('成功匯入 3 筆記錄');
    expect(await count()).toBe(before + 3);
  });

  it("--as imports with that user's permissions and scope, --store fills empty store cells", async () => {
    await run([
      'users',
      'add',
      '--username',
      'txg_mgr',
      '--password',
      'tea-leaf-1',
      '--permissions',
      'manage_payments',
      '--store',
      'TXG',
    ]);
    await run([
      'users',
      'add',
      '--username',
      'viewer',
      '--password',
      'tea-leaf-1',
      '--permissions',
      'view_payments',
      '--store',
      'TXG',
    ]);
    writeFileSync(join(dir, 'txg.xlsx'), workbook([['2026/11/20', '33333', '2026/11/20 12:00', 999, '', '', '']]));
    const denied = await run(['import', 'txg.xlsx', '--as', 'viewer']);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('權限不足');
    const outOfScope = await run(['import', 'good.xlsx', '--as', 'txg_mgr', '--allow-duplicates']);
    expect(outOfScope.code).toBe(1);
    expect(outOfScope.stderr).toContain('權限不足');
    const ok = await run(['import', 'txg.xlsx', '--as', 'txg_mgr', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).imported).toBe(1);
    const k = openDatabase({ client: 'sqlite', filename: db });
    const row = await k('payments').where({ last_five: '33333' }).first();
    const mgr = await k('users').where({ username: 'txg_mgr' }).first();
    await k.destroy();
    expect(Number(row.store_id)).toBe(2);
    expect(Number(row.created_by)).toBe(Number(mgr.id));
    writeFileSync(join(dir, 'nostore.xlsx'), workbook([['2026/11/20', '44444', '2026/11/20 12:00', 999, '', '', '']]));
    const filled = JSON.parse((await run(['import', 'nostore.xlsx', '--store', 'TXG', '--dry-run', '--json'])).stdout);
    expect(filled).toMatchObject({
      dry_run: true,
      imported: 0,
      would_import: 1,
      skipped: 0,
      duplicates: [],
      skipped_rows: [],
    });
  });

  it('refuses what is not a spreadsheet and wrong usage with clear messages and exit codes', async () => {
    writeFileSync(join(dir, 'random.xls'), Buffer.from('just some text, not excel'));
    const random = await run(['import', 'random.xls']);
    expect(random.code).toBe(1);
    expect(random.stderr).toContain('不是 Excel 檔案');
    // a missing file and one that is no spreadsheet are both bad data: exit 1
    const missing = await run(['import', 'nope.xlsx']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('錯誤：找不到檔案：nope.xlsx\n');
    const noArg = await run(['import']);
    expect(noArg.code).toBe(2);
    const csv = await run(['import', 'data.csv']);
    expect(csv.code).toBe(1);
  });

  it('exports to the spec file name, and the file re-imports unchanged', async () => {
    const before = await count();
    // not at a terminal (cron): all went well, nothing said
    const r = await run(['export']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    const name = readdirSync(dir).find((f) => /^匯款記錄_全部_\d{12}\.xlsx$/.test(f));
    expect(name).toBeDefined();
    const said = await run(['export', '--verbose', '-o', join(dir, 'said.xlsx')]);
    expect(said.stdout).toBe(`已匯出 ${before} 筆記錄：${join(dir, 'said.xlsx')}\n`);
    const parsed = parsePaymentsWorkbook(readFileSync(join(dir, name!)), { stores, allowDuplicates: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toHaveLength(before);
    const reimport = await run(['import', name!]);
    expect(reimport.code).toBe(0);
    expect(reimport.stdout).toContain('成功匯入 0 筆記錄');
    expect(await count()).toBe(before);
  });

  it('exports for cron: filters, formats, stdout; a quiet day is a header row and exit 0, or exit 1 with --fail-empty', async () => {
    const csv = await run([
      'export',
      '--from',
      '2026-11-18',
      '--to',
      '2026-11-18',
      '--store',
      'TPE',
      '--format',
      'csv',
      '-o',
      '-',
    ]);
    expect(csv.code).toBe(0);
    expect(csv.raw.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.stdout.trim().split(/\r\n/);
    expect(lines[0].replace(/^\uFEFF/, '')).toBe('營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態,付款方式');
    expect(lines.slice(1).every((l) => l.includes('台北店 (TPE)') && l.startsWith('2026/11/18,'))).toBe(true);

    const json = await run(['export', '--status', '已入帳', '--format', 'json', '-o', '-']);
    const list = JSON.parse(json.stdout);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((p: any) => p.status === '已入帳')).toBe(true);

    const file = join(dir, 'nightly.xlsx');
    const named = await run(['export', '--from', '2026-11-19', '-o', file]);
    expect(named.code).toBe(0);
    expect(
      parsePaymentsWorkbook(readFileSync(file), { stores }).rows.every((p) => p.paid_at >= '2026-11-18T16:00:00.000Z'),
    ).toBe(true);

    const quiet = join(dir, 'quiet.csv');
    const empty = await run(['export', '--yesterday', '-o', quiet]);
    expect([empty.code, empty.stdout, empty.stderr]).toEqual([0, '', '']);
    expect(
      readFileSync(quiet, 'utf8')
        .replace(/^\uFEFF/, '')
        .trim(),
    ).toBe('營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態,付款方式');
    const emptyJson = await run(['export', '--yesterday', '--format', 'json', '-o', '-']);
    expect([emptyJson.code, JSON.parse(emptyJson.stdout)]).toEqual([0, []]);
    const alarm = await run(['export', '--yesterday', '--fail-empty', '-o', join(dir, 'never.xlsx')]);
    expect(alarm.code).toBe(1);
    expect(alarm.stderr).toBe('錯誤：沒有資料可匯出\n');
    expect(readdirSync(dir)).not.toContain('never.xlsx');

    expect((await run(['export', '--from', '2026-02-30'])).code).toBe(2);
    expect((await run(['export', '--status', '完成'])).code).toBe(2);
    expect((await run(['export', '--today', '--yesterday'])).code).toBe(2);
    expect((await run(['export', '--format', 'pdf'])).code).toBe(2);
    expect((await run(['export', '--store', 'NOPE'])).code).toBe(2);
  });

  it('writes the sample, which imports cleanly', async () => {
    const r = await run(['sample']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('匯款記錄_匯入範例.xlsx');
    const parsed = parsePaymentsWorkbook(readFileSync(join(dir, '匯款記錄_匯入範例.xlsx')), { stores });
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toHaveLength(7);
    const dry = await run(['import', '匯款記錄_匯入範例.xlsx', '--dry-run']);
    expect(dry.code).toBe(0);
    // Like `remit backup`: an existing file is kept unless --force says otherwise.
    writeFileSync(join(dir, '匯款記錄_匯入範例.xlsx'), 'mine');
    const again = await run(['sample']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('檔案已存在：匯款記錄_匯入範例.xlsx（要覆蓋請加 --force）');
    expect(readFileSync(join(dir, '匯款記錄_匯入範例.xlsx'), 'utf8')).toBe('mine');
    expect((await run(['sample', '--force'])).code).toBe(0);
    expect(parsePaymentsWorkbook(readFileSync(join(dir, '匯款記錄_匯入範例.xlsx')), { stores }).rows).toHaveLength(7);
  });
});
