/**
 * The payments tab in a real browser: filters by date, status and store, inline status and note
 * changes that persist, single and batch delete, exports that parse back, the import wizard,
 * and the 權限不足 notice.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePaymentsWorkbook, taipeiDate, addDays } from '../../core/index.js';
import { HEADERS } from '../../core/payments/sheetFile.js';
import { HAS_CHROMIUM, pick, startE2E, type E2E } from './harness.js';

const today = taipeiDate(Date.now());
const daysAgo = (n: number) => addDays(today, -n);

describe.skipIf(!HAS_CHROMIUM)('payments tab in the browser', () => {
  let e: E2E;
  const ids: Record<string, string> = {};
  const pay = async (name: string, body: Record<string, unknown>) => {
    const r = await fetch(`${e.url}/api/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${e.tokens.admin}` },
      body: JSON.stringify(body),
    });
    ids[name] = (await r.json()).uuid;
  };

  beforeAll(async () => {
    e = await startE2E();
    await pay('a1', {
      last_five: '11111',
      paid_at: `${today}T09:15`,
      amount: 1500,
      store_id: e.stores.A.id,
      note: '早班',
    });
    await pay('a2', { last_five: '22222', paid_at: `${daysAgo(1)}T10:00`, amount: 2300, store_id: e.stores.A.id });
    await pay('b1', { last_five: '33333', paid_at: `${daysAgo(2)}T11:00`, amount: 800, store_id: e.stores.B.id });
    await pay('old', { last_five: '44444', paid_at: `${daysAgo(10)}T12:00`, amount: 999, store_id: e.stores.C.id });
  });
  afterAll(async () => e?.close());

  const rows = (page: import('playwright-core').Page) => page.locator('tbody tr');

  it('shows the last three days by default, newest first, and filters by status, store and dates', async () => {
    const page = await e.signedIn('admin', '/admin/payments');
    await page.getByTestId('payment-filters').waitFor();
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await page.getByTestId('count-line').textContent()).toBe('顯示 3 筆，共 4 筆');
    expect(await rows(page).first().textContent()).toContain('11111');
    await e.shot(page, 'payments-admin');

    await page.getByTestId('filter-from').fill(daysAgo(30));
    await expect.poll(() => rows(page).count()).toBe(4);
    // status
    await pick(page, page.getByTestId('filter-status'), '已入帳');
    await expect.poll(() => page.getByTestId('payments-empty').isVisible()).toBe(true);
    expect(await page.getByTestId('payments-empty').textContent()).toBe('沒有符合篩選條件的匯款記錄');
    await page.getByRole('button', { name: '清除篩選' }).click();
    await expect.poll(() => rows(page).count()).toBe(4);
    // store through the top bar's switcher
    await pick(page, page.getByTestId('store-switcher'), '台中店 (TXG)');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain('33333');
    await pick(page, page.getByTestId('store-switcher'), '全部分店');
    await expect.poll(() => rows(page).count()).toBe(4);
    await page.context().close();
  });

  it('changes a status and a note, which persist after a reload', async () => {
    const page = await e.signedIn('admin', '/admin/payments');
    await page.getByTestId(`status-${ids.a2}`).waitFor();
    await pick(page, page.getByTestId(`status-${ids.a2}`).locator('..'), '已入帳');
    const note = page.getByTestId(`note-${ids.a2}`);
    await note.fill('已核對');
    await note.blur();
    await expect
      .poll(
        async () =>
          (
            await (
              await fetch(`${e.url}/api/payments/${ids.a2}`, { headers: { authorization: `Bearer ${e.tokens.admin}` } })
            ).json()
          ).note,
      )
      .toBe('已核對');
    await page.reload();
    await page.getByTestId(`note-${ids.a2}`).waitFor();
    expect(await page.getByTestId(`note-${ids.a2}`).inputValue()).toBe('已核對');
    expect(await page.getByTestId(`status-${ids.a2}`).locator('..').textContent()).toContain('已入帳');
    await page.context().close();
  });

  it('shows read-only status and 無備註 without edit_payments, and 權限不足 without view_payments', async () => {
    const viewer = await e.signedIn('hq_view_payments', '/admin/payments');
    await viewer.getByTestId('count-line').waitFor();
    await expect.poll(() => viewer.getByText('無備註').count()).toBeGreaterThan(0);
    expect(await viewer.locator('[data-testid^="status-"]').count()).toBe(0);
    await e.shot(viewer, 'payments-viewer');
    await viewer.context().close();

    const none = await e.signedIn('hq_manage_users', '/admin/payments');
    await none.getByTestId('payments-forbidden').waitFor();
    const text = await none.getByTestId('payments-forbidden').textContent();
    expect(text).toContain('權限不足');
    expect(text).toContain('您沒有查看匯款記錄的權限');
    expect(text).toContain('manage_users');
    await none.context().close();
  });

  it('deletes one payment after confirming, and a batch after confirming the count', async () => {
    const page = await e.signedIn('admin', '/admin/payments');
    await page.getByTestId(`delete-${ids.a1}`).click();
    await page
      .getByText(
        '確定要刪除帳號後五碼 11111、金額 NT$1,500 的匯款記錄嗎？刪除後幾秒內仍可按「復原」取消，之後無法復原。',
      )
      .waitFor();
    await page.getByRole('button', { name: '確認刪除' }).click();
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });

    await page.getByTestId('filter-from').fill(daysAgo(30));
    await expect.poll(() => rows(page).count()).toBe(3);
    await page.locator('thead input[type="checkbox"]').check();
    await page.getByRole('button', { name: '批次刪除' }).click();
    await page.getByText('確定要刪除選取的 3 筆匯款記錄嗎？刪除後幾秒內仍可按「復原」取消，之後無法復原。').waitFor();
    await page.getByRole('button', { name: '確認刪除' }).click();
    // the rows go at once; the deletes are sent when the 復原 notice has gone, and then nothing is left
    await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });
    await expect
      .poll(() => page.getByTestId('payments-empty').textContent(), { timeout: 10_000 })
      .toBe('目前沒有任何匯款記錄');
    await page.context().close();
  });

  it('imports a good file through the wizard, refuses a file full of errors, and exports files that parse back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-e2e-'));
    const sheet = (rows: unknown[][]) => {
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([HEADERS, ...rows]), '匯款記錄');
      return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    };
    writeFileSync(
      join(dir, 'good.xlsx'),
      sheet([
        [today, '55555', `${today} 08:00`, 1200, '匯入', '台北店', '已點收'],
        [today, '66666', `${today} 08:30`, 3400, '', 'TXG', ''],
      ]),
    );
    writeFileSync(
      join(dir, 'bad.xlsx'),
      sheet(Array.from({ length: 8 }, (_, i) => [today, '12', '', -i, '', '沒有這家', ''])),
    );

    const page = await e.signedIn('admin', '/admin/payments');
    await page.getByRole('button', { name: 'Excel 匯入' }).click();
    await page.getByTestId('import-file').setInputFiles(join(dir, 'bad.xlsx'));
    await page.getByTestId('import-file-info').waitFor();
    expect(await page.getByTestId('import-file-info').textContent()).toMatch(/^bad\.xlsx（\d+\.\d KB）$/);
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByTestId('import-preview').waitFor();
    const preview = await page.getByTestId('import-preview').textContent();
    expect(preview).toContain('第 2 行：後五碼必須是5位數字');
    expect(preview).toMatch(/…還有 \d+ 行有錯誤/);
    expect(await page.getByRole('button', { name: '確認匯入' }).count()).toBe(0);
    await e.shot(page, 'import-errors');
    await page.getByRole('button', { name: '取消' }).click();

    await page.getByRole('button', { name: 'Excel 匯入' }).click();
    await page.getByTestId('import-file').setInputFiles(join(dir, 'good.xlsx'));
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByTestId('import-preview').waitFor();
    await e.shot(page, 'import-preview');
    await page.getByRole('button', { name: '確認匯入' }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('import-result').textContent()).toContain('匯入成功成功匯入 2 筆記錄');
    await page.getByRole('button', { name: '關閉' }).click();
    await expect.poll(() => rows(page).count()).toBe(2);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^匯出篩選結果（2 筆）$/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^匯款記錄_\d{8}-\d{8}_\d{12}\.xlsx$/);
    // Streamed by the server through a link, not assembled in the page.
    expect(file.url()).toMatch(/\/api\/payments\/export\?ticket=/);
    const saved = join(dir, 'export.xlsx');
    await file.saveAs(saved);
    const back = parsePaymentsWorkbook(readFileSync(saved), { stores: Object.values(e.stores) });
    expect(back.errors).toEqual([]);
    expect(back.rows.map((r) => r.last_five).sort()).toEqual(['55555', '66666']);
    expect(back.rows.find((r) => r.last_five === '55555')?.status).toBe('已入帳');

    const all = page.waitForEvent('download');
    await page.getByRole('button', { name: '匯出全部' }).click();
    const allFile = await all;
    expect(allFile.suggestedFilename()).toMatch(/^匯款記錄_全部_\d{12}\.xlsx$/);
    expect(allFile.url()).toMatch(/\/api\/payments\/export\?ticket=/);
    const allRows = parsePaymentsWorkbook(readFileSync((await allFile.path())!), { stores: Object.values(e.stores) });
    expect(allRows.errors).toEqual([]);
    expect(allRows.rows.map((r) => r.last_five).sort()).toEqual(['55555', '66666']);

    await pick(page, page.getByTestId('filter-status'), '未入帳');
    await expect.poll(() => page.getByTestId('payments-empty').isVisible()).toBe(true);
    // The alert may open inside the click's own handler: answer it as it opens, so the click
    // never waits on a dialog nobody has closed yet.
    const alerts: string[] = [];
    page.once('dialog', (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    await page.getByRole('button', { name: /^匯出篩選結果/ }).click();
    await expect.poll(() => alerts).toEqual(['沒有資料可匯出']);
    await page.context().close();
  });

  it('answered no request with a server error', () => {
    expect(e.errors).toEqual([]);
  });
});
