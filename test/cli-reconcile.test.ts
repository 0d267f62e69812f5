/** `remit reconcile` as the accountant or a script runs it: the real binary, bank files, no terminal. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment, createStore, createUser, openDatabase, systemActor } from '../core/index.js';
import { TEST_SECURITY } from './helpers/db.js';
import { assertBuilt, remit } from './helpers/cli.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const csv = (rows: string[]) =>
  iconv.encode(
    ['中華郵政 存簿交易明細', '交易日期,摘要,支出,存入,餘額,備註,轉出入帳號', ...rows, '合計,,,,,,'].join('\r\n') +
      '\r\n',
    'big5',
  );

describe('remit reconcile', () => {
  let dir: string;
  let db: string;
  const uuids: Record<string, string> = {};
  const run = (args: string[], extra: { input?: string | 'open' } = {}) =>
    remit(['--db', db, ...args], { cwd: dir, ...extra });
  const withDb = async <T>(fn: (k: ReturnType<typeof openDatabase>) => Promise<T>) => {
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      return await fn(k);
    } finally {
      await k.destroy();
    }
  };

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-rec-'));
    db = join(dir, 'remit.sqlite');
    // a new installation starts with remit migrate: no other command creates the database
    expect((await run(['migrate'])).code).toBe(0);
    expect((await run(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
    await withDb(async (k) => {
      const ctx = { db: k, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
      for (const [key, last_five, paid_at, amount] of [
        ['paid', '12345', '2026-11-05T14:00', 1500],
        ['typo', '54312', '2026-11-05T16:00', 2300],
        ['never', '77777', '2026-11-05T18:00', 990],
      ] as const) {
        uuids[key] = (await createPayment(ctx, { store_id: 1, last_five, paid_at, amount, note: '' })).uuid;
      }
    });
    writeFileSync(
      join(dir, '郵局_1104-1108.csv'),
      csv([
        '="115/11/04 09:00:00",="提款",="100",="",="0",="",=""',
        '="115/11/05 14:03:22",="跨行存入",="",="1,500",="1,500",="",="0008 0000****12345"',
        '="115/11/05 16:20:00",="跨行存入",="",="2,300",="3,800",="",="****54321"',
        '="115/11/06 10:00:00",="跨行存入",="",="600",="4,400",="",="王小明"',
        '="115/11/08 23:00:00",="利息",="",="1",="4,401",="",=""',
      ]),
    );
    writeFileSync(join(dir, 'bad.csv'), csv(['="115/11/05 14:03:22",="跨行存入",="",="一千",="1,500",="",=""']));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without --apply: prints the exact JSON shape and changes no payment', async () => {
    const r = await run(['reconcile', '郵局_1104-1108.csv', '--json'], { input: 'open' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['statement', 'auto', 'review', 'unpaid', 'unreported', 'suggestions', 'applied']);
    expect(out.statement).toEqual({
      files: ['郵局_1104-1108.csv'],
      accounts: [],
      lines: 5,
      credits: 4,
      new: 5,
      duplicates: 0,
      from: '2026-11-04',
      to: '2026-11-08',
      encoding: 'big5',
      balance_breaks: 0,
      skipped_rows: 1,
    });
    expect(out.auto).toEqual([
      {
        payment: uuids.paid,
        line: { file: '郵局_1104-1108.csv', row: 4, at: '2026-11-05T06:03:22.000Z', amount: 1500 },
        score: expect.any(Number),
        reasons: expect.any(Array),
      },
    ]);
    expect(out.review.map((x: any) => x.payment)).toEqual([uuids.typo]);
    expect(out.review[0].candidates[0].line).toEqual({
      file: '郵局_1104-1108.csv',
      row: 5,
      at: expect.stringMatching(ISO),
      amount: 2300,
    });
    expect(out.unpaid).toEqual([{ payment: uuids.never }]);
    expect(out.unreported.map((u: any) => u.line.amount).sort()).toEqual([1, 600]);
    expect(out.suggestions).toEqual([]);
    expect(out.applied).toBe(0);
    const statuses = await withDb(async (k) => (await k('payments').select('status')).map((p: any) => p.status));
    expect(statuses).toEqual(['未確認', '未確認', '未確認']);
  });

  it('--apply confirms the automatic pairs only; the file again adds nothing; Chinese text output', async () => {
    const r = await run(['reconcile', '郵局_1104-1108.csv', '--apply']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('已讀取 1 個檔案：共 5 筆明細（存入 4 筆），新增 0 筆，重複略過 5 筆');
    expect(r.stdout).toContain('建議入帳：1 筆，已確認 1 筆');
    expect(r.stdout).toContain('需人工確認：1 筆');
    expect(r.stdout).toContain('未入帳候選：1 筆（不會自動設定）');
    expect(r.stdout).toContain('銀行有款無回報：2 筆');
    const rows = await withDb(async (k) => k('payments').select('uuid', 'status'));
    const status = Object.fromEntries(rows.map((p: any) => [p.uuid, p.status]));
    expect(status).toEqual({ [uuids.paid]: '已入帳', [uuids.typo]: '未確認', [uuids.never]: '未確認' });
    const link = await withDb(async (k) => k('bank_links').first());
    expect(link).toMatchObject({ payment_uuid: uuids.paid, decided_by: 'auto', status_before: '未確認' });
    // a later run never changes a confirmed pair
    const again = JSON.parse((await run(['reconcile', '郵局_1104-1108.csv', '--apply', '--json'])).stdout);
    expect(again.applied).toBe(0);
    expect(JSON.stringify(again)).not.toContain(uuids.paid);
  });

  it('bad data exits 1 naming the file and row, writing nothing; wrong usage exits 2', async () => {
    const before = await withDb(async (k) => Number(((await k('bank_statements').count({ n: '*' }).first()) as any).n));
    const bad = await run(['reconcile', '郵局_1104-1108.csv', 'bad.csv']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('錯誤：bad.csv 第 3 行：「存入」欄無法辨識的金額「一千」\n');
    expect(await withDb(async (k) => Number(((await k('bank_statements').count({ n: '*' }).first()) as any).n))).toBe(
      before,
    );

    // a missing file is bad data, as a file that is not a statement is
    const missing = await run(['reconcile', 'missing.csv']);
    expect([missing.code, missing.stderr]).toEqual([1, '錯誤：找不到檔案：missing.csv\n']);
    for (const args of [
      ['reconcile'],
      ['reconcile', '郵局_1104-1108.csv', '--from', '2026-13-01'],
      ['reconcile', '郵局_1104-1108.csv', '--store', 'NOPE'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/錯誤|缺少/);
    }
  });

  it('remit reconcile payers lists what the confirmation taught; remit reconcile forget forgets it, audited', async () => {
    // the --apply above confirmed 1 500 from 0008 0000****12345 as the payment with last five 12345
    const listed = await run(['reconcile', 'payers', '--json']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout);
    expect(rows).toEqual([
      expect.objectContaining({
        store_id: 1,
        payer: '00080000****12345',
        last_five: '12345',
        payment: uuids.paid,
        learned_by: 'auto',
      }),
    ]);
    const text = await run(['reconcile', 'payers', '--store', 'TPE']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('對帳單上的付款人');
    expect(text.stdout).toContain('台北店 (TPE)');
    expect(text.stdout).toContain('00080000****12345');
    expect(text.stdout).toContain('自動');

    const gone = await run(['reconcile', 'forget', String(rows[0].id)]);
    expect(gone.stderr).toBe('');
    expect(gone.code).toBe(0);
    expect(gone.stdout).toBe('已忘記付款人「00080000****12345」（後五碼 12345）\n');
    expect((await run(['reconcile', 'payers'])).stdout).toContain('尚未記住任何付款人');
    const again = await run(['reconcile', 'forget', String(rows[0].id)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`錯誤：找不到已記住的付款人 ${rows[0].id}\n`);
    for (const id of ['abc', '2147483648']) expect((await run(['reconcile', 'forget', id])).code).toBe(1);
    const audit = await withDb(async (k) => k('audit_log').where({ entity: 'payer', action: 'delete' }));
    expect(audit).toHaveLength(1);
  });

  it('a one-store account reconciles its store without naming it (--as tpe_acct), with the account given by --account', async () => {
    await withDb(async (k) => {
      const ctx = { db: k, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
      const txg = await createStore(ctx, { name: '台中店', code: 'TXG' });
      await createUser(ctx, {
        username: 'tpe_acct',
        password: 'shop-key-4821',
        role: 'user',
        store_id: 1,
        permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
      });
      await createUser(ctx, {
        username: 'hq_two',
        password: 'shop-key-4821',
        role: 'user',
        accessible_stores: [1, txg.id],
        permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
      });
    });
    writeFileSync(
      join(dir, '郵局_1110.csv'),
      csv(['="115/11/10 09:00:00",="跨行存入",="",="4,800",="4,800",="",="****24680"']),
    );
    const r = await run(['reconcile', '郵局_1110.csv', '--as', 'tpe_acct', '--account', '0001234-5678901', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).statement).toMatchObject({ accounts: ['0001234-5678901'], new: 1 });
    const stored = await withDb(async (k) => k('bank_statements').where({ file: '郵局_1110.csv' }).first());
    expect(stored).toMatchObject({ store_id: 1, account: '0001234-5678901' });
    const text = await run(['reconcile', '郵局_1110.csv', '--as', 'tpe_acct', '--account', '0001234-5678901']);
    expect(text.stdout).toContain('銀行帳號：0001234-5678901');
    expect(text.stdout).toContain('重複略過 1 筆');
    // several stores in scope: still must choose
    const several = await run(['reconcile', '郵局_1110.csv', '--as', 'hq_two']);
    expect(several.code).toBe(1);
    expect(several.stderr).toBe('錯誤：可看到多家分店的帳號必須指定對帳分店\n');
  });

  it('escape sequences a bank file carries reach the terminal as plain spaces, never as commands', async () => {
    // OSC 52 writes the clipboard, CSI 2J clears the screen: text from a file must not drive the terminal.
    const hostile = `跨行存入\u001b]52;c;ZXZpbA==\u0007\u001b[2J`;
    writeFileSync(
      join(dir, 'escape.csv'),
      csv([`="115/11/20 09:00:00",="${hostile}",="",="4,321",="4,321",="",="\u001b[31m9999"`]),
    );
    const r = await run(['reconcile', 'escape.csv']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('銀行有款無回報：1 筆');
    expect(r.stdout).toContain('跨行存入');
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // and a cell quoted in an error message
    writeFileSync(
      join(dir, 'escape-bad.csv'),
      csv([`="115/11/20 09:00:00",="存入",="",="\u001b[2J一千",="4,321",="",=""`]),
    );
    const bad = await run(['reconcile', 'escape-bad.csv']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('無法辨識的金額');
    expect(bad.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('remit reconcile: split and combined payments', () => {
  let dir: string;
  let db: string;
  const uuids: Record<string, string> = {};
  const run = (args: string[]) => remit(['--db', db, ...args], { cwd: dir });

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-rec-groups-'));
    db = join(dir, 'remit.sqlite');
    expect((await run(['migrate'])).code).toBe(0);
    expect((await run(['stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      const ctx = { db: k, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
      for (const [key, last_five, paid_at, amount] of [
        ['first', '33333', '2026-11-05T10:00', 1200],
        ['second', '33333', '2026-11-05T10:02', 800],
        ['split', '44444', '2026-11-07T15:00', 5000],
      ] as const) {
        uuids[key] = (await createPayment(ctx, { store_id: 1, last_five, paid_at, amount, note: '' })).uuid;
      }
    } finally {
      await k.destroy();
    }
    writeFileSync(
      join(dir, '郵局_1104-1109.csv'),
      csv([
        '="115/11/04 09:00:00",="提款",="100",="",="0",="",=""',
        '="115/11/05 10:05:00",="跨行存入",="",="2,000",="2,000",="",="****33333"',
        '="115/11/07 15:01:00",="跨行存入",="",="3,000",="5,000",="",="****44444"',
        '="115/11/07 15:03:00",="現金存款",="",="2,000",="7,000",="",=""',
        '="115/11/09 23:00:00",="利息",="",="1",="7,001",="",=""',
      ]),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints each group with its reports, credits and sums, and gives them in --json; their credits are not unreported', async () => {
    const r = await run(['reconcile', '郵局_1104-1109.csv', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const ref = (row: number, amount: number) => ({
      file: '郵局_1104-1109.csv',
      row,
      at: expect.stringMatching(ISO),
      amount,
    });
    expect(out.suggestions).toEqual([
      { payments: [uuids.first, uuids.second], lines: [ref(4, 2000)], reasons: ['2 筆回報合計金額相符', '後五碼相同'] },
      { payments: [uuids.split], lines: [ref(5, 3000), ref(6, 2000)], reasons: ['2 筆入帳合計金額相符', '後五碼相符'] },
    ]);
    expect(out.unreported.map((u: any) => u.line.amount)).toEqual([1]);
    expect(out.unpaid).toEqual([]);

    const text = await run(['reconcile', '郵局_1104-1109.csv']);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('可能為分次或合併付款：2 組'));
    expect(at).toBeGreaterThan(-1);
    expect(lines[at + 1]).toMatch(
      /^ {2}第 1 組　回報合計 NT\$2,000　入帳合計 NT\$2,000　2 筆回報合計金額相符、後五碼相同$/,
    );
    expect(lines[at + 2]).toContain(`匯款 ${uuids.first}　後五碼 33333　NT$1,200`);
    expect(lines[at + 3]).toContain(`匯款 ${uuids.second}　後五碼 33333　NT$800`);
    expect(lines[at + 4]).toContain('入帳：郵局_1104-1109.csv 第 4 列');
    expect(lines[at + 5]).toMatch(
      /^ {2}第 2 組　回報合計 NT\$5,000　入帳合計 NT\$5,000　2 筆入帳合計金額相符、後五碼相符$/,
    );
    expect(lines[at + 7]).toContain('入帳：郵局_1104-1109.csv 第 5 列');
    expect(lines[at + 8]).toContain('入帳：郵局_1104-1109.csv 第 6 列');
    expect(text.stdout).toContain('銀行有款無回報：1 筆');
  });
});
