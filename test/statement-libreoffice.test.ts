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
      writeFileSync(csv, Buffer.from('交易日期,交易時間,轉出,轉入,餘額,說明,帳號\r\n2026/11/05,14:03:22,,1500,9500,ATM轉帳,0130000123412345\r\n', 'utf8'));
      // 44,34,76: comma-separated, double quotes, UTF-8 (as a person picks in LibreOffice's import dialog).
      for (const ext of ['xlsx', 'xls']) execFileSync('soffice', ['--headless', '--infilter=CSV:44,34,76,1', '--convert-to', ext, '--outdir', dir, csv], { stdio: 'ignore', timeout: 120_000 });
      for (const ext of ['xlsx', 'xls']) {
        const s = readStatement(readFileSync(join(dir, `cathay.${ext}`)), `cathay.${ext}`);
        expect(s.lines).toHaveLength(1);
        expect(s.lines[0]).toMatchObject({ row: 2, at: t('2026-11-05 14:03:22'), amount: 1500, balance: 9500, digits: '12345' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
