/**
 * The accountant's month through `remit reconcile`, with only the README: seven bank exports in the
 * shapes banks write (Big5 with title rows, ROC dates and ="…" cells with footers, combined
 * date-time, a signed amount, and .xlsx/.xls saved by LibreOffice), the exact JSON of the issue,
 * then --apply, and the statuses as 匯款記錄 shows them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment, listPayments, openDatabase, systemActor } from '../core/index.js';
import { TEST_SECURITY } from './helpers/db.js';
import { AUTO, REPORTS, writeBankExports, type ReportName } from './helpers/bankExports.js';
import { assertBuilt, remit } from './helpers/cli.js';

describe('remit reconcile on the banks’ own exports', () => {
  let dir: string;
  let db: string;
  let files: string[];
  const uuids = {} as Record<ReportName, string>;
  const run = (args: string[]) => remit(['--db', db, ...args], { cwd: dir, timeoutMs: 120_000 });
  const withDb = async <T>(fn: (ctx: Parameters<typeof listPayments>[0]) => Promise<T>) => {
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      return await fn({ db: k, security: TEST_SECURITY, actor: systemActor('test'), ip: null });
    } finally {
      await k.destroy();
    }
  };
  const statuses = () =>
    withDb(async (ctx) => {
      const rows = (await listPayments(ctx, { filter: {} })).rows;
      return Object.fromEntries(
        Object.entries(uuids).map(([name, u]) => [name, rows.find((p) => p.uuid === u)!.status]),
      );
    });

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-exports-'));
    db = join(dir, 'remit.sqlite');
    files = writeBankExports(dir).map((p) => basename(p));
    // a new installation starts with remit migrate: no other command creates the database
    expect((await run(['migrate'])).code).toBe(0);
    expect((await run(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
    await withDb(async (ctx) => {
      for (const [name, r] of Object.entries(REPORTS)) {
        uuids[name as ReportName] = (
          await createPayment(ctx, { store_id: 1, ...r, note: '', confirm_duplicate: true })
        ).uuid;
      }
    });
  }, 400_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--json: the exact shape of the issue, the period the files cover, nothing changed', async () => {
    const r = await run(['reconcile', ...files, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['statement', 'auto', 'review', 'unpaid', 'unreported', 'suggestions', 'applied']);
    expect(out.statement).toEqual({
      files,
      // the accounts the title rows name
      accounts: expect.any(Array),
      lines: 12,
      credits: 9,
      new: 12,
      duplicates: 0,
      from: '2026-11-01',
      to: '2026-11-08',
      encoding: 'big5,utf-8,xlsx,xls',
      balance_breaks: 0,
      skipped_rows: 2,
    });
    const line = (file: string, row: number, at: string, amount: number) => ({
      file,
      row,
      at: new Date(at).toISOString(),
      amount,
    });
    const auto = Object.fromEntries(out.auto.map((a: any) => [a.payment, a]));
    expect(Object.keys(auto).sort()).toEqual(AUTO.map((n) => uuids[n]).sort());
    for (const a of out.auto) {
      expect(Object.keys(a)).toEqual(['payment', 'line', 'score', 'reasons']);
      expect(Number.isInteger(a.score)).toBe(true);
      expect(a.reasons[0]).toBe('金額相符');
    }
    expect(auto[uuids.ctbc].line).toEqual(line('中信_存款交易明細.csv', 5, '2026-11-02T00:00+08:00', 1200));
    expect(auto[uuids.cathay].line).toEqual(line('國泰世華_交易明細.csv', 3, '2026-11-03T10:15+08:00', 2500));
    expect(auto[uuids.post].line).toEqual(line('郵局_交易明細.csv', 3, '2026-11-04T14:04:10+08:00', 1500));
    expect(auto[uuids.fubon].line).toEqual(line('富邦_交易明細.xlsx', 2, '2026-11-07T09:30+08:00', 650));
    expect(auto[uuids.sinopac].line).toEqual(line('永豐_交易明細.xls', 2, '2026-11-08T10:15+08:00', 350));

    expect(out.review.map((x: any) => x.payment).sort()).toEqual([uuids.typo, uuids.twinA, uuids.twinB].sort());
    const typo = out.review.find((x: any) => x.payment === uuids.typo);
    expect(typo.candidates).toEqual([
      {
        line: line('玉山_交易明細.csv', 2, '2026-11-05T18:06:16+08:00', 800),
        score: expect.any(Number),
        reasons: ['金額相符', '後五碼可能打錯（1 碼不同）', '時間相差 1 分鐘'],
      },
    ]);
    const twin = out.review.find((x: any) => x.payment === uuids.twinA);
    expect(twin.candidates.map((c: any) => c.line.row).sort()).toEqual([4, 5]);
    expect(out.unpaid).toEqual([]);
    expect(out.unreported).toEqual([{ line: line('Richart_交易明細.csv', 3, '2026-11-06T00:00+08:00', 33) }]);
    expect(out.applied).toBe(0);
    expect(Object.values(await statuses()).every((s) => s === '未確認')).toBe(true);
  });

  it('--apply confirms the automatic pairs only; running it again adds and changes nothing', async () => {
    const r = await run(['reconcile', ...files, '--apply']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('已讀取 7 個檔案：共 12 筆明細（存入 9 筆），新增 0 筆，重複略過 12 筆');
    expect(r.stdout).toContain('對帳期間：2026-11-01 至 2026-11-08');
    expect(r.stdout).toContain('建議入帳：5 筆，已確認 5 筆');
    expect(r.stdout).toContain('需人工確認：3 筆');
    expect(r.stdout).toContain('銀行有款無回報：1 筆');
    const s = await statuses();
    for (const name of Object.keys(REPORTS) as ReportName[])
      expect(s[name], name).toBe(AUTO.includes(name) ? '已入帳' : '未確認');
    const again = JSON.parse((await run(['reconcile', ...files, '--apply', '--json'])).stdout);
    expect(again.applied).toBe(0);
    expect(again.statement).toMatchObject({ new: 0, duplicates: 12 });
    for (const name of AUTO) expect(JSON.stringify(again)).not.toContain(uuids[name]);
  });
});
