/**
 * The shared reader's cases, run through both readers of the product: the bank statement
 * (readStatement) and the payment import (the whole-file parsePaymentsWorkbook and the streamed
 * openPaymentsFile). One list of inputs; each must read the same in both, in every encoding and
 * file kind, or be refused by both.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import * as XLSX from 'xlsx';
import { afterAll, describe, expect, it } from 'vitest';
import { readStatement } from '../reconcile/statement.js';
import { openPaymentsFile } from '../payments/importSource.js';
import { parsePaymentsWorkbook } from '../payments/readSheet.js';
import { parseInstant, toIso } from '../time.js';
import { parseCsv, formulaText } from './csv.js';
import { SHARED_CASES } from '../../test/helpers/readerCases.js';

const STORES = [{ id: 1, name: '台北店', code: 'TPE' }];
const PAYMENT_HEADER = '營業日期,帳號後五碼,匯款時間,匯款金額,備註,分店,點收狀態';
const STATEMENT_HEADER = '交易日期,摘要,存入,備註';

/** Dates both readers refuse, naming row 2. */
const REFUSED_DATES = ['2026/13/40 10:00', '1151345', '115/11/21 25:00', '2026/02/30'];

const dir = mkdtempSync(join(tmpdir(), 'remit-shared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const write = (bytes: Uint8Array, ext: string) => {
  const p = join(dir, `f${++n}.${ext}`);
  writeFileSync(p, bytes);
  return p;
};

type Encoding = 'utf-8-bom' | 'utf-8' | 'big5';
const ENCODINGS: Encoding[] = ['utf-8-bom', 'utf-8', 'big5'];
function encode(lines: string[], encoding: Encoding): Uint8Array {
  const text = lines.join('\r\n') + '\r\n';
  if (encoding === 'big5') return new Uint8Array(iconv.encode(text, 'big5'));
  return new TextEncoder().encode((encoding === 'utf-8-bom' ? '\uFEFF' : '') + text);
}

const statementCsv = (when: string, amount: string, enc: Encoding) =>
  encode(['某銀行 存款交易明細', STATEMENT_HEADER, `${when},跨行轉入,${amount},***12345`, '合計,,0,'], enc);
const paymentCsv = (when: string, amount: string, enc: Encoding) =>
  encode([PAYMENT_HEADER, `2026/11/21,01234,${when},${amount},早班,台北店,`], enc);

/** The same row as a workbook: each cell the text a spreadsheet shows for the CSV cell. */
function workbook(rows: string[][], bookType: 'xlsx' | 'biff8'): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), '匯款記錄');
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType }) as ArrayBuffer);
}
const shown = (csvCell: string) => formulaText(parseCsv(csvCell)[0][0]);

/** What the streamed payment reader makes of a file: its ok rows and its errors. */
async function streamedPayments(path: string) {
  const source = await openPaymentsFile(path, { stores: STORES });
  const rows: Array<{ paid_at: number; amount: number }> = [];
  const errors: string[] = [];
  for await (const batch of source.batches()) {
    for (const r of batch) {
      if (r.outcome.state === 'ok') rows.push({ paid_at: r.outcome.payment.paid_at, amount: r.outcome.payment.amount });
      else if (r.outcome.state === 'error') errors.push(...r.outcome.errors);
    }
  }
  return { rows, errors };
}

describe.each(ENCODINGS)('shared cases, CSV in %s, through both readers', (enc) => {
  it.each(SHARED_CASES)('%s with amount %s', async (when, amount, wall, nt) => {
    const at = parseInstant(wall)!;
    const s = readStatement(statementCsv(when, amount, enc), 'bank.csv');
    expect(s.lines.map((l) => [l.at, l.amount, l.digits])).toEqual([[at, nt, '12345']]);
    expect(s.skipped).toBe(1);
    expect(s.encoding).toBe(enc === 'big5' ? 'big5' : 'utf-8');

    const p = await streamedPayments(write(paymentCsv(when, amount, enc), 'csv'));
    expect(p.errors).toEqual([]);
    expect(p.rows).toEqual([{ paid_at: at, amount: nt }]);
  });

  it.each(REFUSED_DATES)('%s is refused by both, naming the row', async (when) => {
    expect(() => readStatement(statementCsv(when, '1500', enc), 'bank.csv')).toThrow(
      `bank.csv 第 3 行：無法辨識的日期「${when}」`,
    );
    const p = await streamedPayments(write(paymentCsv(when, '1500', enc), 'csv'));
    expect(p.rows).toEqual([]);
    expect(p.errors).toEqual([`第 2 行：無效的日期格式：匯款時間「${when}」`]);
  });
});

describe.each(['xlsx', 'biff8'] as const)(
  'shared cases, as text cells of a %s workbook, through both readers',
  (bookType) => {
    it.each(SHARED_CASES)('%s with amount %s', async (when, amount, wall, nt) => {
      const at = parseInstant(wall)!;
      const statement = workbook(
        [['某銀行 存款交易明細'], STATEMENT_HEADER.split(','), [shown(when), '跨行轉入', shown(amount), '***12345']],
        bookType,
      );
      const s = readStatement(statement, `bank.${bookType === 'xlsx' ? 'xlsx' : 'xls'}`);
      expect(s.lines.map((l) => [l.at, l.amount])).toEqual([[at, nt]]);

      const payments = workbook(
        [PAYMENT_HEADER.split(','), ['2026/11/21', '01234', shown(when), shown(amount), '', '台北店', '']],
        bookType,
      );
      const whole = parsePaymentsWorkbook(payments, { stores: STORES });
      expect(whole.errors).toEqual([]);
      expect(whole.rows.map((r) => [r.paid_at, r.amount])).toEqual([[toIso(at), nt]]);
      const streamed = await streamedPayments(write(payments, bookType === 'xlsx' ? 'xlsx' : 'xls'));
      expect(streamed.rows).toEqual([{ paid_at: at, amount: nt }]);
    });
  },
);

describe('dates typed as numbers (1151121, 20261121) in a workbook, through both readers', () => {
  it.each([[1151121], [20261121]])('%d', async (v) => {
    const at = parseInstant('2026-11-21')!;
    const s = readStatement(
      workbook(
        [
          ['交易日期', '存入'],
          [v as unknown as string, 1500 as unknown as string],
        ],
        'xlsx',
      ),
      'bank.xlsx',
    );
    expect(s.lines.map((l) => l.at)).toEqual([at]);
    const payments = workbook(
      [PAYMENT_HEADER.split(','), [v, '01234', v, 1500, '', '台北店', ''] as unknown as string[]],
      'xlsx',
    );
    expect(parsePaymentsWorkbook(payments, { stores: STORES }).rows.map((r) => r.paid_at)).toEqual([toIso(at)]);
    expect((await streamedPayments(write(payments, 'xlsx'))).rows).toEqual([{ paid_at: at, amount: 1500 }]);
  });
});
