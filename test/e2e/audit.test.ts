/** 稽核紀錄 in the back office: system_admin sees a change with its before and after; others get no menu entry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, pick, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('audit page', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it('shows a change with who, what, when, and its before and after', async () => {
    const target = e.users.hq_none;
    const res = await fetch(`${e.url}/api/users/${target.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${e.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ is_active: false }),
    });
    expect(res.status).toBe(200);

    const page = await e.signedIn('admin', '/admin/payments');
    await page.getByRole('menuitem', { name: '稽核紀錄' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/audit');
    const grid = page.getByTestId('audit-grid');
    await grid.waitFor();
    const first = grid.locator('tbody tr').first();
    await expect.poll(() => first.textContent()).toContain('修改');
    const text = (await first.textContent()) ?? '';
    expect(text).toContain('admin');
    expect(text).toContain('會員');
    expect(text).toContain(String(target.id));
    expect(text).toContain('is_active');
    expect(text).toMatch(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/);
    await first.click();
    const changes = page.getByTestId('audit-changes').first();
    await changes.waitFor();
    const detail = (await changes.textContent()) ?? '';
    expect(detail).toContain('修改前');
    expect(detail).toContain('修改後');
    expect(detail).toContain('hq_none');
    const changed = changes.locator('tr', { hasText: 'is_active' });
    expect(await changed.textContent()).toMatch(/is_active\s*true\s*false/);
    await e.shot(page, 'audit-admin');

    // the action filter: only 新增 entries (the fixture's accounts and stores)
    await pick(page, page.getByRole('combobox', { name: '動作' }), '新增');
    await expect.poll(() => new URL(page.url()).search).toContain('create');
    await expect.poll(async () => (await grid.locator('tbody tr').first().textContent()) ?? '').toContain('新增');
    const actions = await grid.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(actions.filter(Boolean).every((a) => a === '新增')).toBe(true);
    // the user filter: nobody by that name
    await page.getByRole('textbox', { name: '用戶名' }).fill('nobody_at_all');
    await page.getByText('暫無稽核紀錄').waitFor();
    await e.shot(page, 'audit-filtered-empty');
    expect(e.errors).toEqual([]);
    await page.context().close();
  });

  it('shows the menu entry only with system_admin', async () => {
    const sys = await e.signedIn('hq_system_admin', '/admin');
    await sys.getByRole('menuitem', { name: '稽核紀錄' }).waitFor();
    await sys.context().close();

    for (const user of ['hq_manage_users', 'branchA']) {
      const page = await e.signedIn(user, '/admin');
      await page.locator('.RaMenu-open, .RaMenu-closed, [role=menu]').first().waitFor();
      await page.getByRole('menuitem').first().waitFor();
      expect(await page.getByRole('menuitem', { name: '稽核紀錄' }).count(), user).toBe(0);
      if (user === 'hq_manage_users') await e.shot(page, 'audit-no-menu');
      await page.context().close();
    }
  });
});
