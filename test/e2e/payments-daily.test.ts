/**
 * In a real browser: no back-office page wider than a phone, payments as
 * cards on a phone (status, note and delete still there, filters behind 篩選), twenty dense rows
 * on a laptop, search and quick date ranges, who submitted each payment, 已儲存 after each
 * in-place save (Enter saves, Escape cancels, a failure says why and puts the value back), the
 * half-checked select-all, and one count said once.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, taipeiDate } from '../../core/index.js';
import { HEADERS } from '../../core/payments/sheetFile.js';
import { quickDateRange } from '../../core/dateRange.js';
import { callApi, DESK, HAS_CHROMIUM, PHONE, pick, SCREENSHOTS, settle, startE2E, type E2E } from './harness.js';

const today = taipeiDate(Date.now());
const daysAgo = (n: number) => addDays(today, -n);

describe.skipIf(!HAS_CHROMIUM)('the payments list for daily use', () => {
  let e: E2E;
  const ids: Record<string, string> = {};
  const api = (method: string, path: string, as: string, body?: unknown) =>
    callApi(e, method, path, as, body) as Promise<any>;
  const pay = async (name: string, as: string, body: Record<string, unknown>) => {
    ids[name] = (await api('POST', '/payments', as, { confirm_duplicate: true, note: '', ...body })).uuid;
  };
  const stored = async (id: string) => api('GET', `/payments/${id}`, 'admin');

  beforeAll(async () => {
    e = await startE2E();
    // Thirty payments in the default range (the last three days): store A by its branch staff,
    // store B by the admin.
    for (let i = 0; i < 30; i++) {
      const mine = i % 2 === 0;
      await pay(`p${i}`, mine ? 'branchA' : 'admin', {
        last_five: String(10000 + i * 7),
        paid_at: `${daysAgo(1 + (i % 2))}T${String(8 + Math.floor(i / 4)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
        amount: 1000 + i,
        store_id: mine ? e.stores.A.id : e.stores.B.id,
      });
    }
    await pay('cash', 'branchA', {
      last_five: '02468',
      paid_at: `${daysAgo(1)}T20:00`,
      amount: 4321,
      store_id: e.stores.A.id,
      note: '早班現金',
    });
    // Outside the default range: found only by widening the dates.
    await pay('lastMonth', 'admin', {
      last_five: '97531',
      paid_at: `${quickDateRange('lastMonth').from}T12:00`,
      amount: 777,
      store_id: e.stores.C.id,
    });
  });
  afterAll(async () => e?.close());

  const width = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
  /** the page has loaded what it asks for and its transitions are over */
  const ready = async (page: Page) => {
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.getByText('載入中...').count()).toBe(0);
    await settle(page);
  };

  it('no page of the back office is wider than a 375 px phone, for an admin and for branch staff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-e2e-'));
    const wb = XLSX.utils.book_new();
    const rows = [
      HEADERS,
      [
        today,
        '55555',
        `${today} 08:00`,
        1200,
        '一行很長很長很長很長很長很長很長很長很長的備註文字',
        '台北店',
        '已點收',
      ],
      [today, '12', '', -1, '', '沒有這家', ''],
    ];
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), '匯款記錄');
    writeFileSync(join(dir, 'preview.xlsx'), XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);

    for (const user of ['admin', 'branchA']) {
      for (const path of [
        '/admin/payments',
        '/admin/users',
        '/admin/dashboard',
        '/admin/stores',
        '/admin/audit',
        '/admin/reconcile',
        '/',
      ]) {
        const page = await e.signedIn(user, path, PHONE);
        await ready(page);
        expect(await width(page), `${user} ${path}`).toBeLessThanOrEqual(375);
        await e.shot(page, `phone-${user}-${path === '/' ? 'form' : path.split('/').pop()}-375`);
        if (user === 'admin' && path === '/admin/payments') {
          await page.getByRole('button', { name: 'Excel 匯入' }).click();
          await page.getByTestId('import-file').setInputFiles(join(dir, 'preview.xlsx'));
          await page.getByRole('button', { name: '下一步' }).click();
          await page.getByTestId('import-preview').waitFor();
          await settle(page);
          expect(await width(page), 'import preview').toBeLessThanOrEqual(375);
          await e.shot(page, 'phone-admin-import-preview-375');
        }
        await page.context().close();
      }
    }
    const ctx = await e.context(PHONE);
    const login = await ctx.newPage();
    await login.goto(`${e.url}/admin/login`);
    await login.getByRole('button', { name: '登入' }).waitFor();
    expect(await width(login), 'login').toBeLessThanOrEqual(375);
    await ctx.close();
  });

  it('on a phone shows cards where status and note change in place and a row is deleted; filters fold behind 篩選', async () => {
    const page = await e.signedIn('branchA', '/admin/payments', PHONE);
    await page.getByTestId('payment-cards').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(0);
    // Branch staff see their own store only: 15 of the thirty plus 早班現金.
    await expect.poll(() => page.locator('[data-testid^="payment-card-"]').count()).toBe(16);
    const card = page.getByTestId(`payment-card-${ids.cash}`);
    expect(await card.innerText()).toMatch(/02468[\s\S]*NT\$4,321[\s\S]*台北店[\s\S]*提交者 branchA/);
    for (const el of await page.locator('[data-testid^="payment-card-"]').all()) {
      const box = (await el.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    // 清除篩選 is on screen without opening anything; the other filters fold behind 篩選.
    expect(await page.getByRole('button', { name: '清除篩選' }).isVisible()).toBe(true);
    expect(await page.getByTestId('filter-status').isVisible()).toBe(false);
    await page.getByTestId('filters-toggle').click();
    await page.getByTestId('filter-status').waitFor({ state: 'visible' });
    await settle(page);
    await e.shot(page, 'payments-phone-filters-open-375');
    await page.getByTestId('filters-toggle').click();
    await page.getByTestId('filter-status').waitFor({ state: 'hidden' });

    await pick(page, card.getByTestId(`status-${ids.cash}`).locator('..'), '已入帳');
    await page.getByText('已儲存').first().waitFor();
    await expect.poll(async () => (await stored(ids.cash)).status).toBe('已入帳');
    const note = page.getByTestId(`note-${ids.cash}`);
    await note.fill('早班現金已點');
    await note.press('Enter');
    await expect.poll(async () => (await stored(ids.cash)).note).toBe('早班現金已點');
    await e.shot(page, 'payments-phone-cards-375');

    await page.getByTestId(`delete-${ids.p0}`).click();
    await page.getByRole('button', { name: '確認刪除' }).click();
    await page.getByTestId(`payment-card-${ids.p0}`).waitFor({ state: 'detached' });
    // removed for good once the 復原 notice has gone
    await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(async () => (await api('GET', `/payments/${ids.p0}`, 'admin')).message).toBe('找不到匯款記錄');
    expect(await width(page)).toBeLessThanOrEqual(375);
    await page.context().close();
  });

  it('at 1280x800 shows twenty dense rows without scrolling, each with its submitter and submission time', async () => {
    for (const user of ['admin', 'branchA']) {
      const page = await e.signedIn(user, '/admin/payments', DESK);
      await page.locator('tbody tr').first().waitFor();
      await ready(page);
      const inView = await page.locator('tbody tr').evaluateAll(
        (trs) =>
          trs.filter((tr) => {
            const r = tr.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight;
          }).length,
      );
      // What the screen shows, not the full page: the rows a person sees without scrolling.
      await page.screenshot({ path: join(SCREENSHOTS, `payments-dense-${user}-1280.png`) });
      // Branch staff have fifteen payments in the range: all of them.
      expect(inView, user).toBeGreaterThanOrEqual(user === 'admin' ? 20 : 15);
      expect(await width(page), user).toBeLessThanOrEqual(1280);
      const headers = await page.locator('thead th').allInnerTexts();
      expect(headers.join('|')).toContain('提交者');
      expect(headers.join('|')).toContain('建立時間');
      const row = page.locator('tbody tr', { has: page.getByTestId(`note-${ids.cash}`) });
      expect(await row.innerText()).toContain('branchA');
      expect(await row.innerText()).toMatch(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/);
      await page.context().close();
    }
  });

  it('searches last five, amount and note, and fills the dates from 今天, 昨天, 本週, 本月, 上月', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    const search = page.getByTestId('filter-search');
    await search.fill('0246');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('02468');
    await search.fill('4,321');
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('02468')]);
    await search.fill('早班');
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('02468')]);
    // last month, outside the default days: a search looks at every date
    await search.fill('97531');
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('97531')]);
    expect(await page.getByTestId('filter-from').inputValue()).toBe('');

    await page.getByTestId('quick-ranges').getByRole('button', { name: '上月' }).click();
    const last = quickDateRange('lastMonth');
    await expect.poll(() => page.getByTestId('filter-from').inputValue()).toBe(last.from);
    expect(await page.getByTestId('filter-to').inputValue()).toBe(last.to);
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('97531')]);
    expect(await page.getByRole('button', { name: '上月' }).getAttribute('aria-pressed')).toBe('true');
    await e.shot(page, 'payments-search-1280');

    await page.getByRole('button', { name: '清除篩選' }).click();
    await expect.poll(() => search.inputValue()).toBe('');
    for (const [label, name] of [
      ['今天', 'today'],
      ['昨天', 'yesterday'],
      ['本週', 'thisWeek'],
      ['本月', 'thisMonth'],
    ] as const) {
      await page.getByTestId('quick-ranges').getByRole('button', { name: label }).click();
      const r = quickDateRange(name);
      const dates = async () => [
        await page.getByTestId('filter-from').inputValue(),
        await page.getByTestId('filter-to').inputValue(),
      ];
      await expect.poll(dates, { message: label }).toEqual([r.from, r.to]);
    }
    await page.getByRole('button', { name: '昨天' }).click();
    const y = quickDateRange('yesterday');
    const yesterdays = (
      await api(
        'GET',
        `/payments?range=[0,999]&filter=${encodeURIComponent(JSON.stringify({ paid_at_gte: y.from, paid_at_lte: y.to }))}`,
        'admin',
      )
    ).length;
    expect(yesterdays).toBeGreaterThan(10);
    await expect
      .poll(() => page.getByTestId('count-line').textContent())
      .toMatch(new RegExp(`^顯示 ${yesterdays} 筆，共 \\d+ 筆$`));
    await page.context().close();
  });

  it('says 已儲存 after each in-place save; Enter saves a note, Escape cancels, a failure says why and puts the value back', async () => {
    const page = await e.signedIn('branchA', '/admin/payments', DESK);
    const id = ids.p2;
    await page.getByTestId(`note-${id}`).waitFor();
    await pick(page, page.getByTestId(`status-${id}`).locator('..'), '未入帳');
    const toast = page.getByText('已儲存', { exact: true });
    await toast.waitFor();
    await expect.poll(async () => (await stored(id)).status).toBe('未入帳');
    // It goes by itself (once the pointer is not resting on it), so the next save says so again.
    await page.mouse.move(640, 120);
    await toast.waitFor({ state: 'detached', timeout: 10_000 });

    const note = page.getByTestId(`note-${id}`);
    await note.fill('對過帳');
    await note.press('Enter');
    await toast.waitFor();
    await expect.poll(async () => (await stored(id)).note).toBe('對過帳');
    // The screen as it is (a screenshot takes the window's focus, which holds the notification).
    await page.screenshot({ path: join(SCREENSHOTS, 'payments-saved-1280.png') });

    await note.fill('打錯了');
    await note.press('Escape');
    expect(await note.inputValue()).toBe('對過帳');
    expect((await stored(id)).note).toBe('對過帳');

    // Someone else deletes the payment meanwhile: the save fails with the server's reason.
    const gone = ids.p4;
    await api('DELETE', `/payments/${gone}`, 'admin');
    const goneNote = page.getByTestId(`note-${gone}`);
    await goneNote.fill('來不及');
    await goneNote.press('Enter');
    await page.getByText('儲存失敗：找不到匯款記錄').waitFor();
    await expect.poll(() => goneNote.inputValue()).toBe('');
    await page.screenshot({ path: join(SCREENSHOTS, 'payments-save-failed-1280.png') });
    await page.context().close();
  });

  it('shows the select-all checkbox half-checked when some rows of the page are selected', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    await page.locator('tbody tr').first().waitFor();
    const all = page.locator('thead input[type="checkbox"]');
    const state = () =>
      all.evaluate((el: HTMLInputElement) => ({
        checked: el.checked,
        indeterminate: el.dataset.indeterminate === 'true',
      }));
    expect(await state()).toEqual({ checked: false, indeterminate: false });
    await page.locator('tbody tr').nth(0).locator('input[type="checkbox"]').check();
    await page.locator('tbody tr').nth(1).locator('input[type="checkbox"]').check();
    await expect.poll(state).toEqual({ checked: false, indeterminate: true });
    await e.shot(page, 'payments-half-checked-1280');
    await all.click();
    await expect.poll(state).toEqual({ checked: true, indeterminate: false });
    await all.click();
    await expect.poll(state).toEqual({ checked: false, indeterminate: false });
    await page.context().close();
  });

  it('says the count once: 顯示 N 筆，共 M 筆, and the pages say only where they are', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    await page.locator('tbody tr').first().waitFor();
    await page.getByTestId('filter-search').fill('早班');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    // Every payment the admin may see, from the API's own count.
    const res = await fetch(`${e.url}/api/payments?range=[0,0]`, {
      headers: { authorization: `Bearer ${e.tokens.admin}` },
    });
    const total = Number(res.headers.get('content-range')?.split('/')[1]);
    expect(total).toBeGreaterThan(25);
    await expect.poll(() => page.getByTestId('count-line').textContent()).toBe(`顯示 1 筆，共 ${total} 筆`);
    // 共 appears once on the page: in the count line.
    expect(await page.getByText(/共 \d+ 筆/).count()).toBe(1);
    await page.getByRole('button', { name: '清除篩選' }).click();
    await expect.poll(() => page.getByTestId('count-line').textContent()).toBe(`顯示 ${total} 筆，共 ${total} 筆`);
    await expect.poll(() => page.getByText(/^第 1-25 筆$/).count()).toBe(1);
    expect(await page.getByText(/共 \d+ 筆/).count()).toBe(1);
    await page.context().close();
  });

  it('answered no request with a server error', () => {
    expect(e.errors).toEqual([]);
  });
});
