/** 稽核紀錄 in the back office: system_admin sees a change with its before and after; others get no menu entry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { formatTaipei, taipeiDate } from '../../core/index.js';
import { capture, HAS_CHROMIUM, PHONE, pick, SCREENSHOTS, settle, startE2E, type E2E } from './harness.js';

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
    // in words, not keys
    expect(text).toContain('狀態：啟用 → 停用');
    expect(text).not.toContain('is_active');
    expect(text).toMatch(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/);
    await first.click();
    const changes = page.getByTestId('audit-changes').first();
    await changes.waitFor();
    const detail = (await changes.textContent()) ?? '';
    expect(detail).toContain('修改前');
    expect(detail).toContain('修改後');
    expect(detail).toContain('hq_none');
    const changed = changes.locator('tr', { hasText: '停用' });
    expect(await changed.locator('td').allInnerTexts()).toEqual(['狀態', '啟用', '停用']);
    expect(detail).not.toMatch(/is_active|store_id|permissions|[{}]/);
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

  it('a payment’s change reads in Taiwan time, NT$ and store names, with a Chinese pagination label, at 375, 768 and 1280 px', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${e.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${e.tokens.admin}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));
    // 10:15 in Taipei yesterday is 02:15 UTC
    const day = taipeiDate(Date.now() - 86_400_000);
    const paidAt = `${day}T02:15:00.000Z`;
    const made = await api('POST', '/payments', {
      last_five: '02468',
      paid_at: paidAt,
      amount: 12000,
      store_id: e.stores.A.id,
      note: '',
    });
    expect(made.status).toBe(201);
    expect((await api('PUT', `/payments/${made.body.uuid}`, { status: '已入帳', note: '已核對' })).status).toBe(200);
    const when = formatTaipei(Date.parse(paidAt));
    expect(when).toBe(`${day.replace(/-/g, '/')} 10:15`);

    for (const viewport of [{ width: 1280, height: 800 }, { width: 768, height: 1024 }, PHONE]) {
      const page: Page = await e.signedIn('admin', '/admin/audit', viewport);
      // cards below 1200 px (a phone, a tablet beside the menu)
      const phone = viewport.width < 1200;
      let changes: Locator;
      if (phone) {
        // a phone: one card per entry, as 匯款記錄
        const card = page
          .getByTestId('audit-cards')
          .locator('[data-testid^="audit-card-"]', { hasText: '匯款' })
          .first();
        await expect.poll(() => card.textContent()).toContain('狀態：未確認 → 已入帳；備註：（無） → 已核對');
        await card.getByRole('button', { name: '查看內容' }).click();
        changes = card.getByTestId('audit-changes');
        await changes.waitFor();
        const field = async (label: string) =>
          (
            await changes.locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).innerText()
          ).split('\n');
        expect(await field('匯款時間')).toEqual(['匯款時間', `修改前：${when}`, `修改後：${when}`]);
        expect(await field('匯款金額')).toEqual(['匯款金額', '修改前：NT$12,000', '修改後：NT$12,000']);
        expect(await field('分店')).toEqual(['分店', '修改前：台北店 (TPE)', '修改後：台北店 (TPE)']);
        expect(await field('狀態')).toEqual(['狀態', '修改前：未確認', '修改後：已入帳']);
        // every card within the screen: nothing cut at the right
        for (const box of await page
          .locator('[data-testid^="audit-card-"]')
          .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right)))
          expect(box).toBeLessThanOrEqual(viewport.width);
      } else {
        const grid = page.getByTestId('audit-grid');
        await grid.waitFor();
        const row = grid.locator('tbody tr', { hasText: '匯款' }).first();
        await expect.poll(() => row.textContent()).toContain('狀態：未確認 → 已入帳；備註：（無） → 已核對');
        await row.click();
        changes = page.getByTestId('audit-changes').first();
        await changes.waitFor();
        const cells = async (label: string) =>
          changes
            .locator('tr', { has: page.locator('td', { hasText: new RegExp(`^${label}$`) }) })
            .locator('td')
            .allInnerTexts();
        expect(await cells('匯款時間')).toEqual(['匯款時間', when, when]);
        expect(await cells('匯款金額')).toEqual(['匯款金額', 'NT$12,000', 'NT$12,000']);
        expect(await cells('分店')).toEqual(['分店', '台北店 (TPE)', '台北店 (TPE)']);
        expect(await cells('狀態')).toEqual(['狀態', '未確認', '已入帳']);
      }
      const detail = (await changes.innerText()) ?? '';
      expect(detail).not.toMatch(/[a-z]+_[a-z]+|\d{4}-\d{2}-\d{2}T|Z\b/);
      // the pagination speaks Chinese too
      const pagination = page.locator('.MuiTablePagination-root');
      await pagination.waitFor();
      expect(await pagination.innerText()).toMatch(/第 1-\d+ 筆，共 \d+ 筆/);
      expect(await pagination.innerText()).not.toMatch(/[A-Za-z]{3,}/);
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await capture(page, join(SCREENSHOTS, `audit-payment-detail-${viewport.width}.png`));
      await page.context().close();
    }
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
