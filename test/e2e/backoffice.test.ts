/** The back office frame: the initial tab by permission, the menu, the top bar, and the mobile menu. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/fixtures.js';
import { callApi, DESK, HAS_CHROMIUM, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('back office frame', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it('opens payments if allowed, else members, else the dashboard', async () => {
    for (const [user, path] of [
      ['admin', '/admin/payments'],
      ['hq_manage_users', '/admin/users'],
      ['hq_view_reports', '/admin/dashboard'],
    ] as const) {
      const page = await e.signedIn(user, '/admin');
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 8000 }).toBe(path);
      await page.context().close();
    }
  });

  it('shows each tab only with its permission, and the menu links work', async () => {
    const page = await e.signedIn('admin', '/admin/payments');
    await page.getByRole('menuitem', { name: '匯款記錄' }).waitFor();
    for (const name of ['匯款記錄', '會員管理', '統計儀表板', '分店管理'])
      expect(await page.getByRole('menuitem', { name }).count(), name).toBe(1);
    await page.getByRole('menuitem', { name: '會員管理' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/users');
    await page.getByRole('menuitem', { name: '統計儀表板' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/dashboard');
    // the top bar: the title, back to the form, the switcher, the username, logout
    expect(await page.getByText('煙具專賣店 匯款回報系統').first().isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: '匯款表單' }).getAttribute('href')).toBe('/');
    expect(await page.getByTestId('store-switcher').isVisible()).toBe(true);
    expect(await page.getByTestId('current-user').textContent()).toBe('admin');
    await e.shot(page, 'backoffice-admin');
    await page.context().close();

    const branch = await e.signedIn('branchA', '/admin/payments');
    await branch.getByRole('menuitem', { name: '匯款記錄' }).waitFor();
    expect(await branch.getByRole('menuitem', { name: '會員管理' }).count()).toBe(0);
    expect(await branch.getByRole('menuitem', { name: '分店管理' }).count()).toBe(0);
    expect(await branch.getByRole('menuitem', { name: '統計儀表板' }).count()).toBe(1);
    // branch users are tied to their store: no switcher, and a branch mark by the name
    expect(await branch.getByTestId('store-switcher').count()).toBe(0);
    expect(await branch.getByTestId('current-user').textContent()).toBe('branchA分店用戶');
    // a headquarters account that reaches one store has nothing to switch to: no 全部分店 either
    await callApi(e, 'POST', '/users', 'admin', {
      username: 'hq_one',
      password: PASSWORD,
      role: 'user',
      permissions: ['view_payments'],
      accessible_stores: [e.stores.A.id],
    });
    const { token } = (await (
      await fetch(`${e.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'hq_one', password: PASSWORD }),
      })
    ).json()) as { token: string };
    const one = await e.context(DESK);
    await e.addSession(one, token);
    const onePage = await one.newPage();
    await onePage.goto(`${e.url}/admin/payments`);
    await onePage.getByTestId('current-user').waitFor();
    expect(await onePage.getByTestId('store-switcher').count()).toBe(0);
    expect(await onePage.getByText('全部分店').count()).toBe(0);
    await one.close();
    await branch.getByRole('button', { name: '登出' }).click();
    await branch.waitForURL(/\/admin\/login$/);
    await branch.context().close();
  });

  it('repeats the top bar in the menu on a phone', async () => {
    const page = await e.signedIn('admin', '/admin/payments', { width: 375, height: 800 });
    await page.getByTestId('payment-filters').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await e.shot(page, 'backoffice-375');
    await page
      .getByRole('button', { name: /開啟選單|關閉選單|選單/ })
      .first()
      .click();
    await page.getByTestId('mobile-menu-extras').waitFor();
    const extras = page.getByTestId('mobile-menu-extras');
    expect(await extras.textContent()).toContain('admin');
    expect(await extras.getByText('匯款表單').count()).toBe(1);
    expect(await extras.getByText('登出').count()).toBe(1);
    expect(await extras.getByTestId('store-switcher').count()).toBe(1);
    await e.shot(page, 'backoffice-375-menu');
    await page.context().close();
  });
});
