/**
 * In a real browser, everyone's own account: a branch user without
 * manage_users changes their own password from the user menu (back office at a desk and on a
 * phone, and the form page), signs out from the same menu, and signs in with the new password
 * while the old one is refused. An empty store scope: the form says so before anything is typed
 * and cannot be sent; the dashboard says why it is empty.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { TEST_SECURITY } from '../helpers/db.js';
import { DESK, HAS_CHROMIUM, PASSWORD, PHONE, SCREENSHOTS, settle, startE2E, type E2E } from './harness.js';

const NEW_PASSWORD = 'changed789';

describe.skipIf(!HAS_CHROMIUM)('everyone’s own account, and an empty store scope', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
    const ctx = { db: e.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const branch = { role: 'user', store_id: e.stores.A.id, permissions: ['view_payments', 'view_reports'] };
    for (const username of ['staff_desk', 'staff_phone', 'staff_form'])
      await createUser(ctx, { username, password: PASSWORD, ...branch });
    await createUser(ctx, { username: 'boss_form', password: PASSWORD, role: 'admin' });
    // a headquarters account with reports but no store at all in scope
    await createUser(ctx, {
      username: 'nostore',
      password: PASSWORD,
      role: 'user',
      permissions: ['view_payments', 'view_reports'],
    });
  });
  afterAll(async () => e?.close());

  const screen = async (page: Page, name: string) => {
    await settle(page);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  };
  const noSideways = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      await page.evaluate(() => window.innerWidth),
    );

  /** the login page, as a person uses it; answers the page it lands on */
  async function signIn(
    viewport: { width: number; height: number },
    username: string,
    password: string,
    path = '/admin/login',
  ): Promise<Page> {
    const page = await (await e.context(viewport)).newPage();
    await page.goto(`${e.url}${path}`);
    await page.getByLabel('用戶名').fill(username);
    await page.getByLabel('密碼').fill(password);
    await page.getByRole('button', { name: '登入' }).click();
    return page;
  }

  /** fills and sends the change-password dialog, and waits until it is gone */
  async function changePassword(page: Page, shotName: string) {
    const dialog = page.getByRole('dialog', { name: '更改密碼' });
    await dialog.waitFor();
    await settle(page);
    await noSideways(page);
    await dialog.locator('input[name="currentPassword"]').fill(PASSWORD);
    await dialog.locator('input[name="newPassword"]').fill(NEW_PASSWORD);
    await dialog.locator('input[name="confirmNewPassword"]').fill(NEW_PASSWORD);
    await screen(page, shotName);
    await dialog.getByRole('button', { name: '確認更改' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  /** the old password is refused, the new one lets the user in */
  async function onlyNewPasswordWorks(username: string, viewport: { width: number; height: number }) {
    const old = await signIn(viewport, username, PASSWORD);
    await old.getByText('用戶名或密碼錯誤').or(old.getByRole('alert')).first().waitFor();
    expect(new URL(old.url()).pathname).toBe('/admin/login');
    await old.context().close();
    const fresh = await signIn(viewport, username, NEW_PASSWORD);
    // signed in: the back office opens its first tab (a refused sign-in stays on the login page)
    await fresh.waitForURL(/\/admin\/payments$/);
    // the session is the HttpOnly cookie, out of the page's reach
    expect((await e.sessionCookie(fresh.context()))?.httpOnly).toBe(true);
    expect(await fresh.evaluate(() => JSON.stringify(localStorage) + document.cookie)).not.toContain('eyJ');
    await fresh.context().close();
  }

  it('a branch user without manage_users changes their own password from the back office’s user menu at a desk', async () => {
    const page = await signIn(DESK, 'staff_desk', PASSWORD);
    await page.waitForURL(/\/admin\/payments$/);
    await page.getByTestId('user-menu').click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['更改密碼', '登出']);
    await screen(page, 'account-menu-backoffice-1280');
    await menu.getByRole('menuitem', { name: '更改密碼' }).click();
    await changePassword(page, 'account-password-backoffice-1280');
    await page.getByText('密碼更改成功！').waitFor();
    // still signed in with the fresh token: the list loads
    await page.reload();
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '登出' }).click();
    await page.waitForURL(/\/admin\/login$/);
    await page.context().close();
    await onlyNewPasswordWorks('staff_desk', DESK);
  });

  it('on a phone the same is in the menu, and the dialog fits the screen', async () => {
    const page = await signIn(PHONE, 'staff_phone', PASSWORD);
    await page.waitForURL(/\/admin\/payments$/);
    await page
      .getByRole('button', { name: /開啟選單|關閉選單|選單/ })
      .first()
      .click();
    const extras = page.getByTestId('mobile-menu-extras');
    await extras.waitFor();
    await settle(page);
    await screen(page, 'account-menu-backoffice-375');
    await extras.getByText('更改密碼').click();
    await changePassword(page, 'account-password-backoffice-375');
    await page.getByText('密碼更改成功！').waitFor();
    await page.context().close();
    await onlyNewPasswordWorks('staff_phone', PHONE);
  });

  it('the form page has the user menu too, for a branch user on a phone and an admin at a desk', async () => {
    for (const [username, viewport] of [
      ['staff_form', PHONE],
      ['boss_form', DESK],
    ] as const) {
      const page = await signIn(viewport, username, PASSWORD, `/admin/login?redirect=${encodeURIComponent('/')}`);
      await page.waitForURL(`${e.url}/`);
      expect(await page.getByTestId('username').textContent()).toBe(username);
      await page.getByTestId('user-menu').click();
      const menu = page.getByRole('menu');
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['更改密碼', '登出']);
      await noSideways(page);
      await screen(page, `account-menu-form-${viewport.width}`);
      await menu.getByRole('menuitem', { name: '更改密碼' }).click();
      await changePassword(page, `account-password-form-${viewport.width}`);
      expect(await page.getByTestId('banner-success').textContent()).toBe('密碼更改成功！');
      // the form still works with the fresh token: the store list loaded again after a reload
      await page.reload();
      await page.locator('#last_five').waitFor();
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: '登出' }).click();
      await page.waitForURL(/\/admin\/login$/);
      await page.context().close();
      await onlyNewPasswordWorks(username, viewport);
    }
  });

  it('a user with no store in scope is told on the form before typing, and the form cannot be sent', async () => {
    for (const viewport of [PHONE, DESK]) {
      const page = await signIn(viewport, 'nostore', PASSWORD, `/admin/login?redirect=${encodeURIComponent('/')}`);
      await page.waitForURL(`${e.url}/`);
      const notice = page.getByTestId('no-store');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('尚未設定分店');
      expect(await notice.innerText()).toContain(
        '您的帳戶沒有任何分店的權限，無法提交匯款資料。請聯絡管理員為您設定分店。',
      );
      expect(await page.locator('#last_five').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: '提交匯款資訊' }).isDisabled()).toBe(true);
      // no list of every store offered
      expect(await page.locator('#store_id').count()).toBe(0);
      await noSideways(page);
      await screen(page, `form-no-store-${viewport.width}`);
      await page.context().close();
    }
  });

  it('a headquarters user is offered only the stores in scope', async () => {
    const page = await e.signedIn('hq_view_payments', '/', DESK);
    await page.locator('#store_id').waitFor();
    expect(await page.locator('#store_id option').allInnerTexts()).toEqual([
      '選擇分店',
      '台北店 (TPE)',
      '台中店 (TXG)',
    ]);
    expect(await page.getByTestId('no-store').count()).toBe(0);
    await page.context().close();
  });

  it('the dashboard of an empty scope says why it is empty, while a branch user’s shows numbers', async () => {
    for (const viewport of [PHONE, DESK]) {
      const page = await signIn(
        viewport,
        'nostore',
        PASSWORD,
        `/admin/login?redirect=${encodeURIComponent('/admin/dashboard')}`,
      );
      const why = page.getByTestId('dashboard-no-store');
      await why.waitFor();
      expect(await why.innerText()).toContain(
        '您的帳戶沒有任何分店的權限，所以沒有可顯示的統計資料。請聯絡管理員為您設定分店。',
      );
      await noSideways(page);
      await screen(page, `dashboard-no-store-${viewport.width}`);
      await page.context().close();
      const branch = await e.signedIn('branchA', '/admin/dashboard', viewport);
      await branch.getByTestId('dashboard').waitFor();
      expect(await branch.getByTestId('dashboard-no-store').count()).toBe(0);
      await branch.context().close();
    }
  });
});
