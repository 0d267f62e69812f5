/**
 * In a real browser, as branch staff on a phone and an admin at a desk would meet it:
 * the form's amount starts empty, a mistyped time and a repeated report are questioned before
 * anything is stored, an expired sign-in on the form leads to the login and back; the back
 * office's 404 page, the yellow 未確認 and the member switch's label.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { DESK, HAS_CHROMIUM, PASSWORD, PHONE, SCREENSHOTS, startE2E, type E2E } from './harness.js';

// Yesterday: an ordinary time that no clock questions.
const yesterday = taipeiDate(Date.now() - 86_400_000);
const thisYear = Number(taipeiDate(Date.now()).slice(0, 4));

describe.skipIf(!HAS_CHROMIUM)('daily use: the form and the back office', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  const count = async () => Number(((await e.t.db('payments').count({ n: '*' }).first()) as any).n);
  /** what the screen shows now (not a full page), after MUI's transitions */
  const screen = async (page: Page, name: string) => {
    await page.evaluate(`Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)))`);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  };
  const noSideways = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      await page.evaluate(() => window.innerWidth),
    );

  it('on a phone the amount starts empty, and a time 2016 or next year is asked about before anything is stored', async () => {
    const page = await e.signedIn('branchA', '/', PHONE);
    await page.getByTestId('locked-store').waitFor();
    expect(await page.locator('#amount').inputValue()).toBe('');
    await page.locator('#amount').pressSequentially('1200');
    expect(await page.locator('#amount').inputValue()).toBe('1200');
    await page.locator('#last_five').fill('24680');
    await page.locator('#paid_at').fill('2016-11-21T15:30');
    const before = await count();
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    const doubt = page.getByTestId('doubt-time');
    await doubt.waitFor();
    expect(await doubt.innerText()).toMatch(/匯款時間 2016\/11\/21 15:30 是 \d+ 天前，確定沒有填錯嗎？/);
    await noSideways(page);
    await screen(page, 'form-confirm-old-time-375');
    expect(await count()).toBe(before);
    // going back to fix it stores nothing; fixing the year sends it at once
    await doubt.getByRole('button', { name: '返回修改' }).click();
    await doubt.waitFor({ state: 'detached' });
    await page.locator('#paid_at').fill(`${yesterday}T09:05`);
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    await page.getByTestId('banner-success').waitFor();
    expect(await count()).toBe(before + 1);
    expect(await page.locator('#amount').inputValue()).toBe('');

    // next year: over a day ahead, refused at once with the server's own words (no question whose
    // 仍要提交 the server would refuse anyway), and nothing sent
    await page.locator('#last_five').fill('24681');
    await page.locator('#amount').fill('500');
    await page.locator('#paid_at').fill(`${thisYear + 1}-06-15T10:00`);
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    await page.locator('#paid_at[aria-invalid="true"]').waitFor();
    expect(await page.locator('#paid_at-error').textContent()).toBe('匯款時間不能晚於現在超過一天，請確認日期與時間');
    expect(await page.getByTestId('doubt-time').count()).toBe(0);
    expect(await count()).toBe(before + 1);
    await page.context().close();
  });

  it('the same report twice is held as 可能重複 with the earlier tracking number, and stored only when confirmed', async () => {
    const page = await e.signedIn('admin', '/', DESK);
    await page.locator('#store_id').waitFor();
    const fill = async () => {
      await page.locator('#last_five').fill('13579');
      await page.locator('#paid_at').fill(`${yesterday}T09:10`);
      await page.locator('#amount').fill('2500');
      await page.locator('#store_id').selectOption({ label: '台北店 (TPE)' });
    };
    await fill();
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    await page.getByTestId('banner-success').waitFor();
    const first = /追蹤編號：(\S+)$/.exec((await page.getByTestId('banner-success').textContent()) ?? '')![1];
    const before = await count();
    await fill();
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    const doubt = page.getByTestId('doubt-duplicate');
    await doubt.waitFor();
    expect(await doubt.innerText()).toContain('可能重複');
    expect(await doubt.innerText()).toContain(`追蹤編號：${first}`);
    await screen(page, 'form-possible-duplicate-1280');
    expect(await count()).toBe(before);
    await doubt.getByRole('button', { name: '仍要提交' }).click();
    await page.getByTestId('banner-success').waitFor();
    expect(await page.getByTestId('banner-success').textContent()).not.toContain(first);
    expect(await count()).toBe(before + 1);
    await page.context().close();
  });

  it('an expired sign-in on the form goes to the login and back to the form', async () => {
    const page = await e.signedIn('branchA', '/', PHONE);
    await page.getByTestId('locked-store').waitFor();
    await e.addSession(page.context(), 'expired.token.value');
    await page.locator('#last_five').fill('11223');
    await page.locator('#paid_at').fill(`${yesterday}T09:15`);
    await page.locator('#amount').fill('300');
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    await page.waitForURL(`${e.url}/admin/login?redirect=${encodeURIComponent('/')}`);
    await page.getByLabel('用戶名').fill('branchA');
    await page.getByLabel('密碼').fill(PASSWORD);
    await page.getByRole('button', { name: '登入' }).click();
    await page.waitForURL(`${e.url}/`);
    await page.getByTestId('locked-store').waitFor();
    expect(await page.getByTestId('username').textContent()).toBe('branchA');
    await page.context().close();
  });

  it('the back office 404 says its sentence once; 未確認 is yellow; the member switch reads 啟用帳戶', async () => {
    for (const viewport of [PHONE, DESK]) {
      const page = await e.signedIn('admin', '/admin/no-such-page', viewport);
      const nf = page.getByTestId('not-found');
      await nf.waitFor();
      expect(await nf.innerText()).toContain('您輸入的網址有誤，或點選了無效的連結。');
      expect(await nf.innerText()).not.toContain('。.');
      await noSideways(page);
      await screen(page, `admin-404-${viewport.width}`);
      await page.context().close();
    }
    const list = await e.signedIn('admin', '/admin/payments', DESK);
    const chip = list.locator('.MuiChip-root', { hasText: '未確認' }).first();
    await chip.waitFor();
    expect(await chip.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(251, 192, 45)');
    await list.context().close();

    const users = await e.signedIn('admin', '/admin/users', DESK);
    await users.getByTestId('user-row-branchA').getByRole('button', { name: '編輯' }).click();
    const dialog = users.getByRole('dialog');
    await dialog.getByText('編輯會員').waitFor();
    const label = dialog.locator('label', { has: users.locator('input[name="is_active"]') });
    expect((await label.innerText()).trim()).toBe('啟用帳戶');
    await users.context().close();
  });

  it('a page a user may not open says 權限不足 at once, on a phone and at a desk', async () => {
    for (const viewport of [PHONE, DESK]) {
      // at once: from the user's own permissions, before anything is asked (not after react-query's
      // retries of a refusal that will not change): the page never asks for the members at all
      const ctx = await e.context(viewport);
      await e.addSession(ctx, e.tokens.branchA);
      const page = await ctx.newPage();
      const asked: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/users')) asked.push(r.url());
      });
      await page.goto(`${e.url}/admin/users`);
      await page.getByText('權限不足').first().waitFor();
      expect(await page.getByText('載入中').count()).toBe(0);
      expect(asked).toEqual([]);
      // no button that could only be refused
      expect(await page.getByRole('button', { name: '新增會員' }).count()).toBe(0);
      await noSideways(page);
      await screen(page, `admin-users-denied-${viewport.width}`);
      await page.context().close();
    }
  });
});
