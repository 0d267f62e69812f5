/**
 * The back office's first screen. The server writes the user's first page of
 * 匯款記錄 into /admin (http/firstScreen.ts): the rows show before any script has run, and the
 * list takes over with the same rows, in the same place, asking the API nothing for them. When
 * the server draws nothing ahead, the page asks for what it needs together: the stores leave
 * while `me` is still on its way, and each is asked once. (How long it takes is the bench's
 * business, scenario 12.) And it loads only the list's code: every other page, and the import
 * dialog, is its own chunk fetched when opened.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK, HAS_CHROMIUM, PHONE, seriousFindings, startE2E, type E2E } from './harness.js';

/** the server's rows, and the list's own */
const SERVER_ROW = '.first-screen-row';
const LIST_ROW = 'tbody .RaDatagrid-row, [data-testid^="payment-card-"]';

/** Where each column of a table's header starts and ends (the checkbox's cell too), in px from the left. */
async function columnEdges(page: Page, table: string): Promise<number[]> {
  return page
    .locator(`${table} thead tr > *`)
    .evaluateAll((cells) =>
      cells.flatMap((c) => [Math.round(c.getBoundingClientRect().left), Math.round(c.getBoundingClientRect().right)]),
    );
}

/** The server's columns and the list's start and end at the same places (within 2 px): nothing moves sideways at the hand-off. */
function sameColumns(server: number[], list: number[]) {
  expect(list.length, `${server} / ${list}`).toBe(server.length);
  list.forEach((x, i) =>
    expect(Math.abs(x - server[i]), `column edge ${i}: ${server} / ${list}`).toBeLessThanOrEqual(2),
  );
}

/** Holds the back office's scripts until `release`: what shows before them is the server's alone. */
async function holdScripts(ctx: BrowserContext): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await ctx.route('**/assets/*.js', async (route: Route) => {
    await held;
    await route.continue();
  });
  return release;
}

