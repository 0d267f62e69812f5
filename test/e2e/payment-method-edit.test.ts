/**
 * In Chromium, at 1280 and 375 px: an editor corrects a payment's 付款方式 in the back
 * office (修改付款方式 on its row or card): 現金 to 電子支付 with its sub-type and 員工購物, 現金 to
 * 匯款 asking the last five with the form's own message; a cash entry of a closed day is refused
 * with the close's lock message. axe-core on the list with the dialog open (WCAG 2.1 A/AA: nothing
 * critical or serious). Screenshots in test-output/screenshots and /work/shots/h26 to look at.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import {
  callApi,
  DESK,
  HAS_CHROMIUM,
  minutesAgoToday,
  PHONE,
  seriousFindings,
  settle,
  startE2E,
  type E2E,
} from './harness.js';

const SHOTS = '/work/shots/h26';

describe.skipIf(!HAS_CHROMIUM)('修改付款方式 in the back office', () => {
  let e: E2E;
  const today = taipeiDate(Date.now());
  const ago = minutesAgoToday;
  const shot = async (page: Page, name: string) => {
    await e.shot(page, name);
    if (existsSync('/work/shots')) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    }
  };
  const sale = async (body: Record<string, unknown>) => {
    const r = (await callApi(e, 'POST', '/payments', 'branchA', { note: '', store_id: e.stores.A.id, ...body })) as {
      uuid?: string;
      message?: string;
    };
    expect(r.uuid, JSON.stringify(r)).toBeTruthy();
    return r.uuid!;
  };
  const row = (uuid: string) => e.t.db('payments').where({ uuid }).first();

  beforeAll(async () => {
    e = await startE2E();
  }, 60_000);
  afterAll(async () => {
    await e?.close();
  });

  for (const [width, height] of [
    [1280, 900],
    [375, 812],
  ]) {
    it(`corrects a method at ${width} px: 現金 to 電子支付 (員工購物), 現金 to 匯款 with its last five`, async () => {
      const cash = await sale({ method: '現金', amount: 700 + width, paid_at: ago(30) });
      const cash2 = await sale({ method: '現金', amount: 900 + width, paid_at: ago(20) });
      const page = await e.signedIn('branchA', '/admin/payments', { width, height });
      const open = async (uuid: string) => {
        await page.getByTestId(`method-edit-${uuid}`).click();
        await page.getByTestId('method-edit-dialog').waitFor();
        await settle(page);
      };
      const dialog = page.getByTestId('method-edit-dialog');

      await open(cash);
      expect(await dialog.getByRole('radio', { name: '現金' }).isChecked()).toBe(true);
      // only a transfer asks for the last five; only an e-payment for its sub-type
      expect(await dialog.getByLabel('帳號後五碼').count()).toBe(0);
      expect(await dialog.getByLabel('電子支付類型').count()).toBe(0);
      await dialog.getByRole('radio', { name: '電子支付' }).check();
      await dialog.getByLabel('電子支付類型').fill('LINE Pay');
      await dialog.getByLabel('員工購物').check();
      expect(await dialog.getByTestId('method-edit-status').textContent()).toBe('改為電子支付後，狀態會設為「已入帳」');
      expect(await seriousFindings(page)).toEqual([]);
      await shot(page, `method-edit-epay-${width}`);
      await dialog.getByRole('button', { name: '儲存' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      // the desk's row shows the method as its button; a phone's card in its heading, with a pencil
      if (width > 600)
        await expect
          .poll(() => page.getByTestId(`method-edit-${cash}`).textContent())
          .toBe('員工購物-電子支付-LINE Pay');
      else
        await expect
          .poll(() => page.getByTestId(`payment-card-${cash}`).getByLabel('付款方式', { exact: true }).textContent())
          .toBe('員工購物-電子支付-LINE Pay');
      const button = page.getByTestId(`method-edit-${cash}`);
      if (width > 600) expect(await button.getAttribute('title')).toBe('修改付款方式');
      else expect(await button.getAttribute('aria-label')).toBe('修改付款方式（目前：員工購物-電子支付-LINE Pay）');
      expect(await row(cash)).toMatchObject({
        method: '電子支付',
        method_detail: 'LINE Pay',
        last_five: '',
        status: '已入帳',
      });

      // 現金 to 匯款: the last five is asked, with the form's message when missing
      await open(cash2);
      await dialog.getByRole('radio', { name: '匯款' }).check();
      const lastFive = dialog.getByLabel('帳號後五碼');
      expect(await lastFive.isEnabled()).toBe(true);
      await dialog.getByRole('button', { name: '儲存' }).click();
      await expect.poll(() => dialog.getByText('請輸入帳號後五碼').count()).toBe(1);
      await lastFive.fill('5432');
      await dialog.getByRole('button', { name: '儲存' }).click();
      await expect.poll(() => dialog.getByText('帳號後五碼必須是5位數字').count()).toBe(1);
      await lastFive.fill('54321');
      expect(await dialog.getByTestId('method-edit-status').textContent()).toBe('改為匯款後，狀態會設為「未確認」');
      await shot(page, `method-edit-transfer-${width}`);
      await dialog.getByRole('button', { name: '儲存' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(async () => (await row(cash2)).method).toBe('匯款');
      expect(await row(cash2)).toMatchObject({ last_five: '54321', status: '未確認', method_detail: null });
      // the list shows it, as a person waits to see before opening it again
      if (width > 600) await expect.poll(() => page.getByTestId(`method-edit-${cash2}`).textContent()).toBe('匯款');
      else await expect.poll(() => page.getByTestId(`payment-card-${cash2}`).textContent()).toContain('54321');

      // a transfer keeps its last five: shown, not editable
      await open(cash2);
      expect(await dialog.getByLabel('帳號後五碼').inputValue()).toBe('54321');
      expect(await dialog.getByLabel('帳號後五碼').isEnabled()).toBe(false);
      await dialog.getByRole('button', { name: '取消' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await page.context().close();
    });
  }

  it('a phone turned sideways and back keeps 修改付款方式 open with what was typed, within a screen reader’s reach', async () => {
    const cash = await sale({ method: '現金', amount: 1357, paid_at: ago(25) });
    const page = await e.signedIn('branchA', '/admin/payments', PHONE);
    await page.getByTestId(`method-edit-${cash}`).click();
    const dialog = page.getByTestId('method-edit-dialog');
    await dialog.waitFor();
    await dialog.getByRole('radio', { name: '電子支付' }).check();
    await dialog.getByLabel('電子支付類型').fill('街口支付');
    // past 600 px the menu beside the list is no longer a drawer and the filters unfold (the list
    // stays cards below 1200 px): the dialog stays, with what was typed
    for (const [w, h] of [
      [812, 375],
      [375, 812],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await page.waitForFunction((x) => innerWidth === x, w);
      await settle(page);
      expect(await dialog.count()).toBe(1);
      expect(await dialog.locator('#method-edit-detail').inputValue()).toBe('街口支付');
      // not hidden from assistive technology (the closed menu drawer once left it aria-hidden)
      await expect.poll(() => page.getByRole('dialog', { name: '修改付款方式' }).count()).toBe(1);
    }
    // and the menu drawer opens and closes over the list as before
    await page.getByTestId('method-edit-dialog').getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '開啟選單' }).click();
    await page.getByTestId('mobile-menu-extras').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('mobile-menu-extras').waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('a cash entry of a closed day is refused with the close’s message; the list shows it unchanged', async () => {
    const B = e.stores.B.id;
    const r = (await callApi(e, 'POST', '/payments', 'admin', {
      method: '現金',
      amount: 1234,
      paid_at: ago(10),
      note: '',
      store_id: B,
    })) as { uuid: string };
    const closed = (await callApi(e, 'POST', '/closes', 'admin', {
      store_id: B,
      date: today,
      counted: 1234,
      opening: 0,
    })) as { message?: string };
    expect(closed.message, JSON.stringify(closed)).toBeUndefined();
    const page = await e.signedIn('branchB', '/admin/payments', DESK);
    await page.getByTestId(`method-edit-${r.uuid}`).click();
    const dialog = page.getByTestId('method-edit-dialog');
    await dialog.getByRole('radio', { name: '刷卡' }).check();
    await dialog.getByRole('button', { name: '儲存' }).click();
    const store = `${e.stores.B.name} (${e.stores.B.code})`;
    await expect
      .poll(() => page.getByTestId('method-edit-error').textContent())
      .toBe(
        `${store} ${today} 已日結，當天的現金收支已鎖定：需要「匯款管理」權限才能新增、修改或刪除（或請主管重新開帳）`,
      );
    await shot(page, 'method-edit-locked-1280');
    expect(await row(r.uuid)).toMatchObject({ method: '現金' });
    await dialog.getByRole('button', { name: '取消' }).click();
    expect(await page.getByTestId(`method-edit-${r.uuid}`).textContent()).toBe('現金');
    await page.context().close();
    expect(e.errors).toEqual([]);
  });
});
