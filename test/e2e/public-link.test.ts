/**
 * In a real browser: the shop opens its store's link in 分店管理 and prints the poster
 * (A4 and A5, to PDF); a customer on a 375 px phone, with no account and no token, reports a
 * transfer through the link and reads its status before and after staff mark it 已入帳; staff
 * see it as 顧客 and filter by 來源; a rotated link refuses with the sentence.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, formatTaipei, taipeiDate } from '../../core/index.js';
import {
  axeFindings,
  callApi,
  capture,
  DESK,
  HAS_CHROMIUM,
  PHONE,
  pick,
  SCREENSHOTS,
  seriousFindings,
  startE2E,
  type E2E,
} from './harness.js';

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

describe.skipIf(!HAS_CHROMIUM)(
  "a store's public link: poster, a customer's report on a phone, its status, staff's view",
  () => {
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
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        await page.evaluate(() => window.innerWidth),
      );

    it('分店管理 shows the link with its QR code, and prints the A4 and A5 posters', async () => {
      const page = await e.signedIn('admin', '/admin/stores', DESK);
      await page.getByRole('button', { name: '公開連結 台北店' }).click();
      const dialog = page.getByRole('dialog', { name: '台北店：顧客回報連結' });
      await dialog.waitFor();
      await dialog.getByTestId('store-link-qr').waitFor();
      link = await dialog.getByTestId('store-link-url').inputValue();
      expect(link).toMatch(new RegExp(`^${e.url}/r/[A-Za-z0-9_-]{22}$`));
      // the test server's address (127.0.0.1) reaches no customer's phone: said before a poster is printed
      expect(await dialog.getByTestId('store-link-local').textContent()).toBe(
        '這個連結的網址只有本機或店內網路開得到，客人用手機網路連不上。請系統管理員設定對外網址（REMIT_PUBLIC_URL）後，再分享連結或印海報。',
      );
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
        const [poster] = await Promise.all([
          page.context().waitForEvent('page'),
          dialog.getByRole('button', { name: `列印海報 ${size}` }).click(),
        ]);
        await poster.getByRole('heading', { name: '掃描回報匯款' }).waitFor();
        await poster
          .locator('img')
          .evaluate((img: HTMLImageElement) =>
            img.complete ? null : new Promise((r) => img.addEventListener('load', r)),
          );
        expect(await poster.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
        expect(await poster.getByText('台北店').count()).toBeGreaterThan(0);
        expect(await poster.locator('li').count()).toBe(3);
        const pdf = join(SHOTS, `poster-${size}.pdf`);
        await poster.pdf({ path: pdf, format: size, printBackground: true, preferCSSPageSize: true });
        expect(existsSync(pdf)).toBe(true);
        if (hasPdftoppm)
          execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf, join(SHOTS, `poster-${size}`)]);
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
      await callApi(e, 'POST', '/payments', 'admin', {
        last_five: '11111',
        paid_at: `${today}T00:01`,
        amount: 500,
        store_id: e.stores.A.id,
      });
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

    // ——— the outside review of the customer page (each of these failed before its fix) ———

    /** the store's link as it stands (the test above rotated it) */
    const currentLink = async () =>
      ((await callApi(e, 'GET', `/stores/${e.stores.A.id}/link`, 'admin')) as { url: string }).url;
    /** every browser request comes from 127.0.0.1: each test starts with that address's counts empty, as a customer arriving fresh */
    const freshCounts = () => e.t.db('public_limits').delete();
    /** axe's serious findings and a screenshot, at 375 px and at 1280 px, of the page as it stands */
    const bothWidths = async (page: Page, name: string) => {
      for (const [size, vp] of [
        ['375', PHONE],
        ['1280', DESK],
      ] as const) {
        await page.setViewportSize(vp);
        expect(await seriousFindings(page), `${name} at ${size}`).toEqual([]);
        await noSideways(page);
        // the whole page (no dialog or menu here to keep in view)
        await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`), fullPage: true });
      }
      await page.setViewportSize(PHONE);
    };
    const reportsSent = (page: Page) => {
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/public/')) posts.push(r.url());
      });
      return posts;
    };
    /** Store A's link opened on a phone with the counts fresh, its form shown; the POSTs it makes are collected. */
    const openForm = async () => {
      await freshCounts();
      const ctx = await e.context(PHONE);
      const page = await ctx.newPage();
      const posts = reportsSent(page);
      await page.goto(await currentLink());
      await page.getByRole('heading', { name: '匯款回報' }).waitFor();
      return { ctx, page, posts };
    };
    const fill = async (page: Page, v: { lastFive: string; amount: string; note?: string }) => {
      await page.getByLabel('帳號後五碼').fill(v.lastFive);
      await page.getByLabel('匯款時間').fill(`${today}T00:07`);
      await page.getByLabel('匯款金額').fill(v.amount);
      await page.getByLabel('備註').fill(v.note ?? '');
    };

    it('mistakes never use up the send limit: each is shown at once and never sent, then the right report is stored (375 px)', async () => {
      const { ctx, page, posts } = await openForm();
      // the review's steps and more: more mistakes than the 5 a minute
      const mistakes = [
        { lastFive: '1234', amount: '1200', field: '帳號後五碼', message: '帳號後五碼必須是5位數字' },
        { lastFive: '12 34', amount: '1200', field: '帳號後五碼', message: '帳號後五碼必須是5位數字' },
        { lastFive: 'abcde', amount: '1200', field: '帳號後五碼', message: '帳號後五碼必須是5位數字' },
        { lastFive: '12345', amount: '一千二', field: '匯款金額', message: '匯款金額必須是數字' },
        { lastFive: '12345', amount: '0', field: '匯款金額', message: null },
        { lastFive: '', amount: '1200', field: '帳號後五碼', message: null },
      ];
      for (const m of mistakes) {
        await fill(page, m);
        await page.getByRole('button', { name: '送出回報' }).click();
        await page.getByText('請修正標示的欄位後再送出').waitFor();
        const input = page.getByLabel(m.field);
        expect(await input.getAttribute('aria-invalid'), m.lastFive + m.amount).toBe('true');
        const error = page.locator(`#${await input.getAttribute('id')}-error`);
        expect(await error.isVisible()).toBe(true);
        if (m.message) expect(await error.textContent()).toBe(m.message);
      }
      expect(posts).toEqual([]);
      await bothWidths(page, 'public-mistake');
      await fill(page, { lastFive: '13579', amount: '1,200' });
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
      expect(posts).toHaveLength(1);
      expect(
        await e.t
          .db('payments')
          .where({ last_five: '13579', amount: 1200, source: 'customer' })
          .count({ n: '*' })
          .first(),
      ).toMatchObject({ n: 1 });
      await ctx.close();
    });

    it('after a report the address is its status page: a reload keeps it, 再回報一筆 opens the empty form again, the status address never holds the link (375 px)', async () => {
      await freshCounts();
      const url = await currentLink();
      const token = url.slice(url.lastIndexOf('/') + 1);
      const ctx = await e.context(PHONE);
      const page = await ctx.newPage();
      await page.goto(url);
      await fill(page, { lastFive: '97531', amount: '860', note: '第二筆' });
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
      const tracking = (await page.locator('.tracking').textContent())!.trim();
      expect(page.url()).toBe(`${e.url}/r/status/${tracking}`);
      await page.getByRole('button', { name: '再回報一筆' }).waitFor();
      await bothWidths(page, 'public-done');

      // a reload (or the phone reopening the tab) keeps the tracking number, and the way back to the form
      await page.reload();
      await page.getByRole('heading', { name: '匯款處理狀態' }).waitFor();
      expect((await page.locator('.tracking').textContent())!.trim()).toBe(tracking);
      expect(page.url()).not.toContain(token);
      await bothWidths(page, 'public-status-again');
      await page.getByRole('button', { name: '再回報一筆' }).click();
      await page.getByRole('heading', { name: '匯款回報' }).waitFor();
      expect(page.url()).toBe(url);
      for (const label of ['帳號後五碼', '匯款金額', '備註'])
        expect(await page.getByLabel(label).inputValue()).toBe('');
      // Back: the report's status again
      await page.goBack();
      await page.getByRole('heading', { name: '匯款處理狀態' }).waitFor();
      expect((await page.locator('.tracking').textContent())!.trim()).toBe(tracking);

      // the status address shared (a new tab, a bookmark, another phone): that report only, nothing of the link
      const other = await (await e.context(PHONE)).newPage();
      await other.goto(`${e.url}/r/status/${tracking}`);
      await other.getByRole('heading', { name: '匯款處理狀態' }).waitFor();
      expect(await other.getByRole('button', { name: '再回報一筆' }).count()).toBe(0);
      expect(await other.content()).not.toContain(token);
      await other.context().close();
      await ctx.close();
    });

    it('no answer for 15 s: the page says so, keeps what was typed; sending again shows the first tracking number at once (the same attempt\u2019s key), never a question or a second report', async () => {
      await freshCounts();
      const url = await currentLink();
      const ctx = await e.context(PHONE);
      const page = await ctx.newPage();
      await page.clock.install();
      // the first report reaches the server and is stored, but its answer is held back (a weak signal)
      let first: { route: Route; status: number; body: string } | null = null;
      let reached: () => void = () => undefined;
      const stored = new Promise<void>((r) => (reached = r));
      const keys: string[] = [];
      await page.route('**/api/public/links/*/reports', async (route) => {
        keys.push(JSON.parse(route.request().postData() ?? '{}').client_key);
        if (first) return route.continue();
        const res = await route.fetch();
        first = { route, status: res.status(), body: await res.text() };
        reached();
      });
      await page.goto(url);
      await fill(page, { lastFive: '86420', amount: '4,500', note: '訊號不好' });
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByRole('button', { name: '送出中…' }).waitFor();
      await stored;
      expect(first!.status).toBe(201);
      await page.clock.fastForward(14_000);
      expect(await page.getByRole('alert').textContent()).toBe('');
      await page.clock.fastForward(1_500);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe(
          '伺服器沒有回應，無法確定是否已送出。您填寫的資料都還在，請再按一次「送出回報」；若剛才其實已送達，會直接顯示原本的追蹤編號，不會重複記錄。',
        );
      expect(await page.getByRole('button', { name: '送出回報' }).isEnabled()).toBe(true);
      expect(await page.getByLabel('帳號後五碼').inputValue()).toBe('86420');
      expect(await page.getByLabel('匯款金額').inputValue()).toBe('4,500');
      expect(await page.getByLabel('備註').inputValue()).toBe('訊號不好');
      await bothWidths(page, 'public-timeout');

      // sent again, unchanged: the same attempt (its key), so the first report's tracking number at once, nothing stored
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
      expect(await page.getByText(/您可能已經回報過/).count()).toBe(0);
      const tracking = (await page.locator('.tracking').textContent())!.trim();
      expect(tracking).toBe(JSON.parse(first!.body).tracking);
      expect(page.url()).toBe(`${e.url}/r/status/${tracking}`);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(await e.t.db('payments').where({ last_five: '86420' }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
      await bothWidths(page, 'public-timeout-again');
      // the first answer comes at last: the page stays as it is
      await first!.route.fulfill({ status: first!.status, contentType: 'application/json', body: first!.body });
      await page.clock.fastForward(1_000);
      expect((await page.locator('.tracking').textContent())!.trim()).toBe(tracking);
      await ctx.close();
    });

    it('lost answers: a changed field is a new report with a new key; the same values sent again (typed otherwise) are the same attempt, answered with its number (375 px)', async () => {
      const { ctx, page } = await openForm();
      const keys: string[] = [];
      let drop = 2;
      await page.route('**/api/public/links/*/reports', async (route) => {
        keys.push(JSON.parse(route.request().postData() ?? '{}').client_key);
        // the first two sends reach the server and are stored; their answers are lost on the way back
        if (drop-- > 0) {
          await route.fetch();
          return route.abort('connectionreset');
        }
        return route.continue();
      });
      await fill(page, { lastFive: '75310', amount: '2,400' });
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByText('目前無法連線，請稍後再試').waitFor();
      // corrected before sending again: another report, another key
      await page.getByLabel('匯款金額').fill('2,450');
      await page.getByRole('button', { name: '送出回報' }).click();
      await expect.poll(() => keys.length).toBe(2);
      await page.getByText('目前無法連線，請稍後再試').waitFor();
      expect(keys[1]).not.toBe(keys[0]);
      // the same amount typed without the comma: the same report, so the same attempt and its number
      await page.getByLabel('匯款金額').fill('2450');
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
      expect(keys).toHaveLength(3);
      expect(keys[2]).toBe(keys[1]);
      const rows = await e.t.db('payments').where({ last_five: '75310' }).orderBy('amount').select('amount', 'uuid');
      expect(rows.map((r: { amount: number }) => Number(r.amount))).toEqual([2400, 2450]);
      expect((await page.locator('.tracking').textContent())!.trim()).toBe(rows[1].uuid);
      await ctx.close();
    });

    it('a time hours ahead or months back is asked about before anything is sent, in the staff form\u2019s sentence; keyboard only: 修改時間 and Esc go back to the time, 仍要送出 sends (375 px and 1280 px)', async () => {
      const { ctx, page, posts } = await openForm();
      /** the time field's value for an instant, in Taiwan time, as the page fills it */
      const asTyped = (ms: number) => formatTaipei(ms).replace(/\//g, '-').replace(' ', 'T');
      const question = page.getByRole('alertdialog', { name: '請確認匯款時間' });
      const focused = () =>
        page.evaluate(
          () =>
            document.activeElement?.getAttribute('role') ||
            document.activeElement?.id ||
            document.activeElement?.textContent,
        );
      await fill(page, { lastFive: '64208', amount: '1,800', note: '晚上轉的' });

      // three hours ahead (a wrong AM/PM): asked, focused, nothing sent
      const ahead = Math.floor((Date.now() + 3 * 3600_000) / 60_000) * 60_000;
      await page.getByLabel('匯款時間').fill(asTyped(ahead));
      await page.getByRole('button', { name: '送出回報' }).click();
      await question.waitFor();
      expect(await question.locator('p').textContent()).toBe(MSG.confirmPaidAtAhead(formatTaipei(ahead)));
      expect(await question.locator('p').textContent()).toMatch(
        /^匯款時間 \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} 晚於現在，確定沒有填錯嗎？$/,
      );
      expect(await focused()).toBe('alertdialog');
      expect(posts).toEqual([]);
      // its own two buttons are the way on: 送出回報 is not shown under it
      expect(await page.getByRole('button', { name: '送出回報' }).isVisible()).toBe(false);
      await bothWidths(page, 'public-time-question');
      expect((await axeFindings(page)).map((f) => f.id)).toEqual([]);
      // by keyboard: Tab to 仍要送出, Tab to 修改時間, Enter: back to the time, nothing sent
      await question.focus();
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('仍要送出');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('修改時間');
      await page.keyboard.press('Enter');
      await question.waitFor({ state: 'hidden' });
      expect(await focused()).toBe('paid_at');
      expect(posts).toEqual([]);
      expect(await page.getByRole('button', { name: '送出回報' }).isVisible()).toBe(true);

      // 100 days back: the days said; Esc goes back to the time too
      const back = Math.floor((Date.now() - 100 * 86_400_000) / 60_000) * 60_000;
      await page.getByLabel('匯款時間').fill(asTyped(back));
      await page.getByRole('button', { name: '送出回報' }).click();
      await question.waitFor();
      expect(await question.locator('p').textContent()).toBe(MSG.confirmPaidAtOld(formatTaipei(back), 100));
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'hidden' });
      expect(await focused()).toBe('paid_at');
      // asked again, then a field changed: the question no longer stands
      await page.getByRole('button', { name: '送出回報' }).click();
      await question.waitFor();
      await page.getByLabel('備註').fill('晚上轉的，三個月前');
      await question.waitFor({ state: 'hidden' });

      // over a day ahead is refused at once, as the server would, never asked about
      await page.getByLabel('匯款時間').fill(asTyped(Date.now() + 2 * 86_400_000));
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByText('匯款時間不能晚於現在超過一天，請確認日期與時間').waitFor();
      expect(await question.count()).toBe(0);
      expect(posts).toEqual([]);

      // 仍要送出 (by keyboard) sends it as typed
      await page.getByLabel('匯款時間').fill(asTyped(back));
      await page.getByRole('button', { name: '送出回報' }).click();
      await question.waitFor();
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('仍要送出');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
      expect(posts).toHaveLength(1);
      const row = await e.t.db('payments').where({ last_five: '64208' }).first();
      expect(Number(row.paid_at)).toBe(back);
      expect(row.amount).toBe(1800);

      // 再回報一筆 with the same transfer: the time is asked about, then 您可能已經回報過, each answered once
      await page.getByRole('button', { name: '再回報一筆' }).click();
      await fill(page, { lastFive: '64208', amount: '1800', note: '晚上轉的，三個月前' });
      await page.getByLabel('匯款時間').fill(asTyped(back));
      await page.getByRole('button', { name: '送出回報' }).click();
      await question.getByRole('button', { name: '仍要送出' }).click();
      await page.getByText(/^您可能已經回報過這筆匯款/).waitFor();
      expect(await question.count()).toBe(0);
      await page.getByRole('button', { name: '仍要送出' }).click();
      await page.getByRole('heading', { name: '已收到您的回報' }).waitFor();
      expect(posts).toHaveLength(3);
      expect(await e.t.db('payments').where({ last_five: '64208' }).count({ n: '*' }).first()).toMatchObject({ n: 2 });
      await ctx.close();
    });

    it('備註 longer than 1000 characters is kept whole, counted and said, never cut silently (375 px)', async () => {
      const { ctx, page, posts } = await openForm();
      const counter = page.locator('#note-count');
      expect(await counter.textContent()).toBe('0/1000 字元');
      await fill(page, { lastFive: '11223', amount: '700' });
      // pasted, as a person would
      await page.getByLabel('備註').focus();
      await page.keyboard.insertText('備'.repeat(1200));
      expect((await page.getByLabel('備註').inputValue()).length).toBe(1200);
      expect(await counter.textContent()).toBe('1200/1000 字元');
      expect(await page.locator('#note-error').textContent()).toBe('備註不能超過1000個字元');
      await page.getByRole('button', { name: '送出回報' }).click();
      await page.getByText('請修正標示的欄位後再送出').waitFor();
      expect(posts).toEqual([]);
      await bothWidths(page, 'public-note-over');
      await page.getByLabel('備註').fill('備'.repeat(1000));
      expect(await counter.textContent()).toBe('1000/1000 字元');
      expect(await page.locator('#note-error').isVisible()).toBe(false);
      await ctx.close();
    });

    it('sixty reads a minute from one address (a shop\u2019s shared Wi-Fi): the page says 使用人數過多, never that the link is invalid', async () => {
      await freshCounts();
      const url = await currentLink();
      const token = url.slice(url.lastIndexOf('/') + 1);
      // the limit's windows are clock minutes: start well inside one
      while (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 200));
      const reads = await Promise.all(
        Array.from({ length: 60 }, () => fetch(`${e.url}/api/public/links/${token}`).then((r) => r.status)),
      );
      expect(reads.every((s) => s === 200)).toBe(true);
      const ctx = await e.context(PHONE);
      const page = await ctx.newPage();
      await page.goto(url);
      await page.getByRole('heading', { name: '使用人數過多' }).waitFor();
      expect(await page.locator('p').last().textContent()).toMatch(/^使用人數過多，請於 \d+ 秒後再試$/);
      expect(await page.getByText('連結已失效').count()).toBe(0);
      await bothWidths(page, 'public-busy');
      await page.goto(`${e.url}/r/status/00000000-0000-4000-8000-000000000000`);
      await page.getByRole('heading', { name: '使用人數過多' }).waitFor();
      await ctx.close();
      await freshCounts();
      expect(e.errors).toEqual([]);
    });
  },
);
