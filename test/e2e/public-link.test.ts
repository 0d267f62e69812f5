/**
 * Issue 25 in a real browser: the shop opens its store's link in 分店管理 and prints the poster
 * (A4 and A5, to PDF); a customer on a 375 px phone, with no account and no token, reports a
 * transfer through the link and reads its status before and after staff mark it 已入帳; staff
 * see it as 顧客 and filter by 來源; a rotated link refuses with the sentence.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { callApi, capture, DESK, HAS_CHROMIUM, PHONE, pick, SCREENSHOTS, settle, startE2E, type E2E } from './harness.js';

/** the list opens on today (Taiwan): the reports are made today */
const today = taipeiDate(Date.now());
/** where the proof's screenshots and the poster's PDF go (looked at by a person) */
const SHOTS = process.env.REMIT_SHOTS_DIR ?? SCREENSHOTS;
const hasPdftoppm = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!HAS_CHROMIUM)("a store's public link: poster, a customer's report on a phone, its status, staff's view", () => {
  let e: E2E;
  let link = '';
  let tracking = '';
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  const shot = (page: Page, name: string) => capture(page, join(SHOTS, `${name}.png`));
  const noSideways = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(await page.evaluate(() => window.innerWidth));

  it('分店管理 shows the link with its QR code, and prints the A4 and A5 posters', async () => {
    const page = await e.signedIn('admin', '/admin/stores', DESK);
    await page.getByRole('button', { name: '公開連結 台北店' }).click();
    const dialog = page.getByRole('dialog', { name: '台北店：顧客回報連結' });
    await dialog.waitFor();
    await dialog.getByTestId('store-link-qr').waitFor();
    link = await dialog.getByTestId('store-link-url').inputValue();
    expect(link).toMatch(new RegExp(`^${e.url}/r/[A-Za-z0-9_-]{22}$`));
    // the test server's address (127.0.0.1) reaches no customer's phone: said before a poster is printed
    expect(await dialog.getByTestId('store-link-local').textContent()).toBe('這個連結的網址只有本機或店內網路開得到，客人用手機網路連不上。請系統管理員設定對外網址（REMIT_PUBLIC_URL）後，再分享連結或印海報。');
    await shot(page, 'link-dialog-1280');
    // the browser's print dialog is the person's to answer: the test prints to PDF itself instead
    await page.evaluate(() => {
      const open = window.open.bind(window);
      window.open = (...args: Parameters<typeof window.open>) => {
        const w = open(...args);
        if (w) w.print = () => undefined;
        return w;
      };
    });
    for (const size of ['A4', 'A5'] as const) {
      const [poster] = await Promise.all([page.context().waitForEvent('page'), dialog.getByRole('button', { name: `列印海報 ${size}` }).click()]);
      await poster.getByRole('heading', { name: '掃描回報匯款' }).waitFor();
      await poster.locator('img').evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r))));
      expect(await poster.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await poster.getByText('台北店').count()).toBeGreaterThan(0);
      expect(await poster.locator('li').count()).toBe(3);
      const pdf = join(SHOTS, `poster-${size}.pdf`);
      await poster.pdf({ path: pdf, format: size, printBackground: true, preferCSSPageSize: true });
      expect(existsSync(pdf)).toBe(true);
      if (hasPdftoppm) execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf, join(SHOTS, `poster-${size}`)]);
      await poster.close();
    }
    await page.context().close();
  });

  it('a customer on a 375 px phone reports with no account and no token, and reads the status before and after staff confirm it', async () => {
    const ctx = await e.context(PHONE);
    const page = await ctx.newPage();
    const sent: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) sent.push(r);
    });
    await page.goto(link);
    await page.getByText('台北店').first().waitFor();
    await page.getByRole('heading', { name: '匯款回報' }).waitFor();
    await noSideways(page);
    await shot(page, 'public-form-375');

    await page.getByLabel('帳號後五碼').fill('24680');
    await page.getByLabel('匯款時間').fill(`${today}T00:05`);
    await page.getByLabel('匯款金額').fill('3,200');
    await page.getByLabel('備註').fill('LINE 轉帳');
    await page.getByRole('button', { name: '送出回報' }).click();
    await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
    tracking = (await page.locator('.tracking').textContent())!.trim();
    expect(tracking).toMatch(/^[0-9a-f-]{36}$/);
    await noSideways(page);
    await shot(page, 'public-done-375');

    // stored for 台北店 as the customer's, and nothing the page sent carried a session
    const row = await e.t.db('payments').where({ uuid: tracking }).first();
    expect(row).toMatchObject({ last_five: '24680', amount: 3200, source: 'customer', note: 'LINE 轉帳' });
    expect(Number(row.store_id)).toBe(e.stores.A.id);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      const h = await r.allHeaders();
      expect(h.authorization).toBeUndefined();
      expect(h.cookie).toBeUndefined();
      expect(new URL(r.url()).pathname.startsWith('/api/public/')).toBe(true);
    }

    await page.getByRole('link', { name: '查看處理狀態' }).click();
    await page.getByRole('heading', { name: '匯款處理狀態' }).waitFor();
    await page.getByText('未確認', { exact: true }).waitFor();
    expect(await page.getByText('NT$3,200').count()).toBe(1);
    expect(await page.getByText('24680').count()).toBe(0);
    await noSideways(page);
    await shot(page, 'public-status-pending-375');

    await callApi(e, 'PUT', `/payments/${tracking}`, 'admin', { status: '已入帳' });
    await page.reload();
    await page.getByText('已入帳', { exact: true }).waitFor();
    await shot(page, 'public-status-credited-375');

    await page.goto(`${e.url}/r/status/00000000-0000-4000-8000-000000000000`);
    await page.getByText('查無這個追蹤編號，請確認網址是否完整').waitFor();
    await ctx.close();
  });

  it('staff see the report as 顧客 in 匯款記錄 and can filter by 來源', async () => {
    await callApi(e, 'POST', '/payments', 'admin', { last_five: '11111', paid_at: `${today}T00:01`, amount: 500, store_id: e.stores.A.id });
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    await page.getByText('24680').waitFor();
    // 來源 is among the filters behind 更多篩選 on a desk
    await page.getByLabel('更多篩選').check();
    await pick(page, page.getByTestId('filter-source'), '顧客', true);
    await expect.poll(() => page.getByText('11111').count()).toBe(0);
    const row = page.locator('tr', { hasText: '24680' });
    await row.waitFor();
    expect(await row.getByText('顧客', { exact: true }).count()).toBe(1);
    await shot(page, 'payments-source-1280');
    await page.context().close();
  });

  it('a rotated link refuses on the phone with the issue’s sentence', async () => {
    const admin = await e.signedIn('admin', '/admin/stores', DESK);
    await admin.getByRole('button', { name: '公開連結 台北店' }).click();
    const dialog = admin.getByRole('dialog', { name: '台北店：顧客回報連結' });
    await dialog.getByTestId('store-link-url').waitFor();
    await dialog.getByRole('button', { name: '重新產生' }).click();
    await dialog.getByTestId('store-link-confirm').click();
    await expect.poll(() => dialog.getByTestId('store-link-url').inputValue()).not.toBe(link);
    await admin.context().close();

    const ctx = await e.context(PHONE);
    const page = await ctx.newPage();
    await page.goto(link);
    await page.getByText('連結已失效，請向門市索取新的連結').waitFor();
    await shot(page, 'public-link-gone-375');
    await ctx.close();
    expect(e.errors).toEqual([]);
  });
});
