/**
 * The 對帳 page with a month of a shop's data (bench/reconcile-data.ts: about 2 200 reports and
 * 1 800 credits, 1 400 of them in 建議入帳): the first 200 of each queue drawn at once, unticking
 * proposals among them counts and ticks the right ones, and the queue's count does not cover its
 * title. How long a tick takes is not asserted here (a timed test fails on a busy machine); each
 * tick drew every card of the page again (0.6 s at four times slower CPU), now the one card.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReconcile } from '../helpers/reconcileYear.js';
import { callApi, DESK, HAS_CHROMIUM, PHONE, SCREENSHOTS, type E2E, startE2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('對帳 with a month of data', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    await seedReconcile(e.t.db, { storeId: e.stores.A.id, months: 1, seed: 7 });
  }, 120_000);
  afterAll(async () => e?.close());

  it('unticking proposals among 200 counts them out, and the count does not cover the title, at 1280 and 375 px', async () => {
    for (const viewport of [DESK, PHONE]) {
      const page = await e.signedIn('admin', '/admin/reconcile', viewport);
      await page.getByTestId('reconcile-from').fill('2026-11-01');
      await page.getByTestId('reconcile-to').fill('2026-11-30');
      const items = page.getByTestId('queue-auto').getByTestId('auto-item');
      await expect.poll(() => items.count(), { timeout: 60_000 }).toBe(200);
      await expect.poll(() => page.getByLabel('比對中...').count(), { timeout: 60_000 }).toBe(0);
      // the count stands after the title, covering none of it: a four-digit count must not hide 建議入帳's 帳
      const section = page.getByTestId('queue-auto');
      // the badge counts the whole queue, as the API does, not the 200 drawn
      const all = (await callApi(e, 'GET', '/reconcile/proposals?from=2026-11-01&to=2026-11-30&limit=1', 'admin')) as {
        page: { total: { auto: number } };
      };
      const total = all.page.total.auto;
      expect(total).toBeGreaterThan(1000);
      expect(await section.locator('.MuiBadge-badge').first().textContent()).toBe(String(total));
      const title = (await section.getByRole('heading', { name: '建議入帳' }).evaluate((h) => {
        const r = document.createRange();
        r.selectNodeContents(h);
        return r.getBoundingClientRect().right;
      })) as number;
      const badge = (await section.locator('.MuiBadge-badge').first().boundingBox())!;
      expect(badge.x).toBeGreaterThanOrEqual(title);
      await page.screenshot({ path: join(SCREENSHOTS, `reconcile-month-${viewport.width}.png`) });
      const button = page.getByTestId('auto-confirm');
      expect(await button.textContent()).toBe('確認入帳（200 筆）');
      for (const i of [3, 10, 150]) await items.nth(i).locator('input[type=checkbox]').click();
      await expect.poll(() => button.textContent()).toBe('確認入帳（197 筆）');
      for (const i of [3, 10, 150]) expect(await items.nth(i).locator('input[type=checkbox]').isChecked()).toBe(false);
      expect(await items.nth(4).locator('input[type=checkbox]').isChecked()).toBe(true);
      await page.context().close();
    }
  }, 240_000);
});
