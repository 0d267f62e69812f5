/**
 * In Chromium: a store's day of takings (現金, 刷卡, 匯款, 電子支付), a 店內支出 recorded on the
 * form at 375 px, the day closed on a phone by counting the drawer note by note, reopened by a
 * manager, and the board on a desk at 1280 px. Screenshots in test-output/screenshots and
 * /work/shots/h26b (when that folder exists) to look at.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNTD, taipeiDate } from '../../core/index.js';
import {
  callApi,
  capture,
  DESK,
  HAS_CHROMIUM,
  minutesAgoToday,
  PHONE,
  seriousFindings,
  startE2E,
  type E2E,
} from './harness.js';

const SHOTS = '/work/shots/h26b';

describe.skipIf(!HAS_CHROMIUM)('the daily close in the browser', () => {
  let e: E2E;
  const today = taipeiDate(Date.now());
  const shot = async (page: Page, name: string) => {
    await e.shot(page, name);
    if (existsSync('/work/shots')) {
      mkdirSync(SHOTS, { recursive: true });
      await capture(page, join(SHOTS, `${name}.png`));
    }
  };

  beforeAll(async () => {
    e = await startE2E();
    const A = e.stores.A.id;
    // a day of takings, a few minutes apart, earlier today (Taiwan time)
    const ago = minutesAgoToday;
    const sales: Array<Record<string, unknown>> = [
      { method: '現金', amount: 1200, paid_at: ago(50) },
      { method: '刷卡', amount: 800, paid_at: ago(40) },
      { method: '匯款', last_five: '12345', amount: 3000, paid_at: ago(30) },
      { method: '電子支付', method_detail: 'LINE Pay', amount: 450, paid_at: ago(20) },
      { method: '現金', amount: 250, employee: true, paid_at: ago(15) },
    ];
    for (const s of sales) {
      const r = (await callApi(e, 'POST', '/payments', 'branchA', { ...s, note: '', store_id: A })) as {
        uuid?: string;
        message?: string;
      };
      expect(r.uuid, JSON.stringify(r)).toBeTruthy();
    }
  }, 60_000);
  afterAll(async () => {
    await e?.close();
  });

  it('a 店內支出 on the form at 375 px', async () => {
    const page = await e.signedIn('branchA', '/', PHONE);
    const section = page.getByTestId('cash-out');
    await section.waitFor();
    await section.getByLabel('店內支出').check();
    await section.getByLabel('項目').fill('清潔用品');
    await section.getByLabel('金額').fill('300');
    await section.getByLabel('備註').fill('垃圾袋');
    await section.getByTestId('cash-out-submit').click();
    await expect.poll(() => page.getByTestId('cash-out-success').textContent()).toMatch(/^已記錄店內支出 NT\$300/);
    // a 提領 without an amount is refused on the spot, with core's sentence
    await section.getByLabel('提領').check();
    await section.getByTestId('cash-out-submit').click();
    await expect.poll(() => section.locator('.error').first().textContent()).toBe('請輸入金額');
    await section.getByLabel('店內支出').check();
    await shot(page, 'closes-form-cash-out-375');
    await page.context().close();
  });

  it('closes the day on a phone, counting the drawer note by note', async () => {
    const page = await e.signedIn('branchA', '/admin/close', PHONE);
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('未結帳');
    expect(await page.getByTestId('close-method-現金').textContent()).toBe(formatNTD(1450));
    expect(await page.getByTestId('close-method-刷卡').textContent()).toBe(formatNTD(800));
    expect(await page.getByTestId('close-method-匯款').textContent()).toBe(formatNTD(3000));
    expect(await page.getByTestId('close-method-電子支付').textContent()).toBe(formatNTD(450));
    expect(await page.getByTestId('close-entries').locator('li').count()).toBe(6);
    await shot(page, 'closes-day-open-375');
    // the store's first close states its opening
    await page.getByTestId('close-opening').fill('5000');
    await page.getByLabel('逐張點鈔').check();
    await page.getByTestId('close-note-1000').fill('6');
    await page.getByTestId('close-note-100').fill('1');
    await page.getByTestId('close-note-50').fill('1');
    // expected 5000 + 1450 − 300 = 6150: counted 6150 → NT$0
    await expect.poll(() => page.getByTestId('close-preview-difference').textContent()).toBe('NT$0');
    await page.getByTestId('close-note-10').fill('3');
    await expect.poll(() => page.getByTestId('close-preview-difference').textContent()).toBe('+NT$30');
    await shot(page, 'closes-counting-375');
    // a drawer NT$30 over is asked about once more before the day is closed
    await page.getByTestId('close-submit').click();
    await page.getByTestId('close-difference-reason').fill('客人多給零錢');
    await page.getByTestId('close-confirm').click();
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('已結帳');
    expect(await page.getByTestId('close-counted').textContent()).toBe('NT$6,180');
    expect(await page.getByTestId('close-difference').textContent()).toBe('+NT$30');
    await shot(page, 'closes-day-closed-375');
    // a clerk cannot reopen; the form page refuses a cash entry of the closed day with the reason
    expect(await page.getByTestId('close-reopen').count()).toBe(0);
    await page.goto(`${e.url}/`);
    const section = page.getByTestId('cash-out');
    await section.getByLabel('項目').fill('雜支');
    await section.getByLabel('金額').fill('50');
    await section.getByTestId('cash-out-submit').click();
    await expect
      .poll(() => page.getByTestId('cash-out-error').textContent())
      .toBe(
        `台北店 (TPE) ${today} 已日結，當天的現金收支已鎖定：需要「匯款管理」權限才能新增、修改或刪除（或請主管重新開帳）`,
      );
    await shot(page, 'closes-form-locked-375');
    await page.context().close();
  });

  it('the board on a desk at 1280 px: 已結帳 with its difference, 無收支 for a day with nothing, the takings by method', async () => {
    const page = await e.signedIn('admin', '/admin/closes', DESK);
    await page.getByTestId('board-table').waitFor();
    await expect.poll(() => page.getByTestId(`board-cell-TPE-${today}`).textContent()).toBe('已結帳 +NT$30');
    expect(await page.getByTestId(`board-cell-TXG-${today}`).textContent()).toBe('無收支');
    expect(await page.getByTestId('board-total-現金').textContent()).toBe(formatNTD(1450));
    expect(await page.getByTestId('board-total-電子支付').textContent()).toBe(formatNTD(450));
    // each store's 短溢合計 in view at a desk, beside today and not over it; no serious axe finding
    // (a closed day's link is named with the words its chip shows)
    const table = (await page.getByTestId('board-table').boundingBox())!;
    const sum = (await page.getByTestId('board-difference-TPE').boundingBox())!;
    expect(await page.getByTestId('board-difference-TPE').textContent()).toBe('+NT$30');
    expect(sum.x + sum.width).toBeLessThanOrEqual(table.x + table.width);
    const todayCell = (await page.getByTestId(`board-cell-TPE-${today}`).boundingBox())!;
    expect(todayCell.x + todayCell.width).toBeLessThanOrEqual(sum.x);
    expect(await seriousFindings(page)).toEqual([]);
    await shot(page, 'closes-board-1280');
    // a day opens its close; a manager reopens it there
    await page.getByTestId(`board-cell-TPE-${today}`).click();
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('已結帳');
    await page.getByTestId('close-reopen').click();
    await page.getByTestId('confirm-dialog-ok').click();
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('已重新開帳');
    await shot(page, 'closes-reopened-1280');
    await page.context().close();
    expect(e.errors).toEqual([]);
  });

  it('the board on a 375 px phone: the newest day, today, in view beside the store names', async () => {
    const page = await e.signedIn('admin', '/admin/closes', PHONE);
    const cell = page.getByTestId(`board-cell-TPE-${today}`);
    await cell.waitFor();
    await expect
      .poll(async () => {
        const box = (await cell.boundingBox())!;
        return box.x >= 0 && box.x + box.width <= PHONE.width;
      })
      .toBe(true);
    // not under the store column that stays on the left
    const store = (await page.getByRole('rowheader', { name: /台北店/ }).boundingBox())!;
    expect((await cell.boundingBox())!.x).toBeGreaterThanOrEqual(store.x + store.width - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'closes-board-375');
    await page.context().close();
  });

  it("the day book from the board: saved under the server's name; refused, said on the page (an export all for a branch user)", async () => {
    const page = await e.signedIn('admin', '/admin/closes', DESK);
    await page.getByTestId('board-table').waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('board-daybook-csv').click()]);
    expect(file.suggestedFilename()).toMatch(/^日記帳_[A-Z]+_\d{8}-\d{8}_\d{12}\.csv$/);
    expect(readFileSync((await file.path())!, 'utf8')).toContain('營業日期,時間,類別');
    await page.context().close();
    // every payment of branchA's store is in the board's days: the day book is an export all
    const branch = await e.signedIn('branchA', '/admin/closes', DESK);
    await branch.getByTestId('board-table').waitFor();
    await branch.getByTestId('board-daybook-xlsx').click();
    await branch
      .getByText('權限不足：這次匯出含您分店的每一筆匯款，等於匯出全部，需要「匯款管理」權限', { exact: true })
      .waitFor();
    expect(new URL(branch.url()).pathname).toBe('/admin/closes');
    await expect.poll(() => branch.getByTestId('board-daybook-xlsx').isEnabled()).toBe(true);
    await shot(branch, 'closes-daybook-refused-1280');
    await branch.context().close();
  });
});
