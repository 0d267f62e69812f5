/**
 * The statistics dashboard and the store management page in a real browser: the numbers match
 * the data (all stores, one store through the top bar's switcher, after 重新整理, within a
 * date range, and within a user's own stores), 權限不足 without view_reports; stores are added,
 * edited, refused on a duplicate code or while in use, and deleted.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, taipeiDate } from '../../core/time.js';
import { DESK as DESKTOP, HAS_CHROMIUM, PHONE, pick, startE2E, type E2E } from './harness.js';

/** waits until the locator's text is exactly `expected` (the page fetches asynchronously) */
async function text(locator: Locator, expected: string) {
  await expect.poll(async () => (await locator.textContent())?.trim(), { timeout: 10_000 }).toBe(expected);
}

async function cards(page: Page, expected: { stores: string; payments: string; amount: string; confirmed: string }) {
  await text(page.getByTestId('stat-totalStores-value'), expected.stores);
  await text(page.getByTestId('stat-totalPayments-value'), expected.payments);
  await text(page.getByTestId('stat-totalAmount-value'), expected.amount);
  await text(page.getByTestId('stat-confirmedPayments-value'), expected.confirmed);
}

/** the per-store row's numbers, from the data-value of each field */
async function storeRow(page: Page, code: string) {
  const row = page.getByTestId(`store-stats-${code}`);
  await row.waitFor();
  const value = async (field: string) =>
    Number(await row.locator(`[data-field="${field}"]`).getAttribute('data-value'));
  return {
    total: await value('total_payments'),
    amount: await value('total_amount'),
    confirmed: await value('confirmed_payments'),
    pending: await value('pending_payments'),
    failed: await value('failed_payments'),
  };
}

