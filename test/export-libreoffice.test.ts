/**
 * The export CSV opened by a real spreadsheet program: LibreOffice keeps the
 * last five as text, and the workbook it writes imports back unchanged. It runs LibreOffice, so
 * it lives with the integration tests, not the unit ones.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePaymentsWorkbook } from '../core/payments/readSheet.js';
import { buildExportCsv, type ExportPayment } from '../core/payments/writeSheet.js';

const STORES = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
];

// 2026/11/18 09:15 in Taiwan, and a last five that only stays 00007 as text
const PAYMENTS: ExportPayment[] = [
  {
    last_five: '01234',
    paid_at: '2026-11-18T01:15:00.000Z',
    amount: 1500,
    note: '早班',
    store_id: 1,
    status: '已入帳',
  },
  { last_five: '00007', paid_at: '2026-11-18T16:30:45.000Z', amount: 1500, note: '', store_id: 2, status: '未入帳' },
];

describe('the export CSV in a real spreadsheet program', () => {
  const soffice = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));
  it.skipIf(!soffice)(
    'LibreOffice keeps the last five 00007 as text, and its xlsx imports back unchanged',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'remit-csv-'));
      try {
        writeFileSync(join(dir, 'export.csv'), buildExportCsv(PAYMENTS, STORES));
        execFileSync(
          soffice!,
          [
            '--headless',
            `-env:UserInstallation=file://${dir}/profile`,
            '--infilter=CSV:44,34,76,1',
            '--convert-to',
            'xlsx',
            '--outdir',
            dir,
            join(dir, 'export.csv'),
          ],
          { stdio: 'ignore', timeout: 120_000 },
        );
        const parsed = parsePaymentsWorkbook(readFileSync(join(dir, 'export.xlsx')), { stores: STORES });
        expect(parsed.errors).toEqual([]);
        expect(parsed.rows.map((r) => r.last_five)).toEqual(['01234', '00007']);
        expect(parsed.rows.map((r) => r.paid_at)).toEqual(['2026-11-18T01:15:00.000Z', '2026-11-18T16:30:45.000Z']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    130_000,
  );
});
