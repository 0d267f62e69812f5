/**
 * The back office's first screen asks for what it needs together (issue 24, item 10): the stores
 * leave while `me` is still on its way, and each is asked once. (How long it takes is the bench's
 * business, scenario 12; this checks the order, which is what made it slow.) And it loads only the
 * list's code: every other page, and the import dialog, is its own chunk fetched when opened.
 */
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('the first screen of /admin', () => {
  let e: E2E;

  beforeAll(async () => {
    e = await startE2E();
    const res = await fetch(`${e.url}/api/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ last_five: '24680', paid_at: new Date(Date.now() - 3600_000).toISOString(), amount: 1200, note: '', store_id: e.stores.A.id }),
    });
    expect(res.ok).toBe(true);
  });
  afterAll(async () => {
    await e?.close();
  });

  for (const [size, viewport] of [
    ['375', { width: 375, height: 812 }],
    ['1280', { width: 1280, height: 900 }],
  ] as const) {
    it(`asks for the stores while me is on its way, and for each once, at ${size} px`, async () => {
      const ctx = await e.context(viewport);
      await e.addSession(ctx, e.tokens.admin);
      const page = await ctx.newPage();
      const asked: string[] = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith('/api/')) asked.push(u.pathname);
      });
      // `me` is held until the stores have been asked for
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/admin/me', async (route: Route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${e.url}/admin`);
      await expect.poll(() => asked.filter((p) => p === '/api/stores').length).toBe(1);
      expect(asked.filter((p) => p === '/api/payments')).toEqual([]); // the list needs to know who asks
      release();
      await page.locator('.RaDatagrid-row, [data-testid^="payment-card-"]').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(asked.filter((p) => p === '/api/admin/me').length).toBe(1);
      expect(asked.filter((p) => p === '/api/stores').length).toBe(1);
      // the list and the count line, each once
      expect(asked.filter((p) => p === '/api/payments').length).toBe(2);
      await ctx.close();
    });
  }

  it('fetches only the list’s code; 會員管理, 匯入 and the other pages come when opened', async () => {
    const ctx = await e.context({ width: 1280, height: 900 });
    await e.addSession(ctx, e.tokens.admin);
    const page = await ctx.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/assets/') && u.pathname.endsWith('.js')) scripts.push(u.pathname);
    });
    // a page's chunk is named after the module the page's lazy import names (admin/src/*/index.ts)
    const chunk = (name: string) => scripts.filter((s) => s.startsWith(`/assets/${name}-`));
    await page.goto(`${e.url}/admin`);
    await page.locator('.RaDatagrid-row').first().waitFor();
    await page.waitForLoadState('networkidle');
    for (const name of ['UserList', 'StoreList', 'AuditList', 'Dashboard', 'DashboardCharts', 'ReconcilePage', 'ImportDialog', 'browserSpreadsheets']) expect(chunk(name), name).toEqual([]);
    await page.getByRole('button', { name: 'Excel 匯入' }).click();
    await page.getByTestId('import-dialog').waitFor();
    expect(chunk('ImportDialog')).toHaveLength(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('import-dialog').waitFor({ state: 'detached' });
    await page.getByRole('menuitem', { name: '會員管理' }).click();
    await page.getByRole('button', { name: '新增會員' }).waitFor();
    expect(chunk('UserList')).toHaveLength(1);
    await page.getByRole('menuitem', { name: '統計儀表板' }).click();
    await page.getByTestId('dashboard').waitFor();
    expect(chunk('Dashboard')).toHaveLength(1);
    await ctx.close();
  });
});