describe.skipIf(!HAS_CHROMIUM)('the first screen of /admin', () => {
  let e: E2E;

  beforeAll(async () => {
    e = await startE2E();
    const res = await fetch(`${e.url}/api/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        last_five: '24680',
        paid_at: new Date(Date.now() - 3600_000).toISOString(),
        amount: 1200,
        note: '',
        store_id: e.stores.A.id,
      }),
    });
    expect(res.ok).toBe(true);
  });
  afterAll(async () => {
    await e?.close();
  });

  for (const [size, viewport] of [
    ['375', PHONE],
    ['1280', DESK],
  ] as const) {
    // an admin (two lines of buttons on a phone) and a branch clerk (one line): the rows in the list's place for both
    for (const user of ['admin', 'branchA'])
      it(`shows the first page before any script, then the list takes over with the same rows in place, at ${size} px, for ${user}`, async () => {
        const ctx = await e.context(viewport);
        await e.addSession(ctx, e.tokens[user]);
        const release = await holdScripts(ctx);
        const page = await ctx.newPage();
        const asked: string[] = [];
        page.on('request', (r) => {
          const u = new URL(r.url());
          if (u.pathname.startsWith('/api/')) asked.push(u.pathname);
        });
        await page.goto(`${e.url}/admin`, { waitUntil: 'commit' });
        const first = page.locator(`${SERVER_ROW}:visible`).filter({ hasText: '24680' });
        await first.waitFor();
        await expect.poll(() => first.isVisible()).toBe(true);
        await expect.poll(() => first.textContent()).toContain('NT$1,200');
        await expect.poll(() => page.getByRole('heading', { name: '煙具專賣店 匯款回報系統' }).isVisible()).toBe(true);
        const shown = await page.locator(`${SERVER_ROW}:visible`).count();
        const at = await first.boundingBox();
        const headings = async (where: string) =>
          (await page.locator(`${where} th:visible`).allInnerTexts()).map((t) => t.trim()).filter(Boolean);
        const serverHeadings = await headings('#first-screen');
        const serverColumns = size === '1280' ? await columnEdges(page, '#first-screen') : [];
        await e.shot(page, `first-screen-server-${size}-${user}`);
        expect(await seriousFindings(page)).toEqual([]);

        release();
        const own = page.locator(LIST_ROW).filter({ hasText: '24680' });
        await own.waitFor();
        // the server's rows are gone in the commit that drew the list's: one row for the payment, the same count, the same place
        expect(await page.locator('#first-screen').count()).toBe(0);
        expect(await page.locator(`${SERVER_ROW}, ${LIST_ROW}`).filter({ hasText: '24680' }).count()).toBe(1);
        expect(await page.locator(LIST_ROW).count()).toBe(shown);
        const now = await own.boundingBox();
        expect(Math.abs(now!.y - at!.y)).toBeLessThanOrEqual(2);
        expect(Math.abs(now!.height - at!.height)).toBeLessThanOrEqual(2);
        // at a desk the columns keep their names (時間 and 金額 over every method, as the list says)
        if (size === '1280') {
          expect(serverHeadings).toContain('金額');
          expect(await headings('thead')).toEqual(serverHeadings);
          // and the columns where the server drew them (beside the menu the two times are written date over time)
          sameColumns(serverColumns, await columnEdges(page, '.RaDatagrid-table'));
        }
        // the list answered from what the server wrote: no call of its own for me, the stores or the rows
        expect(asked.filter((p) => ['/api/admin/me', '/api/stores', '/api/payments'].includes(p))).toEqual([]);
        await e.shot(page, `first-screen-list-${size}-${user}`);
        expect(await seriousFindings(page)).toEqual([]);

        // the list is in charge: a search filters it, and a reload opens on the search, drawn by the server
        await page.getByPlaceholder('後五碼、金額或備註').fill('99999');
        await page.getByTestId('payments-empty').waitFor();
        await page.getByPlaceholder('後五碼、金額或備註').fill('24680');
        await own.waitFor();
        await expect.poll(() => page.locator(LIST_ROW).count()).toBe(1);
        await expect
          .poll(async () => (await ctx.cookies(`${e.url}/admin`)).find((c) => c.name === 'remit_list')?.value)
          .toContain('24680');
        const releaseAgain = await holdScripts(ctx);
        const again = await ctx.newPage();
        // a reload of the list's address (its filters in the query) is drawn as well
        await again.goto(page.url(), { waitUntil: 'commit' });
        await again.locator(`${SERVER_ROW}:visible`).first().waitFor();
        expect(await again.locator(`${SERVER_ROW}:visible`).count()).toBe(1);
        releaseAgain();
        await again.locator(LIST_ROW).first().waitFor();
        expect(await again.locator('#first-screen').count()).toBe(0);
        await ctx.close();
      });

    it(`asks for the stores while me is on its way, and for each once, when the server drew nothing, at ${size} px`, async () => {
      const ctx = await e.context(viewport);
      await e.addSession(ctx, e.tokens.admin);
      // list parameters the server cannot read: it draws nothing ahead, the page asks for itself
      await ctx.addCookies([{ name: 'remit_list', value: 'x', url: `${e.url}/admin`, sameSite: 'Strict' }]);
      const page = await ctx.newPage();
      const asked: string[] = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith('/api/')) asked.push(u.pathname);
      });
      // `me` is held until the stores have been asked for
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/admin/me', async (route: Route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${e.url}/admin`);
      await expect.poll(() => asked.filter((p) => p === '/api/stores').length).toBe(1);
      expect(asked.filter((p) => p === '/api/payments')).toEqual([]); // the list needs to know who asks
      release();
      await page.locator(LIST_ROW).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(asked.filter((p) => p === '/api/admin/me').length).toBe(1);
      expect(asked.filter((p) => p === '/api/stores').length).toBe(1);
      // the list and the count line, each once
      expect(asked.filter((p) => p === '/api/payments').length).toBe(2);
      await ctx.close();
    });
  }

  /**
   * /admin opened in `ctx` with the scripts held: the server's first row and columns, then, the
   * scripts let go, the list's in the same place (within 2 px), the server's page gone.
   */
  async function takesOverInPlace(ctx: BrowserContext): Promise<Page> {
    const release = await holdScripts(ctx);
    const page = await ctx.newPage();
    await page.goto(`${e.url}/admin`, { waitUntil: 'commit' });
    const first = page.locator(`${SERVER_ROW}:visible`).first();
    await first.waitFor();
    const at = (await first.boundingBox())!;
    const server = await columnEdges(page, '#first-screen');
    release();
    await page.locator('tbody .RaDatagrid-row').first().waitFor();
    expect(await page.locator('#first-screen').count()).toBe(0);
    const now = (await page.locator('tbody .RaDatagrid-row').first().boundingBox())!;
    expect(Math.abs(now.x - at.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(now.y - at.y)).toBeLessThanOrEqual(2);
    expect(Math.abs(now.height - at.height)).toBeLessThanOrEqual(2);
    sameColumns(server, await columnEdges(page, '.RaDatagrid-table'));
    return page;
  }

  // wider, with the menu beside the list: the times on one line from 1440 px, on both sides
  for (const width of [1366, 1440, 1920]) {
    it(`draws the table's columns where the list puts them at ${width} px`, async () => {
      const ctx = await e.context({ width, height: 900 });
      await e.addSession(ctx, e.tokens.admin);
      await takesOverInPlace(ctx);
      await ctx.close();
    });
  }

  // the menu closed at a desk: the server draws the list where it will be, beside the narrow menu
  for (const width of [1280, 1920]) {
    it(`draws the table where the list puts it when the menu was closed, at ${width} px`, async () => {
      const ctx = await e.context({ width, height: 900 });
      await e.addSession(ctx, e.tokens.admin);
      const menuCookie = async () =>
        (await ctx.cookies(`${e.url}/admin`)).find((c) => c.name === 'remit_menu')?.value ?? 'open';
      const page = await ctx.newPage();
      await page.goto(`${e.url}/admin`);
      await page.locator('tbody .RaDatagrid-row').first().waitFor();
      await page.getByRole('button', { name: '關閉選單' }).click();
      await page.getByRole('button', { name: '開啟選單' }).waitFor();
      await expect.poll(menuCookie).toBe('closed');
      await page.close();

      const again = await takesOverInPlace(ctx);
      // opened again: the next first screen is beside the open menu
      await again.getByRole('button', { name: '開啟選單' }).click();
      await expect.poll(menuCookie).toBe('open');
      await ctx.close();
    });
  }

  it('fetches only the list’s code; 會員管理, 匯入 and the other pages come when opened', async () => {
    const ctx = await e.context(DESK);
    await e.addSession(ctx, e.tokens.admin);
    const page = await ctx.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/assets/') && u.pathname.endsWith('.js')) scripts.push(u.pathname);
    });
    // a page's chunk is named after the module the page's lazy import names (admin/src/*/index.ts)
    const chunk = (name: string) => scripts.filter((s) => s.startsWith(`/assets/${name}-`));
    await page.goto(`${e.url}/admin`);
    await page.locator('tbody .RaDatagrid-row').first().waitFor();
    await page.waitForLoadState('networkidle');
    for (const name of [
      'UserList',
      'StoreList',
      'AuditList',
      'Dashboard',
      'DashboardCharts',
      'ReconcilePage',
      'ImportDialog',
      'browserSpreadsheets',
    ])
      expect(chunk(name), name).toEqual([]);
    await page.getByRole('button', { name: 'Excel 匯入' }).click();
    await page.getByTestId('import-dialog').waitFor();
    expect(chunk('ImportDialog')).toHaveLength(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('import-dialog').waitFor({ state: 'detached' });
    await page.getByRole('menuitem', { name: '會員管理' }).click();
    await page.getByRole('button', { name: '新增會員' }).waitFor();
    expect(chunk('UserList')).toHaveLength(1);
    await page.getByRole('menuitem', { name: '統計儀表板' }).click();
    await page.getByTestId('dashboard').waitFor();
    expect(chunk('Dashboard')).toHaveLength(1);
    await ctx.close();
  });

  it('draws only what the session may see: a branch its own store, nobody without a session, never cached', async () => {
    const other = await fetch(`${e.url}/api/payments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        last_five: '13579',
        paid_at: new Date(Date.now() - 7200_000).toISOString(),
        amount: 800,
        note: '<b>不是標記</b>',
        store_id: e.stores.B.id,
      }),
    });
    expect(other.ok).toBe(true);
    const html = async (token?: string) => {
      const res = await fetch(`${e.url}/admin`, { headers: token ? { cookie: `remit_session=${token}` } : {} });
      return { text: await res.text(), cache: res.headers.get('cache-control') };
    };
    const admin = await html(e.tokens.admin);
    expect(admin.text).toContain('24680');
    expect(admin.text).toContain('13579');
    expect(admin.text).not.toContain('<b>不是標記</b>'); // a note is text, never markup
    expect(admin.cache).toBe('no-store');
    const branchA = await html(e.tokens.branchA);
    expect(branchA.text).toContain('24680');
    expect(branchA.text).not.toContain('13579');
    const nobody = await html();
    expect(nobody.text).not.toContain('first-screen-row');
    // a forged list cookie asking for store B is still answered within store A
    const forged = encodeURIComponent(
      JSON.stringify({
        q: {
          pagination: { page: 1, perPage: 25 },
          sort: { field: 'paid_at', order: 'DESC' },
          filter: { store_id: e.stores.B.id },
        },
        c: {},
        d: false,
        m: false,
      }),
    );
    const res = await fetch(`${e.url}/admin`, {
      headers: { cookie: `remit_session=${e.tokens.branchA}; remit_list=${forged}` },
    });
    expect(await res.text()).not.toContain('13579');
    // without view_payments: nothing drawn
    expect((await html(e.tokens.hq_manage_users)).text).not.toContain('first-screen-row');
  });
});
