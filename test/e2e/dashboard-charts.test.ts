/**
 * In a real browser: the dashboard draws NT$ per store and day, and the NT$
 * still 未確認 / 已入帳 / 未入帳 per store; a branch user's holds their store only; the printed
 * page has no menu, top bar or buttons.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { capture, DESK, HAS_CHROMIUM, PHONE, SCREENSHOTS, startE2E, type E2E } from './harness.js';

const yesterday = taipeiDate(Date.now() - 86_400_000);

describe.skipIf(!HAS_CHROMIUM)('dashboard charts and print', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${e.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${e.tokens.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const pay = async (store: number, lastFive: string, amount: number, status?: string) => {
      const made = await api('POST', '/payments', {
        store_id: store,
        last_five: lastFive,
        paid_at: `${yesterday}T09:00`,
        amount,
      });
      if (status) await api('PUT', `/payments/${made.uuid}`, { status });
    };
    await pay(e.stores.A.id, '11111', 1000);
    await pay(e.stores.A.id, '22222', 2000, '已入帳');
    await pay(e.stores.B.id, '33333', 500, '未入帳');
  });
  afterAll(async () => e?.close());

  const amounts = async (page: Page, code: string) =>
    (await page.getByTestId(`status-amounts-${code}`).locator('td').allInnerTexts()).map((t) => t.trim());
  const shot = (page: Page, name: string) => capture(page, join(SCREENSHOTS, `${name}.png`));

  it('an admin sees NT$ per store by status and the daily chart, and prints the page alone', async () => {
    const page = await e.signedIn('admin', '/admin/dashboard', DESK);
    const charts = page.getByTestId('dashboard-charts');
    await charts.waitFor();
    expect(await amounts(page, 'TPE')).toEqual(['台北店 (TPE)', 'NT$1,000', 'NT$2,000', 'NT$0']);
    expect(await amounts(page, 'TXG')).toEqual(['台中店 (TXG)', 'NT$0', 'NT$0', 'NT$500']);
    expect(await amounts(page, 'KHH')).toEqual(['高雄店 (KHH)', 'NT$0', 'NT$0', 'NT$0']);
    // two drawn charts (lines and bars as SVG), each store named in the legend
    await expect.poll(() => charts.locator('svg path').count()).toBeGreaterThan(6);
    expect(await charts.locator('svg').count()).toBeGreaterThanOrEqual(2);
    const legend = await charts.innerText();
    for (const name of ['台北店 (TPE)', '台中店 (TXG)', '高雄店 (KHH)', '未確認', '已入帳', '未入帳'])
      expect(legend).toContain(name);
    // the range it draws: the last 30 days up to today, said in words
    expect(await page.getByTestId('chart-range').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} 至 \d{4}-\d{2}-\d{2}$/);
    await shot(page, 'dashboard-charts-1280');

    // 列印 calls the browser's print
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void ((window as unknown as { printed: number }).printed += 1);
    });
    await page.getByTestId('dashboard-print').click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

    // on paper: the figures and charts, no menu, no top bar, no buttons
    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => page.locator('header').first().isVisible()).toBe(false);
    expect(await page.getByRole('menuitem', { name: '統計儀表板' }).isVisible()).toBe(false);
    expect(await page.getByTestId('dashboard-print').isVisible()).toBe(false);
    expect(await page.getByTestId('dashboard-refresh').isVisible()).toBe(false);
    expect(await charts.isVisible()).toBe(true);
    expect(await page.getByTestId('status-amounts-TPE').isVisible()).toBe(true);
    await shot(page, 'dashboard-print-1280');
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    writeFileSync(join(SCREENSHOTS, 'dashboard-print.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.context().close();
  });

  it('a branch user on a phone sees their own store only, within the screen', async () => {
    const page = await e.signedIn('branchA', '/admin/dashboard', PHONE);
    await page.getByTestId('dashboard-charts').waitFor();
    expect(await amounts(page, 'TPE')).toEqual(['台北店 (TPE)', 'NT$1,000', 'NT$2,000', 'NT$0']);
    expect(await page.getByTestId('status-amounts-TXG').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'dashboard-charts-375');
    await page.context().close();
  });
});
