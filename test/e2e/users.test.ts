/**
 * The users tab in a real browser (spec sections 2 "Users tab" and "Modals", 4, 5, 6, 8):
 * members create with the form's validation messages, the admin role filling and locking the
 * permissions, edit, the refused deletes with their tooltips, delete with its confirm and its
 * failure alert, and the password change that keeps the user signed in.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../core/index.js';
import { PERMISSION_KEYS } from '../../core/permissions.js';
import { HAS_CHROMIUM, PASSWORD, SCREENSHOTS, settle, startE2E, type E2E } from './harness.js';

const PHONE = { width: 375, height: 740 };

describe.skipIf(!HAS_CHROMIUM)('users tab in the browser', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  /** a JSON call as another client would make it; the answers are checked by the assertions */
  async function apiAs(
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(`${e.url}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  }
  const login = (username: string, password: string) =>
    fetch(`${e.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });

  /** what the phone's screen shows (a full-page shot of a fixed top bar and a modal is misleading) */
  const screen = async (page: Page, name: string) => {
    await settle(page);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  };
  const shot = async (page: Page, name: string) => {
    await settle(page);
    await e.shot(page, name);
  };
  const row = (page: Page, username: string) => page.getByTestId(`user-row-${username}`);
  async function openUsers(user: string, viewport?: { width: number; height: number }) {
    const page = await e.signedIn(user, '/admin/users', viewport);
    await row(page, 'admin').waitFor();
    return page;
  }
  /** A MUI select inside `scope`: open it and pick the option. */
  async function pick(page: Page, scope: Locator, option: string) {
    await scope.getByRole('combobox').click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
  }
  async function tooltipOf(page: Page, target: Locator): Promise<string> {
    await target.hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    const text = (await tip.innerText()).trim();
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: 'detached' });
    return text;
  }
  const errorTexts = async (dialog: Locator) =>
    (await dialog.locator('.Mui-error.MuiFormHelperText-root').allInnerTexts()).map((s) => s.trim());

  it('lists members with role, permissions, store info, status, Taiwan time; own row refuses delete', async () => {
    const page = await openUsers('admin');
    await page.getByRole('button', { name: '新增會員' }).waitFor();
    const header = await page.getByTestId('users-table').locator('thead').innerText();
    for (const h of ['用戶名', '角色', '權限', '分店資訊', '狀態', '建立時間', '操作']) expect(header).toContain(h);

    // sorted by id: the fixture creates admin first, then hq_none, branchA, ...
    const names = await page
      .locator('[data-testid^="user-row-"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice(9)));
    expect(names.slice(0, 3)).toEqual(['admin', 'hq_none', 'branchA']);

    const admin = row(page, 'admin');
    expect(await admin.innerText()).toContain('管理員');
    expect(await admin.innerText()).toContain('可存取所有分店');
    expect(await admin.innerText()).toContain('會員管理、分店管理');
    expect(await row(page, 'hq_none').innerText()).toContain('無特殊權限');
    expect(await row(page, 'hq_none').innerText()).toContain('台北店 (TPE)、台中店 (TXG)');
    expect(await row(page, 'branchA').innerText()).toContain('查看匯款、編輯匯款、刪除匯款、查看報告');
    expect(await row(page, 'branchA').innerText()).toContain('用戶');
    expect(await row(page, 'inactive').innerText()).toContain('停用');
    expect(await row(page, 'branchA').innerText()).toContain('啟用');
    const created = new Date(e.users.admin.created_at);
    const taipei = new Date(created.getTime() + 8 * 3600_000);
    const hhmm = `${String(taipei.getUTCHours()).padStart(2, '0')}:${String(taipei.getUTCMinutes()).padStart(2, '0')}`;
    expect(await admin.innerText()).toContain(hhmm);

    // change password: own row only; delete: disabled on one's own row, with the reason
    expect(await admin.getByRole('button', { name: '更改密碼' }).count()).toBe(1);
    expect(await row(page, 'branchA').getByRole('button', { name: '更改密碼' }).count()).toBe(0);
    const ownDelete = admin.getByRole('button', { name: '刪除' });
    expect(await ownDelete.isDisabled()).toBe(true);
    expect(await tooltipOf(page, admin.locator('[data-denial]'))).toBe('無法刪除自己的帳戶');
    expect(await row(page, 'branchA').getByRole('button', { name: '刪除' }).isEnabled()).toBe(true);
    await shot(page, 'users-desktop');
    await page.context().close();
  });

  it('creates a member: validation messages under the fields, admin role fills and locks permissions, server errors in the form', async () => {
    const page = await openUsers('admin');
    await page.getByRole('button', { name: '新增會員' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('新增會員').waitFor();
    const save = dialog.getByRole('button', { name: '儲存' });

    await save.click();
    expect(await errorTexts(dialog)).toEqual(['用戶名至少需要3個字符', '密碼是必填的', '請選擇角色']);
    await shot(page, 'users-form-errors');

    const username = dialog.locator('input[name="username"]');
    const password = dialog.locator('input[name="password"]');
    const confirm = dialog.locator('input[name="confirmPassword"]');
    await username.fill('a'.repeat(21));
    await password.fill('12345');
    // a click beside the form (on the dimmed page) keeps it open with what was typed
    await page.mouse.click(5, 400);
    expect(await dialog.isVisible()).toBe(true);
    expect(await username.inputValue()).toBe('a'.repeat(21));
    await save.click();
    expect(await errorTexts(dialog)).toEqual(['用戶名不能超過20個字符', '密碼至少需要6個字符', '請選擇角色']);
    await password.fill('password');
    await save.click();
    expect(await errorTexts(dialog)).toEqual(['用戶名不能超過20個字符', MSG.passwordWeak.common, '請選擇角色']);
    await username.fill('bad name!');
    await password.fill('tea-leaf-99');
    await confirm.fill('secret98');
    await save.click();
    expect(await errorTexts(dialog)).toEqual(['用戶名只能包含字母、數字和下劃線', '密碼確認不匹配', '請選擇角色']);

    // admin fills every permission and locks the boxes; another role clears them (create only)
    const role = dialog.getByTestId('role-select');
    const boxes = dialog.getByTestId('permission-checkboxes').locator('input[type="checkbox"]');
    expect(await boxes.count()).toBe(PERMISSION_KEYS.length);
    await pick(page, role, '管理員');
    for (const b of await boxes.all()) {
      expect(await b.isChecked()).toBe(true);
      expect(await b.isDisabled()).toBe(true);
    }
    await dialog.getByText('完整的系統設定權限').waitFor(); // descriptions shown with the labels
    await shot(page, 'users-form-admin-role');
    await pick(page, role, '用戶');
    for (const b of await boxes.all()) {
      expect(await b.isChecked()).toBe(false);
      expect(await b.isDisabled()).toBe(false);
    }

    await username.fill('clerk_01');
    await confirm.fill('tea-leaf-99');
    await dialog.locator('input[name="permissions.view_payments"]').check();
    await dialog.locator('input[name="permissions.edit_payments"]').check();
    await pick(page, dialog.getByTestId('store-select'), '台北店 (TPE)');
    await dialog.locator(`input[name="accessible_stores.${e.stores.B.id}"]`).check();
    expect(await dialog.locator('input[name="is_active"]').count()).toBe(0); // edit only
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    const created = row(page, 'clerk_01');
    await created.waitFor();
    expect(await created.innerText()).toContain('查看匯款、編輯匯款');
    expect(await created.innerText()).toContain('台北店 (TPE)、台中店 (TXG)');
    expect(await created.innerText()).toContain('啟用');
    const list = await apiAs(e.tokens.admin, 'GET', '/users?filter={"q":"clerk_01"}');
    expect(list.body[0]).toMatchObject({
      username: 'clerk_01',
      role: 'user',
      permissions: ['view_payments', 'edit_payments'],
      store_id: e.stores.A.id,
      accessible_stores: [e.stores.B.id],
      is_active: true,
    });
    expect((await login('clerk_01', 'tea-leaf-99')).status).toBe(200);

    // the server's refusal is shown in the form (the username is taken)
    await page.getByRole('button', { name: '新增會員' }).click();
    await dialog.locator('input[name="username"]').fill('clerk_01');
    await dialog.locator('input[name="password"]').fill('tea-leaf-99');
    await dialog.locator('input[name="confirmPassword"]').fill('tea-leaf-99');
    await pick(page, dialog.getByTestId('role-select'), '用戶');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.getByTestId('user-form-error').getByText('用戶名已存在').waitFor();
    await shot(page, 'users-form-server-error');

    // an admin created from the form holds every permission key
    await dialog.locator('input[name="username"]').fill('boss_2');
    await pick(page, dialog.getByTestId('role-select'), '管理員');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'boss_2').waitFor();
    const boss = await apiAs(e.tokens.admin, 'GET', '/users?filter={"q":"boss_2"}');
    expect(boss.body[0]).toMatchObject({ role: 'admin', permissions: [...PERMISSION_KEYS] });
    await page.context().close();
  });

  it('edits a member: username fixed, blank password unchanged, active flag toggled; not for oneself', async () => {
    const page = await openUsers('admin');
    await row(page, 'clerk_01').getByRole('button', { name: '編輯' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('編輯會員').waitFor();
    expect(await dialog.locator('input[name="username"]').isDisabled()).toBe(true);
    expect(await dialog.locator('input[name="username"]').inputValue()).toBe('clerk_01');
    expect(await dialog.locator('input[name="permissions.view_payments"]').isChecked()).toBe(true);
    // on edit, switching role does not clear the permissions
    await pick(page, dialog.getByTestId('role-select'), '管理員');
    await pick(page, dialog.getByTestId('role-select'), '用戶');
    expect(await dialog.locator('input[name="permissions.view_payments"]').isChecked()).toBe(true);
    await dialog.locator('input[name="permissions.view_reports"]').check();
    await dialog.locator('input[name="permissions.edit_payments"]').uncheck();
    const active = dialog.locator('input[name="is_active"]');
    expect(await active.isChecked()).toBe(true);
    await active.uncheck();
    await shot(page, 'users-form-edit');
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'clerk_01').getByText('停用').waitFor();
    expect(await row(page, 'clerk_01').innerText()).toContain('查看匯款、查看報告');
    const list = await apiAs(e.tokens.admin, 'GET', '/users?filter={"q":"clerk_01"}');
    expect(list.body[0]).toMatchObject({ permissions: ['view_payments', 'view_reports'], is_active: false });
    // the password was left blank: unchanged (the account is inactive now, so log in after reactivating)
    await apiAs(e.tokens.admin, 'PUT', `/users/${list.body[0].id}`, { is_active: true });
    expect((await login('clerk_01', 'tea-leaf-99')).status).toBe(200);

    // one's own account: no active toggle, with the reason; saving reloads the profile
    await row(page, 'admin').getByRole('button', { name: '編輯' }).click();
    await dialog.getByText('編輯會員').waitFor();
    expect(await dialog.locator('input[name="is_active"]').isDisabled()).toBe(true);
    expect(await dialog.getByTestId('is-active-reason').innerText()).toBe('無法停用自己的帳戶');
    const me = page.waitForRequest((r) => r.url().endsWith('/api/admin/me'));
    await dialog.getByRole('button', { name: '儲存' }).click();
    await dialog.waitFor({ state: 'detached' });
    await me;
    await page.context().close();
  });

  it('a non-admin member manager cannot delete, edit or deactivate an admin, nor grant the admin role', async () => {
    const page = await openUsers('hq_manage_users');
    const admin = row(page, 'admin');
    expect(await admin.getByRole('button', { name: '刪除' }).isDisabled()).toBe(true);
    expect(await tooltipOf(page, admin.locator('[data-denial]').last())).toBe('權限不足：無法刪除管理員帳戶');
    expect(await admin.getByRole('button', { name: '編輯' }).isDisabled()).toBe(true);
    expect(await admin.getByRole('button', { name: '更改密碼' }).count()).toBe(0);
    const own = row(page, 'hq_manage_users');
    expect(await own.getByRole('button', { name: '更改密碼' }).count()).toBe(1);
    expect(await tooltipOf(page, own.locator('[data-denial]'))).toBe('無法刪除自己的帳戶');
    await shot(page, 'users-desktop-manager');

    await page.getByRole('button', { name: '新增會員' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('role-select').getByRole('combobox').click();
    expect(await page.getByRole('option', { name: '管理員', exact: true }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('option', { name: '用戶', exact: true }).click();
    // permissions the manager does not hold cannot be granted
    expect(await dialog.locator('input[name="permissions.manage_users"]').isDisabled()).toBe(false);
    expect(await dialog.locator('input[name="permissions.view_payments"]').isDisabled()).toBe(true);
    await page.context().close();
  });

  it('deletes a member after a confirm showing username and role; a failed delete says why', async () => {
    const page = await openUsers('admin');
    await row(page, 'clerk_01').getByRole('button', { name: '刪除' }).click();
    const dialog = page.getByRole('dialog');
    const summary = dialog.getByTestId('delete-user-summary');
    expect(await summary.innerText()).toContain('clerk_01');
    expect(await summary.innerText()).toContain('用戶');
    await shot(page, 'users-delete-confirm');
    await dialog.getByRole('button', { name: '確認刪除' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'clerk_01').waitFor({ state: 'detached' });
    expect((await apiAs(e.tokens.admin, 'GET', '/users?filter={"q":"clerk_01"}')).body).toEqual([]);

    // someone else deletes boss_2 while the confirm is open: the alert carries the server's reason
    await row(page, 'boss_2').getByRole('button', { name: '刪除' }).click();
    expect(await dialog.getByTestId('delete-user-summary').innerText()).toContain('管理員');
    const boss = (await apiAs(e.tokens.admin, 'GET', '/users?filter={"q":"boss_2"}')).body[0];
    expect((await apiAs(e.tokens.admin, 'DELETE', `/users/${boss.id}`)).status).toBe(200);
    await dialog.getByRole('button', { name: '確認刪除' }).click();
    await page.getByText('刪除失敗：找不到用戶').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await page.context().close();
  });

  it('works on a 375 px phone: every member and its actions reachable, the form fits', async () => {
    const page = await openUsers('admin', PHONE);
    await screen(page, 'users-phone-screen');
    const branchA = row(page, 'branchA');
    await branchA.scrollIntoViewIfNeeded();
    const edit = branchA.getByRole('button', { name: '編輯' });
    const box = (await edit.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'users-phone');
    await edit.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('編輯會員').waitFor();
    await shot(page, 'users-phone-form');
    await screen(page, 'users-phone-form-screen');
    await dialog.getByRole('button', { name: '儲存' }).scrollIntoViewIfNeeded();
    await screen(page, 'users-phone-form-screen-bottom');
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });

  // Last: changes a fixture user's password.
  it('changes one own password: core messages, server refusal, 密碼更改成功！ and still signed in', async () => {
    const page = await openUsers('hq_manage_users');
    await row(page, 'hq_manage_users').getByRole('button', { name: '更改密碼' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('更改密碼').first().waitFor();
    const submit = dialog.getByRole('button', { name: '確認更改' });
    await submit.click();
    expect(await errorTexts(dialog)).toEqual(['請輸入目前密碼', '請輸入新密碼']);
    await dialog.locator('input[name="currentPassword"]').fill('wrong-one');
    await dialog.locator('input[name="newPassword"]').fill('short');
    await submit.click();
    expect(await errorTexts(dialog)).toEqual(['新密碼至少需要6個字符']);
    // core's weak-password rule, before anything is sent: one's own username, a run
    for (const [weak, why] of [
      ['hq_manage_users', MSG.passwordWeak.username],
      ['123456', MSG.passwordWeak.repetitive],
    ]) {
      await dialog.locator('input[name="newPassword"]').fill(weak);
      await dialog.locator('input[name="confirmNewPassword"]').fill(weak);
      await submit.click();
      expect(await errorTexts(dialog)).toEqual([why]);
    }
    await dialog.locator('input[name="confirmNewPassword"]').fill('');
    await dialog.locator('input[name="newPassword"]').fill('brand-new-7');
    await dialog.locator('input[name="confirmNewPassword"]').fill('brand-new-8');
    await submit.click();
    expect(await errorTexts(dialog)).toEqual(['新密碼確認不匹配']);
    await dialog.locator('input[name="confirmNewPassword"]').fill('brand-new-7');
    await submit.click();
    await dialog.getByTestId('change-password-error').getByText('目前密碼不正確').waitFor();
    expect(await errorTexts(dialog)).toEqual(['目前密碼不正確']);
    await shot(page, 'users-change-password-error');

    await dialog.locator('input[name="currentPassword"]').fill(PASSWORD);
    await submit.click();
    await page.getByText('密碼更改成功！', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await shot(page, 'users-change-password-done');

    expect((await login('hq_manage_users', PASSWORD)).status).toBe(401);
    expect((await login('hq_manage_users', 'brand-new-7')).status).toBe(200);
    // the fresh token was stored: a reload still shows the list, not the login page
    await page.reload();
    await row(page, 'admin').waitFor();
    expect(page.url()).toContain('/admin/users');
    await page.context().close();
  });
});
