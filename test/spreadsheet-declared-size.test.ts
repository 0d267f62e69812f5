/**
 * A small spreadsheet whose sheet declares a huge range (`<dimension ref="A1:XFD100000"/>` in an
 * .xlsx, the DIMENSIONS record of an .xls): once, the statement reader visited every cell of the
 * declared range, and a 1.5 KB upload ran the server out of memory. Files LibreOffice wrote, with
 * only their declared range changed, are refused with the limit in Chinese by every reader: the
 * statement import (`remit reconcile`, the API), the payment import (`remit import`, the back
 * office's reader), at once and in little memory; and the server keeps answering meanwhile.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, MSG, parsePaymentsWorkbook, readStatement, systemActor, ValidationError } from '../core/index.js';
import { MAX_SHEET_COLUMNS } from '../core/limits.js';
import { HEADERS } from '../core/payments/sheetFile.js';
import { signToken } from '../core/users/auth.js';
import { type UserRow } from '../core/users/rows.js';
import { TEST_SECURITY } from './helpers/db.js';
import { PASSWORD } from './helpers/fixtures.js';
import { assertBuilt, BIN, remit } from './helpers/cli.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const CFB = XLSX.CFB;
/** A refusal in little memory: the attack took 1.8 GB before it died. */
const MAX_KB = 700 * 1024;