describe.skipIf(!HAS_CHROMIUM)('dashboard and store management in the browser', () => {
  let e: E2E;
  const today = taipeiDate(Date.now());

  async function pay(store: number, amount: number, status: string, paidAt = `${today}T10:00:00+08:00`) {
    const headers = { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' };
    const last_five = String(10000 + Math.floor(Math.random() * 89999));
    const res = await fetch(`${e.url}/api/payments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ last_five, paid_at: paidAt, amount, note: 'e2e', store_id: store }),
    });
    expect(res.status).toBe(201);
    const { uuid } = (await res.json()) as { uuid: string };
    if (status !== '未確認') {
      const put = await fetch(`${e.url}/api/payments/${uuid}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ status }),
      });
      expect(put.status).toBe(200);
    }
  }

  beforeAll(async () => {
    e = await startE2E();
    const { A, B, C } = e.stores;
    await pay(A.id, 1000, '已入帳');
    await pay(A.id, 2500, '未確認');
    await pay(A.id, 300, '未入帳');
    await pay(B.id, 12000, '已入帳');
    await pay(B.id, 4500, '已入帳');
    // long ago: outside a date range that starts a week back
    await pay(C.id, 800, '未確認', '2025-01-15T12:00:00+08:00');
  });
  afterAll(async () => e?.close());

  it('shows the totals and per-store numbers of all stores, then of the store chosen in the top bar', async () => {
    const page = await e.signedIn('admin', '/admin/dashboard', DESKTOP);
    await cards(page, { stores: '3', payments: '6', amount: 'NT$21,100', confirmed: '3' });
    expect(await storeRow(page, 'TPE')).toEqual({ total: 3, amount: 3800, confirmed: 1, pending: 1, failed: 1 });
    expect(await storeRow(page, 'TXG')).toEqual({ total: 2, amount: 16500, confirmed: 2, pending: 0, failed: 0 });
    expect(await storeRow(page, 'KHH')).toEqual({ total: 1, amount: 800, confirmed: 0, pending: 1, failed: 0 });
    await page.getByTestId('dashboard-refresh').waitFor();
    await e.shot(page, 'dashboard-desktop');

    // the top bar's store switcher narrows the dashboard to one store
    await pick(page, page.getByTestId('store-switcher').getByRole('combobox'), '台中店 (TXG)');
    await cards(page, { stores: '1', payments: '2', amount: 'NT$16,500', confirmed: '2' });
    await text(page.getByTestId('dashboard-scope'), '範圍：台中店 (TXG)');
    await expect.poll(() => page.locator('[data-testid^="store-stats-"]').count()).toBe(1);
    expect(await storeRow(page, 'TXG')).toEqual({ total: 2, amount: 16500, confirmed: 2, pending: 0, failed: 0 });
    await page.locator('.MuiMenu-root').waitFor({ state: 'detached' }); // the switcher's menu fades out
    await e.shot(page, 'dashboard-desktop-one-store');

    // 重新整理 picks up a payment made elsewhere
    await pay(e.stores.B.id, 700, '未入帳');
    await cards(page, { stores: '1', payments: '2', amount: 'NT$16,500', confirmed: '2' });
    await page.getByTestId('dashboard-refresh').click();
    await cards(page, { stores: '1', payments: '3', amount: 'NT$17,200', confirmed: '2' });
    expect(await storeRow(page, 'TXG')).toEqual({ total: 3, amount: 17200, confirmed: 2, pending: 0, failed: 1 });

    // back to all stores, then a date range from a week ago leaves out the old payment of 高雄店
    await pick(page, page.getByTestId('store-switcher').getByRole('combobox'), '全部分店');
    await cards(page, { stores: '3', payments: '7', amount: 'NT$21,800', confirmed: '3' });
    await page.getByTestId('dashboard-from').fill(addDays(today, -7));
    await page.getByTestId('dashboard-to').fill(today);
    await cards(page, { stores: '3', payments: '6', amount: 'NT$21,000', confirmed: '3' });
    expect(await storeRow(page, 'KHH')).toEqual({ total: 0, amount: 0, confirmed: 0, pending: 0, failed: 0 });
    await page.getByRole('button', { name: '清除日期' }).click();
    await cards(page, { stores: '3', payments: '7', amount: 'NT$21,800', confirmed: '3' });
    await page.context().close();
  });

  it('fits a 375 px phone', async () => {
    const page = await e.signedIn('admin', '/admin/dashboard', PHONE);
    await cards(page, { stores: '3', payments: '7', amount: 'NT$21,800', confirmed: '3' });
    expect(await storeRow(page, 'TPE')).toEqual({ total: 3, amount: 3800, confirmed: 1, pending: 1, failed: 1 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await e.shot(page, 'dashboard-phone');
    await page.context().close();
  });

  it('fits a tablet beside the menu (600 to 900 px): its tools wrap, nothing scrolls sideways', async () => {
    for (const width of [600, 768, 900]) {
      const page = await e.signedIn('admin', '/admin/dashboard', { width, height: 1024 });
      await page.getByTestId('dashboard-scope').waitFor();
      await expect.poll(() => page.getByTestId('dashboard-refresh').isEnabled()).toBe(true);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      const refresh = await page.getByTestId('dashboard-refresh').boundingBox();
      expect(refresh!.x + refresh!.width, `${width} px`).toBeLessThanOrEqual(width);
      // 各分店統計: every store's 未入帳, the last figure, on the screen
      const failed = (await page
        .getByTestId('store-stats-TPE')
        .locator('[data-field="failed_payments"]')
        .boundingBox())!;
      expect(failed.x + failed.width, `${width} px`).toBeLessThanOrEqual(width);
      await page.context().close();
    }
  });

  it('shows a user with view_reports only their own stores', async () => {
    const page = await e.signedIn('hq_view_reports', '/admin/dashboard', DESKTOP);
    await cards(page, { stores: '2', payments: '6', amount: 'NT$21,000', confirmed: '3' });
    await page.getByTestId('store-stats-TPE').waitFor();
    await page.getByTestId('store-stats-TXG').waitFor();
    expect(await page.getByTestId('store-stats-KHH').count()).toBe(0);
    await page.context().close();
  });

  it('tells a user without view_reports 權限不足', async () => {
    const page = await e.signedIn('hq_view_payments', '/admin/dashboard', DESKTOP);
    await page.getByTestId('dashboard-forbidden').waitFor();
    await text(page.getByTestId('dashboard-forbidden').locator('.MuiAlertTitle-root'), '權限不足');
    expect(await page.getByTestId('stat-totalStores').count()).toBe(0);
    await e.shot(page, 'dashboard-forbidden');
    await page.context().close();
  });

  it('adds, edits and deletes stores, with the validation and the server refusals shown', async () => {
    const page = await e.signedIn('admin', '/admin/stores', DESKTOP);
    const table = page.getByTestId('store-table');
    await table.getByText('台北店').waitFor();
    await table.getByText('KHH').waitFor();
    await e.shot(page, 'stores-desktop');

    // the core's rules before anything is sent
    await page.getByRole('button', { name: '新增分店' }).click();
    const dialog = page.getByTestId('store-form-dialog');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.getByText('請輸入分店名稱').waitFor();
    await dialog.getByText('請輸入分店代碼').waitFor();
    await dialog.getByLabel('分店名稱').fill('新竹店');
    await dialog.getByLabel('分店代碼').fill('新竹');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.getByText('分店代碼只能包含英文字母、數字、底線和連字號，最多20個字元').waitFor();
    await e.shot(page, 'stores-form-errors');

    // the server's 409 on a duplicate code (codes are unique whatever their case)
    await dialog.getByLabel('分店代碼').fill('tpe');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.getByText('分店代碼已存在').waitFor();

    await dialog.getByLabel('分店代碼').fill('HSZ');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await table.getByText('HSZ').waitFor();
    const created = await e.t.db('stores').where({ code: 'HSZ' }).first();
    expect(created?.name).toBe('新竹店');

    // edit
    await page.getByRole('button', { name: '編輯 新竹店' }).click();
    await expect.poll(() => dialog.getByLabel('分店名稱').inputValue()).toBe('新竹店');
    await dialog.getByLabel('分店名稱').fill('新竹竹北店');
    await dialog.getByLabel('分店代碼').fill('TXG');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.getByText('分店代碼已存在').waitFor();
    await dialog.getByLabel('分店代碼').fill('HSZ');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await table.getByText('新竹竹北店').waitFor();
    expect((await e.t.db('stores').where({ code: 'HSZ' }).first())?.name).toBe('新竹竹北店');

    // a store with payments is kept, and the dialog says why
    await page.getByRole('button', { name: '刪除 台北店' }).click();
    const confirm = page.getByTestId('store-delete-dialog');
    await confirm.getByText('確定要刪除分店「台北店 (TPE)」嗎？此操作無法復原。').waitFor();
    await confirm.getByRole('button', { name: '刪除' }).click();
    await text(confirm.getByTestId('store-delete-error'), '此分店仍有匯款記錄或用戶，無法刪除');
    await e.shot(page, 'stores-delete-refused');
    await confirm.getByRole('button', { name: '取消' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await e.t.db('stores').where({ code: 'TPE' }).first()).toBeTruthy();

    // an unused store goes
    await page.getByRole('button', { name: '刪除 新竹竹北店' }).click();
    await confirm.getByRole('button', { name: '刪除' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => table.getByText('新竹竹北店').count()).toBe(0);
    expect(await e.t.db('stores').where({ code: 'HSZ' }).first()).toBeUndefined();
    await page.context().close();
  });

  it('分店管理 on a tablet beside the menu (768 and 1024 px): cards, nothing off the side', async () => {
    for (const width of [768, 1024]) {
      const page = await e.signedIn('admin', '/admin/stores', { width, height: 900 });
      await page.getByTestId('store-row-TPE').waitFor();
      expect(await page.locator('table').count()).toBe(0);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        `${width} px`,
      ).toBeLessThanOrEqual(0);
      const edit = (await page.getByRole('button', { name: '編輯 台中店' }).boundingBox())!;
      expect(edit.x + edit.width).toBeLessThanOrEqual(width);
      await page.context().close();
    }
  });

  it('manages stores on a 375 px phone', async () => {
    const page = await e.signedIn('admin', '/admin/stores', PHONE);
    await page.getByTestId('store-row-TPE').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await e.shot(page, 'stores-phone');
    await page.getByRole('button', { name: '編輯 台中店' }).click();
    const dialog = page.getByTestId('store-form-dialog');
    await expect.poll(() => dialog.getByLabel('分店代碼').inputValue()).toBe('TXG');
    await e.shot(page, 'stores-phone-edit');
    await dialog.getByRole('button', { name: '取消' }).click();
    await page.context().close();
  });
});
