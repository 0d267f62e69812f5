/**
 * At the counter on a phone: cash sales recorded one after another without opening the time picker,
 * the 鎖定 toggles that keep a field across a run, and the hint that speaks of the sale being recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiInputValue } from '../../core/time.js';
import { HAS_CHROMIUM, PHONE, seriousFindings, startE2E, type E2E } from './harness.js';

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
});