/** The .xlsx with its first sheet's `<dimension>` set to `ref`, rezipped. */
function declareXlsx(bytes: Buffer, ref: string): Buffer {
  const zip = CFB.read(bytes, { type: 'buffer' });
  const sheet = CFB.find(zip, '/xl/worksheets/sheet1.xml')!;
  const xml = Buffer.from(sheet.content as Uint8Array).toString('utf8');
  expect(xml).toMatch(/<dimension ref="[^"]*"\/>/);
  sheet.content = Buffer.from(xml.replace(/<dimension ref="[^"]*"\/>/, `<dimension ref="${ref}"/>`));
  sheet.size = sheet.content.length;
  return Buffer.from(CFB.write(zip, { type: 'buffer', fileType: 'zip', compression: true }) as Uint8Array);
}

/** The .xls with its first sheet's DIMENSIONS record (0x0200) declaring `rows` rows and `cols` columns. */
function declareXls(bytes: Buffer, rows: number, cols: number): Buffer {
  const cfb = CFB.read(bytes, { type: 'buffer' });
  const stream = CFB.find(cfb, 'Workbook')!;
  const b = Buffer.from(stream.content as Uint8Array);
  let patched = 0;
  for (let i = 0; i + 4 <= b.length && !patched; i += 4 + b.readUInt16LE(i + 2)) {
    if (b.readUInt16LE(i) !== 0x0200) continue;
    b.writeUInt32LE(rows, i + 8); // rwMac: one past the last row
    b.writeUInt16LE(cols, i + 14); // colMac: one past the last column
    patched++;
  }
  expect(patched).toBe(1);
  stream.content = b;
  return Buffer.from(CFB.write(cfb, { type: 'buffer', fileType: 'cfb' }) as Uint8Array);
}

const STATEMENT_CSV =
  '交易日期,交易時間,轉出,轉入,餘額,說明,帳號\r\n2026/11/05,14:03:22,,1500,9500,ATM轉帳,0130000123412345\r\n';
const IMPORT_CSV = `${HEADERS.join(',')}\r\n2026/11/18,12345,2026/11/18 09:15,1500,,台北店,\r\n`;

describe('a sheet that declares more than it holds', () => {
  let dir: string;
  let db: string;
  const written: Record<string, Buffer> = {};
  const tooWide = (range: string) => MSG.importTooManyColumns(range, MAX_SHEET_COLUMNS);

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-declared-'));
    for (const [name, csv] of [
      ['statement', STATEMENT_CSV],
      ['import', IMPORT_CSV],
    ]) {
      writeFileSync(join(dir, `${name}.csv`), csv);
      // 44,34,76: comma-separated, double quotes, UTF-8 (as a person picks in LibreOffice's import dialog)
      for (const ext of ['xlsx', 'xls']) {
        execFileSync(
          'soffice',
          [
            '--headless',
            `-env:UserInstallation=file://${dir}/profile`,
            '--infilter=CSV:44,34,76,1',
            '--convert-to',
            ext,
            '--outdir',
            dir,
            join(dir, `${name}.csv`),
          ],
          { stdio: 'ignore', timeout: 120_000 },
        );
        written[`${name}.${ext}`] = readFileSync(join(dir, `${name}.${ext}`));
      }
    }
    for (const name of ['statement', 'import']) {
      writeFileSync(join(dir, `${name}-huge.xlsx`), declareXlsx(written[`${name}.xlsx`], 'A1:XFD100000'));
      writeFileSync(join(dir, `${name}-huge.xls`), declareXls(written[`${name}.xls`], 65_536, 16_384));
    }
    db = join(dir, 'remit.sqlite');
    expect((await remit(['--db', db, 'migrate'], { cwd: dir })).code).toBe(0);
    expect((await remit(['--db', db, 'stores', 'add', '--name', '台北店', '--code', 'TPE'], { cwd: dir })).code).toBe(
      0,
    );
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the files as LibreOffice wrote them read as usual (only the declared range is what the attack changes)', () => {
    for (const ext of ['xlsx', 'xls']) {
      expect(readStatement(written[`statement.${ext}`], `statement.${ext}`).lines).toHaveLength(1);
      expect(
        parsePaymentsWorkbook(written[`import.${ext}`], { stores: [{ id: 1, name: '台北店', code: 'TPE' }] }).rows,
      ).toHaveLength(1);
    }
  });

  const refusedBy = (run: () => unknown): string => {
    try {
      run();
    } catch (err) {
      expect(err, String(err)).toBeInstanceOf(ValidationError);
      return (err as ValidationError).message + (err as ValidationError).errors.map((e) => e.message).join();
    }
    throw new Error('not refused');
  };

  it.each([
    ['xlsx', 'A1:XFD100000'],
    ['xls', 'A1:XFD65536'],
  ])('the core readers (the browser runs the import one) refuse the %s declaring %s', (ext, range) => {
    const statement = readFileSync(join(dir, `statement-huge.${ext}`));
    expect(statement.length).toBeLessThan(10_000);
    expect(refusedBy(() => readStatement(statement, `a.${ext}`))).toContain(`a.${ext}：${tooWide(range)}`);
    expect(
      refusedBy(() => parsePaymentsWorkbook(readFileSync(join(dir, `import-huge.${ext}`)), { stores: [] })),
    ).toContain(tooWide(range));
  });

  const hasTime = existsSync('/usr/bin/time');
  it.each([
    ['reconcile', 'statement-huge.xlsx', 'A1:XFD100000'],
    ['reconcile', 'statement-huge.xls', 'A1:XFD65536'],
    ['import', 'import-huge.xlsx', 'A1:XFD100000'],
    ['import', 'import-huge.xls', 'A1:XFD65536'],
  ])(
    'remit %s %s: refused, exit 1, in little memory',
    (command, file, range) => {
      const args = [BIN, '--db', db, command, file];
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
      // out of memory, or killed by the timeout, shows as another status
      expect(r.status, out.slice(0, 500)).toBe(1);
      expect(out).toContain(tooWide(range));
      if (hasTime) {
        const peak = Number(/PEAK_KB=(\d+)/.exec(r.stderr)?.[1]);
        expect(peak, `peak ${Math.round(peak / 1024)} MB`).toBeLessThan(MAX_KB);
      }
    },
    90_000,
  );

  describe('through the API', () => {
    let s: TestServer;
    let manager: string;
    beforeAll(async () => {
      s = await startTestServer('sqlite');
      const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
      const u = await createUser(ctx, {
        username: 'managerA',
        password: PASSWORD,
        role: 'user',
        store_id: s.stores.A.id,
        permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
      });
      manager = signToken(TEST_SECURITY, (await s.t.db<UserRow>('users').where({ id: u.id }).first())!);
    }, 60_000);
    afterAll(async () => s?.close());

    it('a one-store manager uploading it as a statement is told why, and the server answers meanwhile', async () => {
      const upload = s.api('POST', '/reconcile/statements?filename=a.xlsx', {
        token: manager,
        raw: readFileSync(join(dir, 'statement-huge.xlsx')),
        headers: { 'content-type': 'application/octet-stream' },
      });
      const health = await s.api('GET', '/health');
      expect(health.status).toBe(200);
      const res = await upload;
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(tooWide('A1:XFD100000'));
      expect(await s.t.db('bank_statements').count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(s.errors).toEqual([]);
    });
  });
});
