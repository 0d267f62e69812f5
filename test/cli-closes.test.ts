/**
 * From the command line, in-process on a real database: remit cash-out, close, closes,
 * day and export --daybook, as an operator or cron types them; the JSON shapes the issue gives;
 * closing a day already closed exits 1 and says so; `remit close` and `remit closes` agree.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstant } from '../core/index.js';
import { runRemit } from './helpers/cliInProcess.js';
import { createTestDb, DB_KINDS, PG_URL, type TestDb } from './helpers/db.js';
import { seed, type Fixture } from './helpers/fixtures.js';

describe.each(DB_KINDS)('remit close, cash-out, closes, day and export --daybook on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    dir = mkdtempSync(join(tmpdir(), 'remit-closes-'));
    const now = Date.now();
    const rows: Array<[string, number, string, boolean?]> = [
      ['2026-11-20T09:30', 1200, '現金'],
      ['2026-11-20T10:00', 800, '刷卡'],
      ['2026-11-20T11:00', 3000, '匯款'],
      ['2026-11-20T12:00', 450, '電子支付'],
      ['2026-11-20T13:00', 200, '現金', true],
    ];
    for (const [time, amount, method, employee] of rows) {
      await t.db('payments').insert({
        uuid: randomUUID(),
        store_id: f.stores.A.id,
        last_five: method === '匯款' ? '54321' : '',
        paid_at: parseInstant(time)!,
        amount,
        status: method === '匯款' ? '未確認' : '已入帳',
        note: '',
        method,
        employee: Boolean(employee),
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

  it('records cash out, and refuses a wrong kind or amount as usage (exit 2)', async () => {
    const r = await runRemit(
      [
        'cash-out',
        'TPE',
        '--amount',
        '300',
        '--kind',
        '店內支出',
        '--category',
        '清潔用品',
        '--note',
        '垃圾袋',
        '--at',
        '2026-11-20T15:00',
      ],
      env,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('已記錄 TPE 店內支出（清潔用品） NT$300（2026/11/20 15:00）\n');
    const w = await runRemit(
      ['cash-out', 'TPE', '--amount', '1,000', '--kind', '提領', '--at', '2026-11-20T18:00', '--json'],
      env,
    );
    expect(JSON.parse(w.stdout)).toMatchObject({ kind: '提領', amount: 1000, category: '' });
    const kindBad = await runRemit(['cash-out', 'TPE', '--amount', '300', '--kind', '借款'], env);
    expect([kindBad.code, kindBad.stderr]).toEqual([2, '錯誤：--kind 必須是 店內支出 或 提領，收到「借款」\n']);
    const amountBad = await runRemit(['cash-out', 'TPE', '--amount', '3.5', '--kind', '提領'], env);
    expect([amountBad.code, amountBad.stderr]).toEqual([2, '錯誤：--amount 必須是新台幣整數金額，收到「3.5」\n']);
    const store = await runRemit(['cash-out', 'NOPE', '--amount', '3', '--kind', '提領'], env);
    expect(store.code).toBe(2);
    expect(store.stderr).toMatch(/找不到分店代碼「NOPE」/);
  });

  it("remit close prints the figures, --json in the issue's shape; a second close exits 1 and says so", async () => {
    const first = await runRemit(['close', 'TPE', '--date', '2026-11-20', '--counted', '4150'], env);
    expect([first.code, first.stderr]).toEqual([
      1,
      '錯誤：這是本店第一次日結，請填寫開帳現金（這天開始營業時抽屜裡的現金）\n',
    ]);
    const r = await runRemit(
      ['close', 'TPE', '--date', '2026-11-20', '--counted', '4150', '--opening', '4000', '--note', '第一次', '--json'],
      env,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"store":"TPE","date":"2026-11-20","opening":4000,"cash_in":1400,"cash_out":1300,"expected":4100,"counted":4150,"difference":50,"by_method":{"匯款":3000,"現金":1400,"刷卡":800,"電子支付":450}}\n',
    );
    const again = await runRemit(['close', 'TPE', '--date', '2026-11-20', '--counted', '4150'], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      /^錯誤：台北店 \(TPE\) 2026-11-20 已經結帳（命令列，2026\/\d\d\/\d\d \d\d:\d\d），不能再結一次；如需更正，請由具「匯款管理」權限者重新開帳\n$/,
    );
    // the next day, for people: every figure with its name
    const next = await runRemit(['close', 'TPE', '--date', '2026-11-21', '--counted', '4100'], env);
    expect(next.code).toBe(0);
    expect(next.stdout.split('\n').map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      '台北店 (TPE) 2026-11-21 日結完成',
      '開帳現金 NT$4,150',
      '匯款 NT$0',
      '現金 NT$0',
      '刷卡 NT$0',
      '電子支付 NT$0',
      '現金收入 NT$0',
      '現金支出 NT$0',
      '應有現金 NT$4,150',
      '點收現金 NT$4,100',
      '短溢 -NT$50',
      '',
    ]);
  });

  it('remit close refuses a missing or bad flag as usage, and a user without close_day (--as) with exit 1', async () => {
    const noDate = await runRemit(['close', 'TPE', '--counted', '1'], env);
    expect([noDate.code, noDate.stderr]).toEqual([2, '錯誤：請用 --date YYYY-MM-DD 指定營業日期（台灣時間）\n']);
    const badDate = await runRemit(['close', 'TPE', '--date', '2026-13-01', '--counted', '1'], env);
    expect(badDate.code).toBe(2);
    const noCount = await runRemit(['close', 'TPE', '--date', '2026-11-19'], env);
    expect(noCount.code).toBe(2);
    const reader = await runRemit(
      ['close', 'TPE', '--date', '2026-11-19', '--counted', '1', '--opening', '1', '--as', 'hq_view_payments'],
      env,
    );
    expect([reader.code, reader.stderr]).toEqual([1, '錯誤：權限不足：需要「日結」權限\n']);
  });

  it('remit closes gives the same figures as remit close, one row per store and day', async () => {
    const r = await runRemit(
      ['closes', '--from', '2026-11-20', '--to', '2026-11-21', '--store', 'TPE,TXG', '--json'],
      env,
    );
    expect(r.stderr).toBe('');
    const rows = JSON.parse(r.stdout);
    expect(rows.map((x: any) => [x.store, x.date, x.status, x.expected, x.counted, x.difference])).toEqual([
      ['TPE', '2026-11-20', 'closed', 4100, 4150, 50],
      ['TPE', '2026-11-21', 'closed', 4150, 4100, -50],
      ['TXG', '2026-11-20', 'quiet', null, null, null],
      ['TXG', '2026-11-21', 'quiet', null, null, null],
    ]);
    const text = await runRemit(['closes', '--from', '2026-11-20', '--to', '2026-11-21'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('已結帳');
    expect(text.stdout).toContain('無收支');
    expect(text.stdout).toMatch(
      /各付款方式合計\n匯款\s+NT\$3,000\n現金\s+NT\$1,400\n刷卡\s+NT\$800\n電子支付\s+NT\$450\n/,
    );
  });

  it('remit day lists the entries with the running cash', async () => {
    const r = await runRemit(['day', 'TPE', '--date', '2026-11-20'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('台北店 (TPE) 2026-11-20　狀態：已結帳');
    expect(lines[1]).toBe('開帳現金：NT$4,000（首次日結填寫）');
    expect(lines.find((l) => l.includes('店內支出'))!.replace(/\s+/g, ' ')).toBe(
      '15:00 支出 店內支出 清潔用品 NT$300 -NT$300 NT$5,100 垃圾袋',
    );
    expect(lines.find((l) => l.includes('員工購物'))!.replace(/\s+/g, ' ')).toBe(
      '13:00 收入 現金 員工購物 NT$200 +NT$200 NT$5,400',
    );
    const json = JSON.parse((await runRemit(['day', 'TPE', '--date', '2026-11-20', '--json'], env)).stdout);
    expect(json.lines.at(-1)).toMatchObject({ type: 'cash_out', method: '提領', running: 4100 });
  });

  it('remit export --daybook writes the day book as CSV and .xlsx', async () => {
    const out = join(dir, '日記帳.csv');
    const r = await runRemit(
      ['export', '--daybook', '--store', 'TPE', '--from', '2026-11-20', '--to', '2026-11-21', '--verbose', '-o', out],
      env,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`已匯出 7 筆記錄：${out}\n`);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('2026-11-20,2026/11/20 18:00:00,支出,提領,,,,1000,-1000,4100,,');
    const both = await runRemit(['export', '--daybook', '--store', 'TPE,TXG', '-o', '-'], env);
    expect([both.code, both.stderr]).toEqual([2, '錯誤：日記帳（--daybook）請用 --store 指定一家分店的代碼\n']);
    const xlsx = join(dir, 'book.xlsx');
    expect(
      (
        await runRemit(
          ['export', '--daybook', '--store', 'TPE', '--from', '2026-11-20', '--to', '2026-11-20', '-o', xlsx],
          env,
        )
      ).code,
    ).toBe(0);
    expect(readFileSync(xlsx).subarray(0, 2).toString()).toBe('PK');
  });
});
