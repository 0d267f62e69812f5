/**
 * A payment's fields are listed once (core/payments/columns.ts): a field added to
 * the lists, here a test-only 參考編號 stored in a column of its own, appears in the csv, the
 * streamed xlsx and the JSON export, in the sample and the whole-file workbook, and the import
 * reads it back from the files the export wrote, with nothing else edited.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { exportPayments, systemActor } from '../core/index.js';
import { PAYMENT_FIELDS, SHEET_COLUMNS, type PaymentField, type SheetColumn } from '../core/payments/columns.js';
import { cellText } from '../core/payments/cells.js';
import { openPaymentsFile } from '../core/payments/importSource.js';
import { buildExportWorkbook, buildSampleWorkbook } from '../core/payments/writeSheet.js';
import { parsePaymentsWorkbook } from '../core/payments/readSheet.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from './helpers/db.js';

const HEADER = '參考編號';
const REF_FIELD: PaymentField = { name: 'ref', type: 'text' };
const REF_COLUMN: SheetColumn = {
  key: 'ref',
  header: HEADER,
  width: 14,
  kind: 'text',
  style: 'text',
  cell: () => (p) => (p as unknown as { ref: string }).ref ?? '',
  read: (cell, row) => {
    row.payment.ref = cellText(cell);
  },
};

/** The three payments of the test, newest first (as the export orders them). */
const PAYMENTS = [
  { uuid: 'c-3', last_five: '00123', paid_at: Date.UTC(2026, 10, 20, 2, 30), amount: 3000, ref: 'R-003' },
  { uuid: 'c-2', last_five: '45678', paid_at: Date.UTC(2026, 10, 19, 9, 15), amount: 250, ref: 'R-002' },
  { uuid: 'c-1', last_five: '99999', paid_at: Date.UTC(2026, 10, 18, 1, 0), amount: 12, ref: 'R-001' },
];
const REFS = PAYMENTS.map((p) => p.ref);

async function bytes(body: Uint8Array | string): Promise<Buffer> {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

describe.each(DB_KINDS)('a field added to the payment lists (%s)', (kind) => {
  let t: TestDb;
  let dir: string;
  let stores: Array<{ id: number; name: string; code: string }>;
  beforeAll(async () => {
    t = await createTestDb(kind);
    dir = mkdtempSync(join(tmpdir(), 'remit-columns-'));
    await t.db.schema.alterTable('payments', (tb) => tb.string('ref', 20).notNullable().defaultTo(''));
    const now = Date.now();
    await t.db('stores').insert({ name: '台北店', code: 'TPE', created_at: now, updated_at: now });
    stores = ((await t.db('stores').select('id', 'name', 'code')) as typeof stores).map((s) => ({
      ...s,
      id: Number(s.id),
    }));
    await t.db('payments').insert(
      PAYMENTS.map((p) => ({
        ...p,
        store_id: stores[0].id,
        status: '未確認',
        note: '',
        created_by: null,
        created_at: now,
        updated_at: now,
      })),
    );
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    PAYMENT_FIELDS.push(REF_FIELD);
    SHEET_COLUMNS.push(REF_COLUMN);
  });
  afterEach(() => {
    PAYMENT_FIELDS.splice(PAYMENT_FIELDS.indexOf(REF_FIELD), 1);
    SHEET_COLUMNS.splice(SHEET_COLUMNS.indexOf(REF_COLUMN), 1);
  });

  const ctx = () => ({ db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null });
  const importOpts = () => ({ stores, userStoreId: stores[0].id });

  it('the csv export has the column, after the spec’s seven, and the import reads it back', async () => {
    const file = await exportPayments(ctx(), { format: 'csv' });
    const lines = (await bytes(file.body))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(`營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態,付款方式,${HEADER}`);
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(REFS);

    const path = join(dir, 'export.csv');
    writeFileSync(path, await bytes(file.body));
    const read: unknown[] = [];
    for await (const batch of (await openPaymentsFile(path, importOpts())).batches()) {
      for (const r of batch) read.push(r.outcome.state === 'ok' ? r.outcome.payment : r.outcome);
    }
    expect(read).toEqual(
      PAYMENTS.map((p) =>
        expect.objectContaining({ last_five: p.last_five, paid_at: p.paid_at, amount: p.amount, ref: p.ref }),
      ),
    );
  });

  it('the streamed xlsx export has the column (header, text cells), and the import reads it back, streamed and whole', async () => {
    const file = await exportPayments(ctx(), { format: 'xlsx' });
    const data = await bytes(file.body);
    const sheet = XLSX.read(data, { type: 'buffer', cellNF: true }).Sheets['匯款記錄'];
    expect(sheet.I1.v).toBe(HEADER);
    expect([2, 3, 4].map((r) => [sheet[`I${r}`].t, sheet[`I${r}`].v, sheet[`I${r}`].z])).toEqual(
      REFS.map((ref) => ['s', ref, '@']),
    );
    expect(sheet['!ref']).toBe('A1:I4');

    const path = join(dir, 'export.xlsx');
    writeFileSync(path, data);
    const read: unknown[] = [];
    for await (const batch of (await openPaymentsFile(path, importOpts())).batches()) {
      for (const r of batch) read.push(r.outcome.state === 'ok' ? r.outcome.payment : r.outcome);
    }
    expect(read).toEqual(
      PAYMENTS.map((p) => expect.objectContaining({ last_five: p.last_five, paid_at: p.paid_at, ref: p.ref })),
    );
    // the back office's whole-file reader, with its preview of the sheet's cells
    const whole = parsePaymentsWorkbook(data, importOpts());
    expect(whole.errors).toEqual([]);
    expect(whole.rows.map((r) => (r as unknown as { ref: string }).ref)).toEqual(REFS);
    expect(whole.preview.map((r) => r.cells.at(-1))).toEqual(REFS);
  });

  it('the JSON export has the member, last', async () => {
    const file = await exportPayments(ctx(), { format: 'json' });
    const rows = JSON.parse((await bytes(file.body)).toString('utf8')) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.ref)).toEqual(REFS);
    expect(Object.keys(rows[0]).at(-1)).toBe('ref');
  });

  it('the SheetJS workbooks (the whole-file export and the sample) have the column too', () => {
    const whole = XLSX.read(
      buildExportWorkbook([{ ...PAYMENTS[0], note: '', store_id: stores[0].id, status: '未確認' }], stores),
      { type: 'array' },
    ).Sheets['匯款記錄'];
    expect([whole.I1.v, whole.I2.v]).toEqual([HEADER, 'R-003']);
    const sample = XLSX.read(buildSampleWorkbook(stores), { type: 'array' }).Sheets['匯款記錄'];
    expect(sample.I1.v).toBe(HEADER);
  });
});
