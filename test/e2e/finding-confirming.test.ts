/**
 * In a real browser, at 375 and 1280 px: a search looks at every date (and
 * says which days it looked at), 確認入帳 in one tap with 復原, ‹ › a day at a time and a list that
 * keeps itself current (time driven by Playwright's clock, requests counted), a delete that
 * waits behind 復原, a future row refused in the import preview, 稽核紀錄 as cards on a phone and
 * the dashboard's store names on one line, the words, one 權限不足 and the no-store notice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, createStore, createUser, MSG, systemActor, taipeiDate } from '../../core/index.js';
import { HEADERS } from '../../core/payments/sheetFile.js';
import { signToken } from '../../core/users/auth.js';
import { type UserRow } from '../../core/users/rows.js';
import { TEST_SECURITY } from '../helpers/db.js';
import { callApi, DESK, HAS_CHROMIUM, PHONE, settle, startE2E, type E2E } from './harness.js';

const VIEWPORTS = [PHONE, DESK];
const today = taipeiDate(Date.now());
const daysAgo = (n: number) => addDays(today, -n);
const slash = (d: string) => d.replaceAll('-', '/');
/** the list's look for changes (admin/src/payments/useListWatch.ts WATCH_MS) */
const WATCH_MS = 10_000;

describe.skipIf(!HAS_CHROMIUM)('finding and confirming, screens and words', () => {
  let e: E2E;
  const ids: Record<string, string> = {};
  const api = (method: string, path: string, as: string, body?: unknown) =>
    callApi(e, method, path, as, body) as Promise<any>;
  const pay = async (name: string, body: Record<string, unknown>, as = 'admin') => {
    ids[name] = (
      await api('POST', '/payments', as, { confirm_duplicate: true, note: '', store_id: e.stores.A.id, ...body })
    ).uuid;
    return ids[name];
  };
  const stored = async (id: string) => api('GET', `/payments/${id}`, 'admin');
  const noSideways = async (page: Page, width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

  beforeAll(async () => {
    e = await startE2E();
    // 30 payments in the default days (two pages of 25), one twelve days ago, found only by a search over every date
    for (let i = 0; i < 30; i++)
      await pay(`p${i}`, {
        last_five: String(20000 + i),
        paid_at: `${daysAgo(1 + (i % 3))}T${String(8 + (i % 10)).padStart(2, '0')}:10`,
        amount: 500 + i,
      });
    await pay('old', { last_five: '66510', paid_at: `${daysAgo(12)}T15:00`, amount: 6510 });
    // the machine's own audit entries: the command line and the server's first start
    const ctx = (label: string) => ({ db: e.t.db, security: TEST_SECURITY, actor: systemActor(label), ip: null });
    await createStore(ctx('cli'), { name: '命令列店', code: 'CLI' });
    await createStore(ctx('system'), { name: '系統店', code: 'SYS' });
    // a user allowed to view payments and reports who has no store at all
    const nobody = await createUser(ctx('test'), {
      username: 'nostore',
      password: 'shop-key-4821',
      role: 'user',
      permissions: ['view_payments', 'view_reports'],
    });
    const row = (await e.t.db<UserRow>('users').where({ id: nobody.id }).first())!;
    e.tokens.nostore = signToken(TEST_SECURITY, row);
  });
  afterAll(async () => e?.close());

  it('1. a search looks at every date and says so; chosen dates are kept, and the empty answer names them with one tap to search all', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await e.signedIn('admin', '/admin/payments', viewport);
      const phone = viewport === PHONE;
      const items = page.locator(phone ? '[data-testid^="payment-card-"]' : 'tbody tr');
      await items.first().waitFor();
      const search = page.getByTestId('filter-search');
      await search.fill('66510');
      await expect.poll(() => items.allInnerTexts()).toEqual([expect.stringContaining('66510')]);
      if (phone) expect(await page.getByTestId('filter-days').innerText()).toBe('搜尋範圍：所有日期');
      else expect(await page.getByTestId('filter-from').inputValue()).toBe('');
      await e.shot(page, `payments-search-all-dates-${viewport.width}`);
      // emptying the search brings the list back as it opens: the last three days
      await search.fill('');
      await expect.poll(() => items.count()).toBe(25);
      if (phone) expect(await page.getByTestId('filter-days').innerText()).toBe(`${slash(daysAgo(3))}–${slash(today)}`);
      else expect(await page.getByTestId('filter-from').inputValue()).toBe(daysAgo(3));

      // dates chosen on purpose (昨天) stay: the empty answer names them, one tap searches every date
      if (phone) await page.getByTestId('filters-toggle').click();
      await page.getByTestId('quick-ranges').getByRole('button', { name: '昨天' }).click();
      // a person types once the dates read 昨天 (on a phone, in the line beside ‹ ›)
      if (phone) await expect.poll(() => page.getByTestId('filter-days').innerText()).toBe(slash(daysAgo(1)));
      else await expect.poll(() => page.getByTestId('filter-from').inputValue()).toBe(daysAgo(1));
      if (phone) await page.getByTestId('filters-toggle').click();
      await search.fill('66510');
      const empty = page.getByTestId('payments-empty');
      await expect.poll(() => empty.textContent()).toBe(`在 ${slash(daysAgo(1))} 沒有符合「66510」的匯款記錄`);
      await e.shot(page, `payments-search-empty-days-${viewport.width}`);
      await page.getByTestId('search-every-date').click();
      await expect.poll(() => items.allInnerTexts()).toEqual([expect.stringContaining('66510')]);
      await noSideways(page, viewport.width);
      await page.context().close();
    }
  });

  it('2. 確認入帳 in one tap on a card and on a row, with 復原 before anything is sent; not for a read-only user', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await e.signedIn('branchA', '/admin/payments', viewport);
      const id = viewport === PHONE ? ids.p0 : ids.p3;
      const confirm = page.getByTestId(`confirm-${id}`);
      await confirm.waitFor();
      expect(await confirm.innerText()).toBe('確認入帳');
      // 復原: the payment shows 已入帳 at once, and after 復原 nothing was ever sent
      await confirm.click();
      await page.getByText(/^已確認入帳：後五碼 \d{5}$/).waitFor();
      await expect.poll(() => confirm.count()).toBe(0);
      await e.shot(page, `payments-confirm-undo-${viewport.width}`);
      await page.getByRole('button', { name: '復原' }).click();
      await confirm.waitFor();
      expect((await stored(id)).status).toBe('未確認');
      // left alone, it is sent once the notice has gone
      await confirm.click();
      await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });
      await expect.poll(async () => (await stored(id)).status).toBe('已入帳');
      expect(await confirm.count()).toBe(0);
      // the dropdown stays for the other statuses
      expect(await page.getByTestId(`status-${id}`).count()).toBe(1);
      await noSideways(page, viewport.width);
      await page.context().close();
    }
    const viewer = await e.signedIn('hq_view_payments', '/admin/payments', DESK);
    await viewer.locator('tbody tr').first().waitFor();
    expect(await viewer.getByRole('button', { name: /確認入帳/ }).count()).toBe(0);
    await viewer.context().close();
  });

  it('3. ‹ and › step the dates a day at a time, at a desk and on a phone without opening 篩選', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await e.signedIn('admin', '/admin/payments', viewport);
      const phone = viewport === PHONE;
      await page.getByTestId('payment-filters').waitFor();
      const dates = async () =>
        phone
          ? page.getByTestId('filter-days').innerText()
          : `${await page.getByTestId('filter-from').inputValue()}|${await page.getByTestId('filter-to').inputValue()}`;
      const want = (from: string, to: string) =>
        phone ? (from === to ? slash(from) : `${slash(from)}–${slash(to)}`) : `${from}|${to}`;
      await expect.poll(dates).toBe(want(daysAgo(3), today));
      expect(await page.getByRole('button', { name: '後一天' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: '前一天' }).click();
      await expect.poll(dates).toBe(want(daysAgo(4), daysAgo(1)));
      await page.getByRole('button', { name: '前一天' }).click();
      await expect.poll(dates).toBe(want(daysAgo(5), daysAgo(2)));
      await page.getByRole('button', { name: '後一天' }).click();
      await expect.poll(dates).toBe(want(daysAgo(4), daysAgo(1)));
      await e.shot(page, `payments-day-step-${viewport.width}`);
      await noSideways(page, viewport.width);
      await page.context().close();
    }
  });

  it('3. an open list shows a report sent meanwhile without 重新整理, and a hidden tab asks nothing', async () => {
    for (const viewport of VIEWPORTS) {
      const ctx = await e.context(viewport);
      await e.addSession(ctx, e.tokens.admin);
      const page = await ctx.newPage();
      // Playwright's clock: the page's timers run on it, so ten seconds pass at once
      await page.clock.install();
      let requests = 0;
      const isLook = (url: string) =>
        url.includes('/api/payments?') && url.includes('range=%5B0%2C0%5D') && url.includes('paid_at');
      let heavy = 0;
      page.on('request', (r) => {
        if (!new URL(r.url()).pathname.startsWith('/api/')) return;
        requests++;
        if (!isLook(r.url())) heavy++;
      });
      await page.goto(`${e.url}/admin/payments`);
      const phone = viewport === PHONE;
      const items = page.locator(phone ? '[data-testid^="payment-card-"]' : 'tbody tr');
      await items.first().waitFor();
      await page.waitForLoadState('networkidle');

      const lastFive = viewport === PHONE ? '77375' : '77128';
      await pay(
        `new${viewport.width}`,
        { last_five: lastFive, paid_at: `${today}T00:0${viewport === PHONE ? 1 : 2}`, amount: 321 },
        'branchA',
      );
      await page.clock.fastForward(WATCH_MS + 1000);
      await expect.poll(() => items.first().innerText()).toContain(lastFive);

      // hidden: a minute passes and nothing is asked; shown again: it looks at once
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await page.waitForLoadState('networkidle');
      requests = 0;
      for (let i = 0; i < 6; i++) await page.clock.fastForward(WATCH_MS);
      expect(requests).toBe(0);
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await expect.poll(() => requests).toBeGreaterThan(0);
      // visible and nothing new: at most one light request a look, and nothing else
      await page.waitForLoadState('networkidle');
      requests = 0;
      heavy = 0;
      for (let i = 0; i < 3; i++) {
        await page.clock.fastForward(WATCH_MS);
        await page.waitForLoadState('networkidle');
      }
      const looking = page.waitForRequest((r) => isLook(r.url()));
      await page.clock.fastForward(WATCH_MS);
      await page.clock.fastForward(WATCH_MS);
      await looking;
      expect(requests).toBeGreaterThanOrEqual(1);
      expect(requests).toBeLessThanOrEqual(5);
      expect(heavy).toBe(0);
      await ctx.close();
    }
  });

  it('4. a delete (one or many) waits behind 復原; 復原 keeps the payment, and the audit keeps what was deleted', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await e.signedIn('admin', '/admin/payments', viewport);
      const phone = viewport === PHONE;
      const id = phone ? ids.p10 : ids.p13;
      const item = phone
        ? page.getByTestId(`payment-card-${id}`)
        : page.locator('tbody tr', { has: page.getByTestId(`delete-${id}`) });
      await item.waitFor();
      await page.getByTestId(`delete-${id}`).click();
      await page.getByRole('button', { name: '確認刪除' }).click();
      await item.waitFor({ state: 'detached' });
      await page.getByText(/^已刪除後五碼 \d{5}、NT\$[\d,]+ 的匯款記錄$/).waitFor();
      await e.shot(page, `payments-delete-undo-${viewport.width}`);
      await page.getByRole('button', { name: '復原' }).click();
      await item.waitFor();
      expect((await stored(id)).uuid).toBe(id);

      await page.getByTestId(`delete-${id}`).click();
      await page.getByRole('button', { name: '確認刪除' }).click();
      await item.waitFor({ state: 'detached' });
      expect((await stored(id)).uuid).toBe(id);
      await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });
      await expect.poll(async () => (await stored(id)).message).toBe('找不到匯款記錄');
      const audit = await api(
        'GET',
        `/audit?filter=${encodeURIComponent(JSON.stringify({ action: 'delete', entity: 'payment' }))}`,
        'admin',
      );
      const entry = audit.find((a: { entity_id: string }) => a.entity_id === id);
      expect(entry.before).toMatchObject({
        uuid: id,
        last_five: expect.stringMatching(/^\d{5}$/),
        amount: expect.any(Number),
      });
      await page.context().close();
    }
    // many, at a desk
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    const before = await rows.count();
    await rows.nth(0).locator('input[type="checkbox"]').check();
    await rows.nth(1).locator('input[type="checkbox"]').check();
    await page.getByRole('button', { name: '批次刪除' }).click();
    await page.getByRole('button', { name: '確認刪除' }).click();
    await page.getByText('已刪除 2 筆匯款記錄').waitFor();
    await page.getByRole('button', { name: '復原' }).click();
    await expect.poll(() => rows.count()).toBe(before);
    // 復原 sent nothing: still only the two single deletes above are audited
    await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });
    expect(
      await api(
        'GET',
        `/audit?filter=${encodeURIComponent(JSON.stringify({ action: 'delete', entity: 'payment' }))}`,
        'admin',
      ),
    ).toHaveLength(2);
    await page.context().close();
  });

  it('5. the import preview refuses a row dated 2027/01/01 with the form’s own sentence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-e2e-'));
    const wb = XLSX.utils.book_new();
    const next = Number(today.slice(0, 4)) + 1;
    const rows = [
      HEADERS,
      [today, '55501', `${today} 08:00`, 1200, '', '台北店', ''],
      [`${next}/01/01`, '55502', `${next}/01/01 09:00`, 800, '', '台北店', ''],
    ];
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), '匯款記錄');
    writeFileSync(join(dir, 'future.xlsx'), XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    for (const viewport of VIEWPORTS) {
      const page = await e.signedIn('admin', '/admin/payments', viewport);
      await page.getByRole('button', { name: 'Excel 匯入' }).click();
      await page.getByTestId('import-file').setInputFiles(join(dir, 'future.xlsx'));
      await page.getByRole('button', { name: '下一步' }).click();
      const preview = page.getByTestId('import-preview');
      await preview.waitFor();
      await expect
        .poll(() => page.getByTestId('import-errors').innerText())
        .toContain(`第 3 行：${MSG.paidAtTooFarAhead}`);
      expect(await preview.innerText()).toContain('錯誤');
      await settle(page);
      await e.shot(page, `import-preview-future-${viewport.width}`);
      await page.context().close();
    }
  });

  it('6. 稽核紀錄 is cards on a phone, no wider than the screen; the dashboard’s store names stay on one line at a desk', async () => {
    const page = await e.signedIn('hq_system_admin', '/admin/audit', PHONE);
    const cards = page.getByTestId('audit-cards');
    await cards.waitFor();
    await noSideways(page, 375);
    expect(await page.getByTestId('audit-grid').count()).toBe(0);
    // no empty band: the first card starts right under the filters
    const gap = await page.evaluate(() => {
      const filters = document.querySelector('.RaList-main form, .RaFilterForm-root, form')!.getBoundingClientRect();
      const first = document.querySelector('[data-testid^="audit-card-"]')!.getBoundingClientRect();
      return first.top - filters.bottom;
    });
    expect(gap).toBeLessThan(48);
    await e.shot(page, 'audit-cards-375');
    await page.context().close();

    for (const viewport of VIEWPORTS) {
      const dash = await e.signedIn('admin', '/admin/dashboard', viewport);
      const cell = dash.getByTestId('status-amounts').getByTestId('status-amounts-store').first();
      await cell.waitFor();
      await settle(dash);
      // lines of text in each store cell: its height without padding, over its line height
      const lines = await dash
        .getByTestId('status-amounts')
        .getByTestId('status-amounts-store')
        .evaluateAll((els) =>
          els.map((el) => {
            const cs = getComputedStyle(el);
            return Math.round(
              (el.getBoundingClientRect().height -
                parseFloat(cs.paddingTop) -
                parseFloat(cs.paddingBottom) -
                parseFloat(cs.borderBottomWidth)) /
                parseFloat(cs.lineHeight),
            );
          }),
        );
      for (const n of lines) expect(n).toBeLessThanOrEqual(viewport === DESK ? 1 : 2);
      const table = await dash
        .getByTestId('status-amounts')
        .evaluate((t) => ({ width: t.scrollWidth, room: t.parentElement!.clientWidth }));
      expect(table.width).toBeLessThanOrEqual(table.room);
      await noSideways(dash, viewport.width);
      await e.shot(dash, `dashboard-status-amounts-${viewport.width}`);
      await dash.context().close();
    }
  });

  it('7. the words: 更改密碼 in the menu, the pages named in Chinese, 命令列 and 系統 in the audit, Taiwan’s 字元', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await e.signedIn('admin', '/admin/payments', viewport);
      await page
        .locator(viewport === PHONE ? '[data-testid^="payment-card-"]' : 'tbody tr')
        .first()
        .waitFor();
      await page.locator('.MuiTablePagination-root').waitFor();
      if (viewport === DESK)
        expect(await page.locator('nav.MuiPagination-root').getAttribute('aria-label')).toBe('分頁導覽');
      expect(await page.locator('[aria-label="pagination navigation"]').count()).toBe(0);
      await page.context().close();

      const audit = await e.signedIn('admin', '/admin/audit', viewport);
      const entries = audit.getByTestId(viewport === PHONE ? 'audit-cards' : 'audit-grid');
      await entries.waitFor();
      const text = await entries.innerText();
      expect(text).toContain('命令列');
      expect(text).toContain('系統');
      expect(text).not.toMatch(/\bcli\b|\bsystem\b/);
      await e.shot(audit, `audit-actors-${viewport.width}`);
      await audit.context().close();
    }
    const stores = await e.signedIn('admin', '/admin/stores', DESK);
    await stores.getByRole('button', { name: /新增分店/ }).click();
    const dialog = stores.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('最多20個字元');
    expect(await dialog.innerText()).not.toContain('字符');
    await stores.context().close();
  });

  it('8. one 權限不足 everywhere; a user with no store is told so on the list, as on the dashboard', async () => {
    const layouts = new Set<string>();
    for (const viewport of VIEWPORTS) {
      for (const [user, path] of [
        ['branchA', '/admin/users'],
        ['branchA', '/admin/stores'],
        ['branchA', '/admin/audit'],
        ['hq_none', '/admin/payments'],
        ['hq_none', '/admin/dashboard'],
        ['hq_none', '/admin/reconcile'],
      ] as const) {
        const page = await e.signedIn(user, path, viewport);
        const notice = page.locator('[data-notice="forbidden"]');
        await notice.waitFor();
        expect(await notice.locator('.MuiAlertTitle-root').innerText(), `${user} ${path}`).toBe('權限不足');
        layouts.add(
          await notice.evaluate(
            (el) => `${el.className.replace(/css-\S+/g, '')}|${el.parentElement!.className.replace(/css-\S+/g, '')}`,
          ),
        );
        if (path === '/admin/users') await e.shot(page, `forbidden-users-${viewport.width}`);
        await page.context().close();
      }
      const list = await e.signedIn('nostore', '/admin/payments', viewport);
      const notice = list.getByTestId('payments-no-store');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('尚未設定分店');
      expect(await notice.innerText()).toContain('沒有任何分店的權限');
      expect(await list.getByText('目前沒有任何匯款記錄').count()).toBe(0);
      await e.shot(list, `payments-no-store-${viewport.width}`);
      const kind = await notice.getAttribute('data-notice');
      expect(kind).toBe('no-store');
      await list.goto(`${e.url}/admin/dashboard`);
      await list.getByTestId('dashboard-no-store').waitFor();
      expect(await list.getByTestId('dashboard-no-store').getAttribute('data-notice')).toBe(kind);
      await list.context().close();
    }
    expect([...layouts]).toHaveLength(1);
  });

  it('answered no request with a server error', () => {
    expect(e.errors).toEqual([]);
  });
});
