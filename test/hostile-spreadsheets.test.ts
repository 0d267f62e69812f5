/**
 * Hostile spreadsheets, through the core parser (as the browser runs it) and through `remit
 * import` (the built binary): zip bombs, oversized and broken files, `__proto__` keys, formulas,
 * a million rows, a 100 000-character cell. Each is refused with a clear message (exit 1) in
 * bounded time and memory, nothing is written, and Object.prototype is untouched.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, crc32 } from 'node:zlib';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, openDatabase, parsePaymentsWorkbook, ValidationError } from '../core/index.js';
import { HEADERS } from '../core/payments/sheetFile.js';
import { assertBuilt, BIN, remit } from './helpers/cli.js';
import { entry, repeatedEntry, xlsxWith, SHEET_PREFIX, SHEET_SUFFIX, type ZipEntry } from './helpers/zip.js';

const stores = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
];
const SHEET = 'xl/worksheets/sheet1.xml';
const MAX_KB = 700 * 1024;

function book(
  rows: unknown[][],
  opts: { sheetName?: string; header?: unknown[]; names?: string[]; bookType?: 'xlsx' | 'biff8' } = {},
): Buffer {
  const ws = XLSX.utils.aoa_to_sheet([opts.header ?? HEADERS, ...rows]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, opts.sheetName ?? '匯款記錄');
  if (opts.names)
    wb.Workbook = {
      ...(wb.Workbook ?? {}),
      Names: opts.names.map((Name) => ({ Name, Ref: `'${opts.sheetName ?? '匯款記錄'}'!$A$1` })),
    };
  return XLSX.write(wb, { type: 'buffer', bookType: opts.bookType ?? 'xlsx' }) as Buffer;
}

const okRow = (i: number) => [
  '2026/11/18',
  { t: 's', v: String(10000 + i), z: '@' },
  '2026/11/18 09:15',
  1500,
  '',
  '台北店',
  '',
];
const headerXml = `<row r="1">${HEADERS.map((h) => `<c t="inlineStr"><is><t>${h}</t></is></c>`).join('')}</row>`;

/** 1.1 GB of sheet XML in a few MB; `lie`: the headers claim 100 KB and a streaming writer's zero sizes. */
function bomb(lie: boolean): Buffer {
  const row =
    '<row><c t="inlineStr"><is><t>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA</t></is></c></row>';
  const sheet: ZipEntry = repeatedEntry(
    SHEET,
    SHEET_PREFIX + headerXml,
    row,
    Math.ceil(1.1e9 / row.length),
    SHEET_SUFFIX,
  );
  if (lie) Object.assign(sheet, { declaredSize: 100_000, descriptor: true });
  return xlsxWith(sheet);
}

/** A million data rows, varied enough to compress like a real sheet. */
function millionRows(): Buffer {
  const parts: string[] = [SHEET_PREFIX, headerXml];
  for (let i = 0; i < 1_000_000; i++)
    parts.push(
      `<row><c t="inlineStr"><is><t>2026/11/18</t></is></c><c><v>${(i * 7919) % 100000}</v></c><c><v>${46000 + (i % 997) / 1000}</v></c><c><v>${(i * 31) % 9973}</v></c></row>`,
    );
  parts.push(SHEET_SUFFIX);
  const xml = Buffer.from(parts.join(''), 'utf8');
  return xlsxWith({ name: SHEET, deflated: deflateRawSync(xml, { level: 1 }), size: xml.length, crc: crc32(xml) });
}

