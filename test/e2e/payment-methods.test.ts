/**
 * In a real browser, at 375 px and 1280 px: the form at / asks the method first (匯款
 * preselected), a 現金 sale and an 電子支付 sale need no last five and are stored 已入帳 with their
 * method, sub-type and 員工購物 mark; the back office list shows 付款方式 and filters by it. The
 * form offers takings and cash out only to the accounts granted them.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { DESK, HAS_CHROMIUM, SCREENSHOTS, startE2E, type E2E } from './harness.js';

const yesterday = taipeiDate(Date.now() - 86_400_000);
const SHOTS = '/work/shots/h26a';

describe.skipIf(!HAS_CHROMIUM)('payment methods on the form and the list', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => e?.close());

  const shot = async (page: Parameters<E2E['shot']>[0], name: string) => {
    await e.shot(page, name);
    copyFileSync(join(SCREENSHOTS, `${name}.png`), join(SHOTS, `${name}.png`));
  };

  for (const width of [375, 1280]) {
    it(`records a 現金 sale and an 電子支付 sale (員工購物) without a last five at ${width} px`, async () => {
      const page = await e.signedIn('branchA', '/', { width, height: 900 });
      await page.getByRole('radio', { name: '匯款' }).waitFor();
      expect(await page.getByRole('radio', { name: '匯款' }).isChecked()).toBe(true);
      expect(await page.locator('#last_five').count()).toBe(1);

      await page.getByRole('radio', { name: '現金' }).check();
      expect(await page.locator('#last_five').count()).toBe(0);
      expect(await page.locator('#method_detail').count()).toBe(0);
      await page.locator('#paid_at').fill(`${yesterday}T10:0${width === 375 ? 1 : 2}`);
      await page.locator('#amount').fill(String(300 + width));
      await shot(page, `form-cash-${width}`);
      await page.getByRole('button', { name: '提交現金收款' }).click();
      await page.getByTestId('banner-success').waitFor();
      const cashUuid = /追蹤編號：([0-9a-f-]{36})$/.exec(
        (await page.getByTestId('banner-success').textContent()) ?? '',
      )?.[1];
      expect(await page.getByTestId('banner-success').textContent()).toMatch(/^現金收款已記錄（已入帳）！追蹤編號：/);
      const cash = await e.t.db('payments').where({ uuid: cashUuid }).first();
      expect([cash.method, cash.last_five, cash.status, Number(cash.amount), Boolean(cash.employee)]).toEqual([
        '現金',
        '',
        '已入帳',
        300 + width,
        false,
      ]);
      // the next entry keeps the method
      expect(await page.getByRole('radio', { name: '現金' }).isChecked()).toBe(true);

      await page.getByRole('radio', { name: '電子支付' }).check();
      await page.locator('#method_detail').fill('LINE Pay');
      await page.getByLabel('員工購物').check();
      await page.locator('#paid_at').fill(`${yesterday}T11:0${width === 375 ? 1 : 2}`);
      await page.locator('#amount').fill(String(500 + width));
      await shot(page, `form-epay-${width}`);
      await page.getByRole('button', { name: '提交電子支付收款' }).click();
      await page.getByTestId('banner-success').waitFor();
      await expect.poll(() => page.getByTestId('banner-success').textContent()).toMatch(/^電子支付收款已記錄/);
      const epay = await e.t
        .db('payments')
        .where({ amount: 500 + width })
        .first();
      expect([epay.method, epay.method_detail, epay.last_five, epay.status, Boolean(epay.employee)]).toEqual([
        '電子支付',
        'LINE Pay',
        '',
        '已入帳',
        true,
      ]);

      // back to 匯款: the last five is asked again, and a transfer without it is refused on the page
      await page.getByRole('radio', { name: '匯款' }).check();
      await page.locator('#amount').fill('100');
      await page.getByRole('button', { name: '提交匯款資訊' }).click();
      await page.getByText('請輸入帳號後五碼').waitFor();
      await page.context().close();
    });
  }

  for (const width of [375, 1280]) {
    it(`offers only what the account may record: a transfer report to a viewer, takings and cash out to the till, at ${width} px`, async () => {
      const viewer = await e.signedIn('hq_view_payments', '/', { width, height: 900 });
      await viewer.locator('#last_five').waitFor();
      await viewer.getByRole('button', { name: '提交匯款資訊' }).waitFor();
      expect(await viewer.getByRole('radio', { name: '現金' }).count()).toBe(0);
      expect(await viewer.getByTestId('cash-out').count()).toBe(0);
      await shot(viewer, `form-viewer-${width}`);
      await viewer.context().close();

      const till = await e.signedIn('hq_record_cash_out', '/', { width, height: 900 });
      await till.getByTestId('cash-out').waitFor();
      expect(await till.getByRole('radio', { name: '現金' }).count()).toBe(0);
      await till.context().close();

      const seller = await e.signedIn('hq_record_takings', '/', { width, height: 900 });
      await seller.getByRole('radio', { name: '現金' }).waitFor();
      expect(await seller.getByTestId('cash-out').count()).toBe(0);
      await seller.context().close();
    });
  }

  it('the list shows 付款方式 and filters by it, at 1280 and 375 px', async () => {
    const page = await e.signedIn(
      'admin',
      '/admin/payments?displayedFilters=%7B%7D&filter=%7B%22method%22%3A%22%E7%8F%BE%E9%87%91%22%7D',
      DESK,
    );
    await page.getByTestId('filter-method').waitFor();
    await expect.poll(() => page.locator('td.column-method').allTextContents()).toEqual(['現金', '現金']);
    await shot(page, 'list-cash-1280');
    // by the select, as a person would
    await page.getByTestId('filter-method').click();
    await page.getByRole('option', { name: '電子支付' }).click();
    await expect
      .poll(() => page.locator('td.column-method').allTextContents())
      .toEqual(['員工購物-電子支付-LINE Pay', '員工購物-電子支付-LINE Pay']);
    await page.context().close();

    const phone = await e.signedIn(
      'admin',
      '/admin/payments?displayedFilters=%7B%7D&filter=%7B%22method%22%3A%22%E7%8F%BE%E9%87%91%22%7D',
      { width: 375, height: 800 },
    );
    await phone.getByTestId('payment-cards').waitFor();
    await expect.poll(() => phone.locator('[data-testid^="payment-card-"]').count()).toBe(2);
    expect(await phone.getByTestId('payment-cards').textContent()).toContain('現金');
    await shot(phone, 'list-cash-375');
    await phone.context().close();
  });
});
