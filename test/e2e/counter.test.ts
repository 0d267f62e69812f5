/**
 * At the counter on a phone: cash sales recorded one after another without opening the time picker,
 * the 鎖定 toggles that keep a field across a run, and the hint that speaks of the sale being recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiInputValue } from '../../core/time.js';
import { callApi, HAS_CHROMIUM, PHONE, seriousFindings, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('at the counter', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  const latest = async () => e.t.db('payments').orderBy('created_at', 'desc').first();

  it('a morning of cash sales on a phone: the time is now without touching it, and stays now after each sale', async () => {
    const page = await e.signedIn('branchA', '/', PHONE);
    await page.getByTestId('locked-store').waitFor();
    await page.getByRole('radio', { name: '現金' }).check();
    // the hint speaks of the sale, not of a transfer
    expect(await page.getByText('您是分店員工，只能記錄本分店的收款').count()).toBe(1);
    expect(await page.getByText('您是分店員工，只能提交本分店的匯款資料').count()).toBe(0);
    for (const amount of ['150', '80', '1200']) {
      const shown = await page.locator('#paid_at').inputValue();
      const before = Date.now();
      expect([taipeiInputValue(before - 60_000), taipeiInputValue(before)]).toContain(shown);
      await page.locator('#amount').fill(amount);
      await page.getByRole('button', { name: '提交現金收款' }).click();
      await page.getByTestId('banner-success').waitFor();
      const row = await latest();
      expect(row).toMatchObject({ method: '現金', amount: Number(amount), store_id: e.stores.A.id });
      // stored at the minute the sale was sent
      expect(Number(row.paid_at)).toBeGreaterThan(before - 120_000);
      expect(Number(row.paid_at)).toBeLessThanOrEqual(Date.now());
      // the next sale: same method, empty amount, the time still the clock's
      expect(await page.getByRole('radio', { name: '現金' }).isChecked()).toBe(true);
      expect(await page.locator('#amount').inputValue()).toBe('');
      await page.getByText('自動填入現在時間，可以修改').waitFor();
    }
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'counter-cash-run-375');
    await page.context().close();
  });

  it('a time set by hand goes back to the clock after the sale unless locked; 現在 returns to the clock', async () => {
    const page = await e.signedIn('branchA', '/', PHONE);
    await page.getByTestId('locked-store').waitFor();
    await page.getByRole('radio', { name: '刷卡' }).check();
    const yesterday = taipeiInputValue(Date.now() - 86_400_000).slice(0, 10);
    await page.locator('#paid_at').fill(`${yesterday}T18:40`);
    await page.getByRole('button', { name: '現在' }).click();
    await page.getByText('自動填入現在時間，可以修改').waitFor();

    // locked: time and amount stay for the next entry, and the locks survive a reload
    await page.getByRole('button', { name: '鎖定時間' }).click();
    await page.getByRole('button', { name: '鎖定金額' }).click();
    expect(await page.getByRole('button', { name: '鎖定時間' }).getAttribute('aria-pressed')).toBe('true');
    await page.locator('#paid_at').fill(`${yesterday}T18:40`);
    await page.locator('#amount').fill('390');
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: '提交刷卡收款' }).click();
      // the same amount at the same minute twice is asked about, as always
      if (i === 1) await page.getByTestId('doubt-duplicate').getByRole('button', { name: '仍要提交' }).click();
      await page.getByTestId('banner-success').waitFor();
      expect(taipeiInputValue(Number((await latest()).paid_at))).toBe(`${yesterday}T18:40`);
      expect((await latest()).amount).toBe(390);
      expect(await page.locator('#paid_at').inputValue()).toBe(`${yesterday}T18:40`);
      expect(await page.locator('#amount').inputValue()).toBe('390');
    }
    await page.reload();
    await page.getByTestId('locked-store').waitFor();
    await page.getByRole('radio', { name: '刷卡' }).check();
    expect(await page.getByRole('button', { name: '鎖定金額' }).getAttribute('aria-pressed')).toBe('true');

    // unlocked: the next entry starts from the clock and an empty amount
    await page.getByRole('button', { name: '鎖定時間' }).click();
    await page.getByRole('button', { name: '鎖定金額' }).click();
    await page.locator('#paid_at').fill(`${yesterday}T19:05`);
    await page.locator('#amount').fill('120');
    await page.getByRole('button', { name: '提交刷卡收款' }).click();
    await page.getByTestId('banner-success').waitFor();
    expect(await page.locator('#amount').inputValue()).toBe('');
    await page.getByText('自動填入現在時間，可以修改').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.context().close();
  });
  it('a wrong cash-out: 復原 on the form at once, and 修改 or 刪除 (with 復原) on 日結, at 375 px', async () => {
    const page = await e.signedIn('branchA', '/', PHONE);
    const section = page.getByTestId('cash-out');
    await section.waitFor();
    const record = async (amount: string) => {
      await section.getByLabel('店內支出').check();
      await section.getByLabel('項目').fill('文具');
      await section.getByLabel('金額').fill(amount);
      await section.getByTestId('cash-out-submit').click();
      await expect
        .poll(() => page.getByTestId('cash-out-success').textContent())
        .toMatch(`已記錄店內支出 NT$${Number(amount).toLocaleString('en-US')}`);
    };
    const entries = async () => Number(((await e.t.db('cash_out').count({ n: '*' }).first()) as { n: number }).n);
    await record('5000');
    expect(await entries()).toBe(1);
    await page.getByTestId('cash-out-success').getByRole('button', { name: '復原' }).click();
    await expect
      .poll(() => page.getByTestId('cash-out-success').textContent())
      .toBe('已復原：刪除了剛記錄的店內支出 NT$5,000');
    expect(await entries()).toBe(0);
    await record('5000');
    await record('120');

    // 日結: the typo corrected to 500, the day's figures follow once the change is sent
    await page.goto(`${e.url}/admin/close`);
    await expect.poll(() => page.getByTestId('close-expense').textContent()).toBe('-NT$5,120');
    await page.getByRole('button', { name: '修改 店內支出 NT$5,000' }).click();
    const dialog = page.getByTestId('cash-out-edit-dialog');
    await dialog.getByLabel('金額').fill('500');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByRole('button', { name: '復原' }).waitFor();
    // a finger lifts; a mouse left over the notice would hold it open
    await page.mouse.move(10, 10);
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'counter-cash-out-edited-375');
    await expect.poll(() => page.getByTestId('close-expense').textContent(), { timeout: 20_000 }).toBe('-NT$620');
    expect((await e.t.db('cash_out').where({ amount: 500 }).first()).category).toBe('文具');

    // 刪除, then 復原: the entry comes back and nothing is sent
    await page.getByRole('button', { name: '刪除 店內支出 NT$120' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '確認刪除' }).click();
    await page.getByRole('button', { name: '刪除 店內支出 NT$120' }).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('close-entries').textContent()).toContain('文具');
    await page.getByRole('button', { name: '復原' }).click();
    await page.getByRole('button', { name: '刪除 店內支出 NT$120' }).waitFor();
    expect(await entries()).toBe(2);
    await page.context().close();
  });

  it('a closed day: the clerk sees no 修改 or 刪除 on its cash-out; a manager does', async () => {
    await callApi(e, 'POST', '/closes', 'branchA', {
      store_id: e.stores.A.id,
      date: taipeiInputValue(Date.now()).slice(0, 10),
      opening: 5000,
      counted: 4380,
    });
    const clerk = await e.signedIn('branchA', '/admin/close', PHONE);
    await expect.poll(() => clerk.getByTestId('close-status').textContent()).toBe('已結帳');
    expect(await clerk.getByRole('button', { name: /^修改 店內支出/ }).count()).toBe(0);
    // ‹ › step a day as the list's do; › stops at today; a day with nothing in or out says so
    expect(await clerk.getByTestId('close-day-after').isDisabled()).toBe(true);
    await clerk.getByRole('button', { name: '前一天' }).click();
    const yesterday = taipeiInputValue(Date.now() - 86_400_000).slice(0, 10);
    await expect.poll(() => clerk.getByTestId('close-date').locator('input').inputValue()).toBe(yesterday);
    // yesterday's card sales (the test above) are something to close, the day before is not
    await expect.poll(() => clerk.getByTestId('close-status').textContent()).toBe('未結帳');
    await clerk.getByRole('button', { name: '前一天' }).click();
    await expect.poll(() => clerk.getByTestId('close-status').textContent()).toBe('無收支');
    expect(await seriousFindings(clerk)).toEqual([]);
    await clerk.context().close();
    const admin = await e.signedIn('admin', `/admin/close?store=${e.stores.A.id}`, PHONE);
    await admin.getByRole('button', { name: '修改 店內支出 NT$500' }).waitFor();
    await admin.context().close();
  });
});