const longCell = 'x'.repeat(100_000);
/** SheetJS will not write a cell over 32 767 characters, so this sheet is written by hand. */
function handSheet(rows: Array<Array<string | number>>): Buffer {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const cell = (v: string | number) =>
    typeof v === 'number' ? `<c><v>${v}</v></c>` : `<c t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
  return xlsxWith(
    entry(
      SHEET,
      SHEET_PREFIX + headerXml + rows.map((r) => `<row>${r.map(cell).join('')}</row>`).join('') + SHEET_SUFFIX,
    ),
  );
}

interface Case {
  name: string;
  file: string;
  bytes: () => Buffer;
  /** the message expected somewhere in the refusal */
  message: string;
  /** where `remit import` (streamed, up to 1 048 576 rows and 512 MB) refuses it otherwise */
  cli?: string;
}

const CASES: Case[] = [
  {
    name: 'a zip bomb (1.1 GB of sheet XML, sizes honest)',
    file: 'bomb.xlsx',
    bytes: () => bomb(false),
    message: MSG.importZipBomb,
  },
  {
    name: 'a zip bomb whose sizes lie (data descriptor, 100 KB claimed)',
    file: 'bomb-lie.xlsx',
    bytes: () => bomb(true),
    message: MSG.importZipBomb,
  },
  {
    name: 'a 50 MB file',
    file: 'big.xlsx',
    bytes: () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(50 * 1024 * 1024 - 4)]),
    message: MSG.importFileTooLarge(25),
    // within the streamed limit: read, and found not to be a zip
    cli: MSG.importParseFailed,
  },
  {
    name: 'a truncated zip',
    file: 'truncated.xlsx',
    bytes: () => {
      const b = book([okRow(1), okRow(2)]);
      return b.subarray(0, Math.floor(b.length / 2));
    },
    message: MSG.importParseFailed,
  },
  {
    name: 'random bytes named .xls',
    file: 'random.xls',
    bytes: () => randomBytes(64 * 1024),
    message: MSG.importNotSpreadsheet,
  },
  {
    name: 'random bytes behind an OLE signature, named .xls',
    file: 'ole.xls',
    bytes: () => Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), randomBytes(64 * 1024)]),
    message: MSG.importParseFailed,
  },
  {
    name: 'a million rows',
    file: 'million.xlsx',
    bytes: millionRows,
    message: MSG.importTooManyRows(100_000),
    // streamed: within Excel's row limit, so every row is read (in bounded memory) and the bad ones named
    cli: MSG.rowError(2, MSG.importLastFiveLostZero('0')),
  },
  {
    name: 'a 100 000-character note',
    file: 'long-note.xlsx',
    bytes: () =>
      handSheet([
        ['2026/11/18', '10001', '2026/11/18 09:15', 1500, '', '台北店', ''],
        ['2026/11/18', '12345', '2026/11/18 09:15', 1500, longCell, '台北店', ''],
      ]),
    message: MSG.rowError(3, MSG.noteTooLong),
  },
  {
    name: 'a 100 000-character store cell',
    file: 'long-store.xlsx',
    bytes: () =>
      handSheet([
        ['2026/11/18', '10001', '2026/11/18 09:15', 1500, '', '台北店', ''],
        ['2026/11/18', '12345', '2026/11/18 09:15', 1500, '', longCell, ''],
      ]),
    message: MSG.rowError(3, MSG.importStoreNotFound(`${'x'.repeat(50)}…`)),
  },
  {
    name: '__proto__ as sheet name, header, defined name and cell values (one row invalid)',
    file: 'proto.xlsx',
    bytes: () =>
      book([okRow(1), ['__proto__', 'constructor', '__proto__', '__proto__', '__proto__', '__proto__', 'prototype']], {
        sheetName: '__proto__',
        header: [...HEADERS, '__proto__', 'constructor'],
        names: ['__proto__', 'constructor'],
      }),
    message: '第 3 行：',
  },
  {
    name: 'formulas: the cached value counts, nothing is evaluated (one row invalid)',
    file: 'formula.xlsx',
    bytes: () =>
      book([
        [
          '2026/11/18',
          '12345',
          '2026/11/18 09:15',
          { t: 'n', v: 1500, f: '1+1' },
          { t: 's', v: '=HYPERLINK("http://x")', f: 'HYPERLINK("http://x")' },
          '台北店',
          '',
        ],
        [
          '2026/11/18',
          '12346',
          '2026/11/18 09:15',
          { t: 'n', f: 'WEBSERVICE("http://127.0.0.1:1/")' },
          '',
          '台北店',
          '',
        ],
      ]),
    message: MSG.rowError(3, MSG.importBadData),
  },
];

function untouched() {
  const probe = {} as Record<string, unknown>;
  expect(Object.keys(Object.prototype)).toEqual([]);
  for (const k of ['polluted', 'A1', '!ref', 'Sheets', 'Name', 'Ref', 'constructor2', 'prototype', 't', 'v'])
    expect(probe[k], k).toBeUndefined();
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
  expect(typeof probe.toString).toBe('function');
}

/** The refusal's messages: thrown field messages, or the row errors of the result. */
function outcome(bytes: Buffer): { messages: string[]; result?: ReturnType<typeof parsePaymentsWorkbook> } {
  try {
    const result = parsePaymentsWorkbook(new Uint8Array(bytes), { stores });
    return { messages: result.errors, result };
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(ValidationError);
    return { messages: (err as ValidationError).errors.map((e) => e.message) };
  }
}

describe('hostile spreadsheets', () => {
  let dir: string;
  let db: string;
  const files = new Map<string, Buffer>();
  const snapshot = async () => {
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      const n = async (q: ReturnType<typeof k>) => Number(((await q.count({ n: '*' }).first()) as any).n);
      // the 匯入前 backup is taken before a streamed file's rows are read: a copy, which changes no data
      const audit = k('audit_log').whereNot({ entity: 'backup' });
      return { payments: await n(k('payments')), audit: await n(audit) };
    } finally {
      await k.destroy();
    }
  };

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-hostile-xl-'));
    db = join(dir, 'remit.sqlite');
    expect((await remit(['--db', db, 'migrate'], { cwd: dir })).code).toBe(0); // only migrate creates a database
    expect((await remit(['--db', db, 'stores', 'add', '--name', '台北店', '--code', 'TPE'], { cwd: dir })).code).toBe(
      0,
    );
    expect((await remit(['--db', db, 'stores', 'add', '--name', '台中店', '--code', 'TXG'], { cwd: dir })).code).toBe(
      0,
    );
    for (const c of CASES) {
      const b = c.bytes();
      files.set(c.name, b);
      writeFileSync(join(dir, c.file), b);
    }
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('the core parser (what the browser runs)', () => {
    it.each(CASES.map((c) => [c.name, c] as const))('%s', (_n, c) => {
      // No wall-clock limit (a busy machine is not a bug; speed is bench's job): a parser that
      // hangs fails on the test timeout.
      const { messages } = outcome(files.get(c.name)!);
      expect(messages.length, 'refused').toBeGreaterThan(0);
      expect(
        messages.some((m) => m.includes(c.message)),
        messages.slice(0, 3).join(' | '),
      ).toBe(true);
      for (const m of messages) expect(m.length).toBeLessThan(300);
      untouched();
    });

    it('formulas: the amount is the cached value, never the formula evaluated', () => {
      const { result } = outcome(files.get(CASES.find((c) => c.file === 'formula.xlsx')!.name)!);
      expect(result!.rows).toHaveLength(1);
      expect(result!.rows[0]).toMatchObject({ amount: 1500, note: '=HYPERLINK("http://x")' });
    });

    it('__proto__ everywhere: the good row still reads, the bad one is named', () => {
      const { result } = outcome(files.get(CASES.find((c) => c.file === 'proto.xlsx')!.name)!);
      expect(result!.sheetName).toBe('__proto__');
      expect(result!.rows.map((r) => r.last_five)).toEqual(['10001']);
      untouched();
    });
  });

  describe('remit import (the built binary)', () => {
    const hasTime = existsSync('/usr/bin/time');
    it.each(CASES.map((c) => [c.name, c] as const))(
      '%s',
      async (_n, c) => {
        const before = await snapshot();
        const args = [BIN, '--db', db, 'import', c.file];
        const r = hasTime
          ? spawnSync('/usr/bin/time', ['-f', 'PEAK_KB=%M', process.execPath, ...args], {
              cwd: dir,
              encoding: 'utf8',
              timeout: 60_000,
              env: { PATH: process.env.PATH ?? '' },
            })
          : spawnSync(process.execPath, args, {
              cwd: dir,
              encoding: 'utf8',
              timeout: 60_000,
              env: { PATH: process.env.PATH ?? '' },
            });
        const out = `${r.stdout}\n${r.stderr}`;
        // a hang is killed by spawnSync's timeout and shows as a status other than 1
        expect(r.status, out.slice(0, 500)).toBe(1);
        expect(out).toContain(c.cli ?? c.message);
        expect(out).not.toMatch(/\n\s+at |node_modules|\.js:\d+/);
        if (hasTime) {
          const peak = Number(/PEAK_KB=(\d+)/.exec(r.stderr)?.[1]);
          expect(peak, `peak ${Math.round(peak / 1024)} MB`).toBeLessThan(MAX_KB);
        }
        expect(await snapshot()).toEqual(before);
        // the bound is spawnSync's 60 s above (a hang shows as a status other than 1); at load 12 a
        // million rows took over vitest's default 30 s before the binary refused them
      },
      90_000,
    );
  });
});
