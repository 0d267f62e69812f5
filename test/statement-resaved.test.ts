/**
 * A bank statement the accountant re-saved with LibreOffice:
 * LibreOffice reads a 備註 of digits as a number and drops its leading zeros. Importing the
 * re-saved copy after the bank's own CSV adds nothing, on a database created now and on one whose
 * lines were stored before the fingerprint read texts this way (the migration), and the payer is
 * remembered once.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { importStatement, listLines, systemActor, type ServiceContext } from '../core/index.js';
import { knownMigrationNames, migrateLatest, migrateNext } from '../core/db/migrate.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { seed } from './helpers/fixtures.js';

const ROWS = [
  '某銀行 存款交易明細',
  '帳號：0123-456-789012',
  '交易日期,摘要,支出,存入,餘額,備註',
  '115/11/05 下午 2:03,ATM轉入,,"12,800","12,800",0081234567890417',
  '115/11/06 上午 9:00,跨行轉入,,"5,000","17,800",***12345',
  '合計,,0,"17,800",,',
];

/** The bank's Big5 CSV and LibreOffice's .xlsx of it, as an accountant would make it. */
function files(): { csv: Uint8Array; xlsx: Uint8Array } {
  const dir = mkdtempSync(join(tmpdir(), 'remit-resaved-'));
  try {
    const csv = new Uint8Array(iconv.encode(ROWS.join('\r\n') + '\r\n', 'big5'));
    // LibreOffice opens the same rows (here from UTF-8: 44,34,76 is comma-separated, double
    // quotes, UTF-8, as a person picks in its import dialog) and saves them as .xlsx
    writeFileSync(join(dir, 'stmt.csv'), ROWS.join('\r\n') + '\r\n', 'utf8');
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
        join(dir, 'stmt.csv'),
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    return { csv, xlsx: new Uint8Array(readFileSync(join(dir, 'stmt.xlsx'))) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(DB_KINDS)('a statement re-saved by LibreOffice on %s', (kind) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });
  const admin = (db: TestDb): ServiceContext => ({
    db: db.db,
    security: TEST_SECURITY,
    actor: systemActor('test'),
    ip: null,
  });

  it('adds nothing after the bank’s CSV, and its ATM payer is the CSV’s', async () => {
    const { csv, xlsx } = files();
    t = await createTestDb(kind);
    await seed(t.db);
    const first = await importStatement(admin(t), { bytes: csv, file: 'stmt.csv' });
    expect(first).toMatchObject({ new: 2, duplicates: 0 });
    const again = await importStatement(admin(t), { bytes: xlsx, file: 'stmt.xlsx' });
    expect(again).toMatchObject({ lines: 2, new: 0, duplicates: 2 });
    const lines = await listLines(admin(t), { filter: {} });
    expect(lines.total).toBe(2);
    expect(lines.rows.map((l) => l.payer)).toEqual(['81234567890417', '***12345']);
  }, 180_000);

  it('adds nothing after a CSV stored before the migration either', async () => {
    const { csv, xlsx } = files();
    t = await createTestDb(kind, { migrate: false });
    const names = knownMigrationNames();
    const at = names.indexOf('20261126000100_resaved_statement_lines');
    for (let i = 0; i < at; i++) await migrateNext(t.db);
    // the line as the code before stored it: the raw texts in the key, the payer as written
    const [{ id }] = await t
      .db('bank_statements')
      .insert({
        file: 'stmt.csv',
        store_id: null,
        account: '0123-456-789012',
        encoding: 'big5',
        columns: '{}',
        period_from: '2026-11-05',
        period_to: '2026-11-06',
        lines: 2,
        new_lines: 2,
        balance_breaks: 0,
        created_at: Date.now(),
      })
      .returning('id');
    const statementId = Number(typeof id === 'object' ? (id as { id: number }).id : id);
    const old = (at: number, amount: number, balance: number, summary: string, note: string) =>
      createHash('sha256')
        .update(`${JSON.stringify(['0123456789012', at, amount, balance, summary, note, ''])}#1`)
        .digest('hex');
    const at1 = Date.UTC(2026, 10, 5, 6, 3);
    const at2 = Date.UTC(2026, 10, 6, 1, 0);
    await t.db('bank_lines').insert([
      {
        statement_id: statementId,
        row: 4,
        at: at1,
        has_time: true,
        amount: 12800,
        balance: 12800,
        summary: 'ATM轉入',
        note: '0081234567890417',
        counterparty: '',
        digits: '90417',
        payer: '0081234567890417',
        fingerprint: old(at1, 12800, 12800, 'ATM轉入', '0081234567890417'),
      },
      {
        statement_id: statementId,
        row: 5,
        at: at2,
        has_time: true,
        amount: 5000,
        balance: 17800,
        summary: '跨行轉入',
        note: '***12345',
        counterparty: '',
        digits: '12345',
        payer: '***12345',
        fingerprint: old(at2, 5000, 17800, '跨行轉入', '***12345'),
      },
    ]);
    await migrateNext(t.db);
    // then the later migrations, as an upgrade runs them all, before today's code imports
    await migrateLatest(t.db);
    // the bank's CSV again, and LibreOffice's copy: nothing new
    expect(await importStatement(admin(t), { bytes: csv, file: 'stmt.csv' })).toMatchObject({ new: 0, duplicates: 2 });
    expect(await importStatement(admin(t), { bytes: xlsx, file: 'stmt.xlsx' })).toMatchObject({
      new: 0,
      duplicates: 2,
    });
    expect((await t.db('bank_lines').orderBy('row').select('payer')).map((r) => r.payer)).toEqual([
      '81234567890417',
      '***12345',
    ]);
  }, 180_000);
});
