/**
 * The streamed import end to end, on SQLite and PostgreSQL: our own streamed
 * export imports back unchanged into an empty database (.xlsx and CSV); a bad row late in the
 * file writes nothing and is named; a second import of the same file adds nothing, even when two
 * imports run at once on two connections (two API instances); a LibreOffice-written .xlsx
 * imports; the API takes the file as an upload (`POST /api/payments/import-file`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exportPaymentsStream,
  importPaymentFile,
  openDatabase,
  systemActor,
  MSG,
  type PaymentStatus,
  type ExportFormat,
  type ServiceContext,
} from '../core/index.js';
import { toCollectionStatus } from '../core/paymentStatuses.js';
import { seedDatabase, seedDatabaseFast } from '../bench/data.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const N = 12_000; // three batches of 5 000, and a part
const dir = mkdtempSync(join(tmpdir(), 'remit-import-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctxOf = (db: TestDb['db']): ServiceContext => ({
  db,
  security: TEST_SECURITY,
  actor: systemActor('test'),
  ip: null,
});

const COLUMNS = ['store_id', 'last_five', 'paid_at', 'amount', 'note', 'status'] as const;
async function paymentsOf(db: TestDb['db']) {
  const rows = (await db('payments')
    .select(...COLUMNS)
    .orderBy([{ column: 'paid_at' }, { column: 'last_five' }])) as Array<Record<string, unknown>>;
  // The sheet carries the collection status (已點收 or not), not the payment's four statuses.
  return rows.map((r) =>
    COLUMNS.map((c) =>
      c === 'status'
        ? toCollectionStatus(r[c] as PaymentStatus)
        : c === 'store_id' || c === 'paid_at' || c === 'amount'
          ? Number(r[c])
          : r[c],
    ),
  );
}
const count = async (db: TestDb['db'], table = 'payments') =>
  Number(((await db(table).count({ n: '*' }).first()) as { n: number | string }).n);

async function exportTo(db: TestDb['db'], format: ExportFormat, path: string) {
  const s = await exportPaymentsStream(ctxOf(db), { format });
  const chunks: Buffer[] = [];
  for await (const c of s.body) chunks.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c));
  writeFileSync(path, Buffer.concat(chunks));
}

describe.each(DB_KINDS)('streamed import on %s', (kind) => {
  let source: TestDb;
  let target: TestDb;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    source = await createTestDb(kind);
    await seedDatabaseFast(source.db, N, 'rt');
    for (const format of ['xlsx', 'csv'] as const) {
      files[format] = join(dir, `${kind}-export.${format}`);
      await exportTo(source.db, format, files[format]);
    }
  }, 120_000);
  afterAll(async () => {
    await source?.cleanup();
    await target?.cleanup();
  });

  const emptyTarget = async () => {
    await target?.cleanup();
    target = await createTestDb(kind);
    await seedDatabase(target.db, 0); // the same stores, no payments
  };

  it.each(['xlsx', 'csv'] as const)(
    'our streamed %s export of 12 000 payments imports back unchanged into an empty database',
    async (format) => {
      await emptyTarget();
      const seen: Array<[number, number]> = [];
      const report = await importPaymentFile(ctxOf(target.db), files[format], {
        name: files[format],
        onProgress: (r, w) => seen.push([r, w]),
      });
      expect(report.errors).toEqual([]);
      expect(report).toMatchObject({ format, rows: N, valid: N, imported: N, skipped: 0 });
      expect(await paymentsOf(target.db)).toEqual(await paymentsOf(source.db));
      // told as it went: rows read and written grow batch by batch up to the whole file
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.at(-1)).toEqual([N, N]);

      const again = await importPaymentFile(ctxOf(target.db), files[format], { name: files[format] });
      expect(again).toMatchObject({ imported: 0, skipped: N });
      expect(await count(target.db)).toBe(N);
    },
    120_000,
  );

  it('a bad row late in the file (after two batches went in) writes nothing, and the report names it', async () => {
    await emptyTarget();
    const csv = readFileSync(files.csv, 'utf8').split('\n');
    const bad = 11_001; // sheet row: the header is row 1
    csv[bad - 1] = csv[bad - 1].replace(/,(\d+),/, ',abc,');
    const path = join(dir, `${kind}-late-bad.csv`);
    writeFileSync(path, csv.join('\n'));
    const auditBefore = await count(target.db, 'audit_log');
    const report = await importPaymentFile(ctxOf(target.db), path);
    expect(report.errors).toEqual([MSG.rowError(bad, MSG.amountNumeric)]);
    expect(report.imported).toBe(0);
    expect(await count(target.db)).toBe(0);
    expect(await count(target.db, 'audit_log')).toBe(auditBefore);
  }, 120_000);

  it('says what each skipped row repeats: a stored payment by its tracking number, a repeat within the file by its row; a dry run writes nothing', async () => {
    await emptyTarget();
    const csv = readFileSync(files.csv, 'utf8').split('\n');
    const write = (name: string, lines: string[]) => {
      const path = join(dir, `${kind}-${name}.csv`);
      writeFileSync(path, [csv[0], ...lines].join('\n'));
      return path;
    };
    expect((await importPaymentFile(ctxOf(target.db), write('first', [csv[1]]))).imported).toBe(1);
    const stored = (await target.db('payments').first('uuid')).uuid;
    // sheet rows: 2 is already stored, 3 is new, 4 repeats 3
    const path = write('repeats', [csv[1], csv[2], csv[2]]);
    const dry = await importPaymentFile(ctxOf(target.db), path, { dryRun: true });
    expect(dry).toMatchObject({ imported: 1, skipped: 1, duplicates: [2] });
    expect(dry.duplicate_of).toEqual([
      { row: 4, earlier_row: 3 },
      { row: 2, uuid: stored },
    ]);
    expect(dry.skippedRows).toEqual([
      { row: 4, reason: MSG.rowError(4, MSG.importDuplicateInFile(3)), duplicateOf: 3 },
    ]);
    expect(await count(target.db)).toBe(1);
    const real = await importPaymentFile(ctxOf(target.db), path);
    expect(real.duplicate_of).toEqual(dry.duplicate_of);
    expect(await count(target.db)).toBe(2);
  });

  it('two imports of the same file at once on two connections (two API instances) write it once', async () => {
    await emptyTarget();
    const second = openDatabase(target.config);
    try {
      const [a, b] = await Promise.all([
        importPaymentFile(ctxOf(target.db), files.xlsx),
        importPaymentFile(ctxOf(second), files.xlsx),
      ]);
      expect(a.imported + b.imported).toBe(N);
      expect(a.skipped + b.skipped).toBe(N);
      expect(await count(target.db)).toBe(N);
    } finally {
      await second.destroy();
    }
  }, 180_000);
});

describe.skipIf(!existsSync('/usr/bin/soffice') && !existsSync('/usr/bin/libreoffice'))('LibreOffice', () => {
  it('an .xlsx LibreOffice wrote from our CSV export imports (dates as date cells, ="01234" as formulas)', async () => {
    const src = await createTestDb('sqlite');
    const dst = await createTestDb('sqlite');
    try {
      await seedDatabaseFast(src.db, 300, 'lo');
      await seedDatabase(dst.db, 0);
      const csv = join(dir, 'lo.csv');
      await exportTo(src.db, 'csv', csv);
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
      const report = await importPaymentFile(ctxOf(dst.db), join(dir, 'lo.xlsx'));
      expect(report.errors).toEqual([]);
      expect(report.imported).toBe(300);
      expect(await paymentsOf(dst.db)).toEqual(await paymentsOf(src.db));
    } finally {
      await src.cleanup();
      await dst.cleanup();
    }
  }, 180_000);
});

describe('POST /api/payments/import-file', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
  });
  afterAll(() => s?.close());

  const csv = (rows: string[]) =>
    Buffer.from(`\ufeff營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態\n${rows.join('\n')}\n`, 'utf8');

  it('takes the file as an upload and imports it through the same core entry as remit import', async () => {
    const file = csv([
      '2026/11/18,="01234",2026/11/18 09:15,1500,早班,台北店,已點收',
      '2026/11/18,="01235",2026/11/18 09:16,1600,,台中店,',
    ]);
    const r = await s.api('POST', '/payments/import-file?filename=a.csv', {
      as: 'admin',
      raw: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ format: 'csv', rows: 2, imported: 2, skipped: 0, errors: [] });
    const again = await s.api('POST', '/payments/import-file?filename=a.csv', {
      as: 'admin',
      raw: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(again.body).toMatchObject({ imported: 0, skipped: 2, duplicates: [2, 3] });
  });

  it('refuses a file with a bad row (400, the row named) and a caller who may not import (403), writing nothing', async () => {
    const before = await count(s.t.db);
    const bad = await s.api('POST', '/payments/import-file?filename=b.csv', {
      as: 'admin',
      raw: csv(['2026/11/18,="01236",2026/11/18 09:15,0,,台北店,']),
      headers: { 'content-type': 'text/csv' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('第 2 行：匯款金額必須大於0');
    const denied = await s.api('POST', '/payments/import-file?filename=c.csv', {
      as: 'branchA',
      raw: csv(['2026/11/18,="01237",2026/11/18 09:15,10,,台北店,']),
      headers: { 'content-type': 'text/csv' },
    });
    expect(denied.status).toBe(403);
    expect(await count(s.t.db)).toBe(before);
  });
});
