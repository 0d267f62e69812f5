/**
 * In a real browser, with spreadsheets LibreOffice wrote: the import wizard's
 * preview checks duplicates against the database before anything is confirmed, gives each row
 * its reason (錯誤 with the message, 重複 with what it repeats, 將匯入), its counts agree with the
 * rows listed, and the result says how many were imported and how many skipped as duplicates. An
 * import that would add nothing never says 匯入成功.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor, taipeiDate } from '../../core/index.js';
import { HEADERS } from '../../core/payments/sheetFile.js';
import { entry, SHEET_PREFIX, SHEET_SUFFIX, xlsxWith } from '../helpers/zip.js';
import { TEST_SECURITY } from '../helpers/db.js';
import { DESK, HAS_CHROMIUM, PASSWORD, PHONE, SCREENSHOTS, settle, startE2E, type E2E } from './harness.js';

const day = taipeiDate(Date.now() - 86_400_000);

describe.skipIf(!HAS_CHROMIUM)('the import preview', () => {
  let e: E2E;
  let dir: string;
  let storedUuid: string;
  const count = async () => Number(((await e.t.db('payments').count({ n: '*' }).first()) as { n: number | string }).n);

  /** an .xlsx as LibreOffice writes it from a CSV a person typed */
  function libreOffice(name: string, rows: string[][]): string {
    const csv = join(dir, `${name}.csv`);
    writeFileSync(csv, [HEADERS, ...rows].map((r) => r.join(',')).join('\r\n') + '\r\n', 'utf8');
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'lo-profile')}`,
        '--headless',
        '--infilter=CSV:44,34,76,1',
        '--convert-to',
        'xlsx',
        '--outdir',
        dir,
        csv,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    return join(dir, `${name}.xlsx`);
  }

  const good1 = [day, '10001', `${day} 09:00`, '1000', '早班', '台北店', ''];
  const good2 = [day, '10002', `${day} 09:30`, '2500', '', 'TPE', '已點收'];
  const bad = [day, 'abc12', `${day} 09:45`, '800', '', '台北店', ''];
  const inDatabase = [day, '10005', `${day} 10:00`, '5000', '', '台北店', ''];
  let withError: string;
  let clean: string;

  beforeAll(async () => {
    e = await startE2E();
    dir = mkdtempSync(join(tmpdir(), 'remit-import-preview-'));
    // rows 2..6: good, good, bad, a payment already stored, a repeat of row 2
    withError = libreOffice('with-error', [good1, good2, bad, inDatabase, good1]);
    // rows 2..5: good, good, a payment already stored, a repeat of row 2
    clean = libreOffice('clean', [good1, good2, inDatabase, good1]);
    const made = await fetch(`${e.url}/api/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        last_five: '10005',
        paid_at: `${day}T10:00`,
        amount: 5000,
        store_id: e.stores.A.id,
        note: '',
      }),
    });
    expect(made.status).toBe(201);
    storedUuid = (await made.json()).uuid;
    const ctx = { db: e.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    await createUser(ctx, {
      username: 'tpe_manager',
      password: PASSWORD,
      role: 'user',
      store_id: e.stores.A.id,
      permissions: ['view_payments', 'manage_payments'],
    });
  }, 240_000);
  afterAll(async () => {
    await e?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openPreview(page: Page, file: string) {
    await page.getByRole('button', { name: 'Excel 匯入' }).click();
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByTestId('import-preview').waitFor();
    // the database was asked before anything is confirmed
    await page.getByTestId('import-checking').waitFor({ state: 'detached' });
  }
  /** a preview row's mark and reason (the columns after the row number) */
  const cells = async (page: Page, row: number) =>
    (await page.getByTestId(`import-row-${row}`).locator('td').allInnerTexts()).map((t) => t.trim()).slice(1, 3);

  it('marks each row with its reason, checks the database, and counts what it lists (admin at a desk)', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    const before = await count();
    await openPreview(page, withError);
    expect(await page.getByTestId('import-counts').innerText()).toBe('共 5 行：將匯入 2 筆、重複 2 筆、錯誤 1 行');
    const errors = page.getByTestId('import-errors');
    expect(await errors.innerText()).toBe('1 行有錯誤，請修正後再匯入\n第 4 行：後五碼必須是5位數字');
    expect(await cells(page, 2)).toEqual(['將匯入', '']);
    expect(await cells(page, 3)).toEqual(['將匯入', '']);
    expect(await cells(page, 4)).toEqual(['錯誤', '後五碼必須是5位數字']);
    expect(await cells(page, 5)).toEqual(['重複', `與已有記錄重複（追蹤編號：${storedUuid}）`]);
    expect(await cells(page, 6)).toEqual(['重複', '與第 2 行重複，已略過']);
    // four marks beside five rows would not add up: every row listed is counted once
    expect(await page.locator('[data-testid^="import-row-"]').count()).toBe(5);
    expect(await page.getByRole('button', { name: '確認匯入' }).count()).toBe(0);
    await settle(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'import-preview-reasons-1280.png') });
    await page.getByRole('button', { name: '取消' }).click();
    expect(await count()).toBe(before);

    // the file fixed: imported, and the result says what was skipped
    await openPreview(page, clean);
    expect(await page.getByTestId('import-counts').innerText()).toBe('共 4 行：將匯入 2 筆、重複 2 筆');
    await page.getByRole('button', { name: '確認匯入' }).click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    expect(await result.innerText()).toBe('匯入成功\n成功匯入 2 筆記錄，略過重複 2 筆');
    await settle(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'import-result-1280.png') });
    expect(await count()).toBe(before + 2);
    await page.getByRole('button', { name: '關閉' }).click();

    // the same file again adds nothing, and says so instead of 匯入成功
    await openPreview(page, clean);
    expect(await page.getByTestId('import-counts').innerText()).toBe('共 4 行：將匯入 0 筆、重複 4 筆');
    await page.getByTestId('import-nothing-new').waitFor();
    expect(await page.getByRole('button', { name: '確認匯入' }).count()).toBe(0);
    expect(await page.getByTestId('import-preview').innerText()).not.toContain('匯入成功');
    expect(await count()).toBe(before + 2);
    await page.context().close();
  });

  it('a branch manager on a phone sees the same preview, within the screen', async () => {
    const page = await (await e.context(PHONE)).newPage();
    await page.goto(`${e.url}/admin/login?redirect=${encodeURIComponent('/admin/payments')}`);
    await page.getByLabel('用戶名').fill('tpe_manager');
    await page.getByLabel('密碼').fill(PASSWORD);
    await page.getByRole('button', { name: '登入' }).click();
    await page.waitForURL(/\/admin\/payments$/);
    await openPreview(page, withError);
    // rows 2 and 3 are stored now (the test before): only the bad row and the repeats are left
    expect(await page.getByTestId('import-counts').innerText()).toBe('共 5 行：將匯入 0 筆、重複 4 筆、錯誤 1 行');
    expect((await cells(page, 2))[1]).toMatch(/^與已有記錄重複（追蹤編號：[0-9a-f-]{36}）$/);
    // the wizard covers the phone's screen and no wider (its table scrolls inside it)
    const box = (await page.getByTestId('import-dialog').locator('.MuiDialog-paper').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(
      await page
        .getByTestId('import-dialog')
        .locator('.MuiDialogContent-root')
        .evaluate((el) => el.scrollWidth <= el.clientWidth),
    ).toBe(true);
    await settle(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'import-preview-reasons-375.png') });
    await page.context().close();
  });

  it('sends a sheet over the browser’s row limit to the command line, recognising the refusal by its code', async () => {
    // a small file whose sheet says it runs to row 200 000: refused before any row is read
    const sheet =
      SHEET_PREFIX.replace('<sheetData>', '<dimension ref="A1:G200000"/><sheetData>') +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>營業日期</t></is></c></row>' +
      SHEET_SUFFIX;
    const file = join(dir, 'tall.xlsx');
    writeFileSync(file, xlsxWith(entry('xl/worksheets/sheet1.xml', sheet)));
    for (const size of [PHONE, DESK]) {
      const page = await e.signedIn('admin', '/admin/payments', size);
      await page.getByRole('button', { name: 'Excel 匯入' }).click();
      await page.getByTestId('import-file').setInputFiles(file);
      await page.getByRole('button', { name: '下一步' }).click();
      const alert = page.getByTestId('import-dialog').getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toBe(
        '瀏覽器一次最多匯入 100000 筆。更多的資料請在伺服器上以指令匯入：remit import 檔案名稱.xlsx（.xlsx 或 CSV 最多 1048576 筆）',
      );
      await settle(page);
      await page.screenshot({ path: join(SCREENSHOTS, `import-too-many-rows-${size.width}.png`) });
      await page.context().close();
    }
  });
});
