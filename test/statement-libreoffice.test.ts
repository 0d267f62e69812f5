/** Bank statements saved by LibreOffice (as an accountant re-saves a bank's CSV) read like the bank's own file. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStatement } from '../core/reconcile/statement.js';
import { parseInstant } from '../core/time.js';

const t = (s: string) => parseInstant(s)!;

describe('statements written by LibreOffice', () => {
  it('reads .xls and .xlsx that LibreOffice wrote from a bank CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-stmt-'));
    try {
      const csv = join(dir, 'cathay.csv');
      writeFileSync(
        csv,
        Buffer.from(
          '交易日期,交易時間,轉出,轉入,餘額,說明,帳號\r\n2026/11/05,14:03:22,,1500,9500,ATM轉帳,0130000123412345\r\n',
          'utf8',
        ),
      );
      // 44,34,76: comma-separated, double quotes, UTF-8 (as a person picks in LibreOffice's import dialog).
      for (const ext of ['xlsx', 'xls'])
        execFileSync(
          'soffice',
          ['--headless', '--infilter=CSV:44,34,76,1', '--convert-to', ext, '--outdir', dir, csv],
          { stdio: 'ignore', timeout: 120_000 },
        );
      for (const ext of ['xlsx', 'xls']) {
        const s = readStatement(readFileSync(join(dir, `cathay.${ext}`)), `cathay.${ext}`);
        expect(s.lines).toHaveLength(1);
        expect(s.lines[0]).toMatchObject({
          row: 2,
          at: t('2026-11-05 14:03:22'),
          amount: 1500,
          balance: 9500,
          digits: '12345',
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('reads a LibreOffice .xlsx of a bank CSV with the payer’s account in 備註, ROC 下午 times and summary rows, as the CSV itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-stmt-'));
    try {
      const rows = [
        '某銀行 存款交易明細',
        '帳號：0123-456-789012',
        '交易日期,摘要,支出,存入,餘額,備註',
        '資料筆數：3,,,,,',
        '115/11/05 下午 2:03,跨行轉入,,"1,500","1,500",822-****-12345',
        '115/11/06 上午 9:00,ATM轉入,,600,"2,100",0008 000077720XXXX736',
        '1151107,提款,100,,"2,000",王小明',
        '合計,,100,"2,100",,',
        '以上資料僅供參考,,,,,',
      ];
      const csv = join(dir, 'notes.csv');
      writeFileSync(csv, Buffer.from(rows.join('\r\n') + '\r\n', 'utf8'));
      execFileSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${dir}/profile`,
          '--infilter=CSV:44,34,76,1',
          '--convert-to',
          'xlsx',
          '--outdir',
          dir,
          csv,
        ],
        { stdio: 'ignore', timeout: 120_000 },
      );
      const fromCsv = readStatement(readFileSync(csv), 'notes.csv');
      const fromXlsx = readStatement(readFileSync(join(dir, 'notes.xlsx')), 'notes.xlsx');
      for (const s of [fromCsv, fromXlsx]) {
        expect(s.lines.map((l) => [l.row, l.at, l.amount, l.digits, l.payer])).toEqual([
          [5, t('2026-11-05 14:03'), 1500, '12345', '822****12345'],
          [6, t('2026-11-06 09:00'), 600, '736', '0008000077720****736'],
          [7, t('2026-11-07'), -100, '', '王小明'],
        ]);
        expect(s).toMatchObject({ skipped: 3, account: '0123-456-789012', balance_breaks: 0 });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
