/**
 * Scenario 12 of `npm run bench`: how long a signed-in person waits for 匯款記錄.
 * Chromium opens /admin (which lands on the list) and the time runs from the navigation's start
 * (the page's time origin) to the moment the first payment (a table row on a desk, a card on a
 * phone) is on screen, at 1280 and 375 px, with an empty cache (a new browser context each time)
 * and a warm one (the same context again: the hashed bundles come from the cache). On screen: the
 * first animation frame after the row entered the page (the frame that paints it; a long task in
 * between delays it). The server writes the first page into /admin (http/firstScreen.ts), so the
 * first row is the server's; the list's own rows replace it when react-admin has drawn them, and
 * that moment (the list in charge: filters, menus and buttons work) is reported beside it.
 *
 * The floor is the same page with every /api call answered from memory (Playwright's page.route
 * fulfilling the answers recorded from the real server), so what remains is the bundle, React and
 * react-admin: the gap above it is the page waiting for its calls. Goal ≤ 600 ms.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { migrateLatest, openDatabase } from '../core/index.js';
import { seedDatabase } from './data.js';
import type { BenchKit } from './streaming.js';

const CHROMIUM = process.env.REMIT_CHROMIUM ?? '/usr/bin/chromium';
const SESSION_COOKIE = 'remit_session';
const APP_ROW = 'tbody .RaDatagrid-row, [data-testid^="payment-card-"]';
const FIRST_ROW = `.first-screen-row, ${APP_ROW}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * Notes, in performance.now() time, the frame that paints the first row (the server's or the
 * list's), and when the list's own rows are in (runs before any script of the site).
 */
const WATCH_FIRST_ROW = `(() => {
  const look = () => {
    if (window.__firstSeen === undefined && document.querySelector(${JSON.stringify(FIRST_ROW)})) {
      window.__firstSeen = performance.now();
      requestAnimationFrame(() => { window.__firstRow = performance.now(); });
    }
    if (window.__appRow === undefined && document.querySelector(${JSON.stringify(APP_ROW)})) window.__appRow = performance.now();
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
})();`;

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export async function benchFirstRow(kit: BenchKit): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`  12. skipped: ${CHROMIUM} not found (apt-get install -y chromium)\n`);
    return;
  }
  const db = join(kit.work, 'first-row.sqlite');
  const k = openDatabase({ client: 'sqlite', filename: db });
  await migrateLatest(k);
  await seedDatabase(k, kit.quick ? 2_000 : 20_000, 12);
  await k.destroy();
  const server = await kit.serve({}, ['--db', db]);
  // the list opens on the last three days: a screenful of them, as a shop has
  const stores = (await (
    await fetch(`${server.url}/api/stores`, { headers: { authorization: `Bearer ${server.token}` } })
  ).json()) as Array<{ id: number }>;
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${server.url}/api/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        last_five: String(10000 + i * 37).slice(-5),
        paid_at: new Date(Date.now() - (i + 1) * 2400_000).toISOString(),
        amount: 300 + i * 15,
        note: i % 4 ? '' : '轉帳',
        store_id: stores[i % stores.length].id,
      }),
    });
    if (!res.ok) throw new Error(`POST /payments ${res.status}`);
  }
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--lang=zh-TW',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const runs = kit.quick ? 2 : 7;
  try {
    const recorded = new Map<string, Recorded>();
    const context = async (width: number): Promise<BrowserContext> => {
      const ctx = await browser.newContext({
        viewport: { width, height: width < 600 ? 812 : 900 },
        locale: 'zh-TW',
        timezoneId: 'Asia/Taipei',
      });
      await ctx.addCookies([
        { name: SESSION_COOKIE, value: server.token, url: server.url, httpOnly: true, sameSite: 'Strict' },
      ]);
      await ctx.addInitScript(WATCH_FIRST_ROW);
      return ctx;
    };
    /** One navigation to /admin: milliseconds from its start to the first row on screen and to the list's own rows, and the /api calls it made. */
    const open = async (page: Page): Promise<{ ms: number; app: number; calls: string[] }> => {
      const calls: string[] = [];
      const onRequest = (r: { url(): string }) =>
        r.url().includes('/api/') && calls.push(r.url().slice(server.url.length));
      page.on('request', onRequest);
      await page.goto(`${server.url}/admin`);
      // a function, not a string: the site's Content-Security-Policy refuses eval
      await page.waitForFunction(
        () => {
          const w = globalThis as { __firstRow?: number; __appRow?: number };
          return w.__firstRow !== undefined && w.__appRow !== undefined;
        },
        undefined,
        { timeout: 30_000 },
      );
      const [ms, app] = (await page.evaluate('[window.__firstRow, window.__appRow]')) as [number, number];
      page.off('request', onRequest);
      return { ms, app, calls };
    };
    /**
     * Answers every /api call from what the real server answered, inside the page: `fetch` is
     * replaced before the site's scripts run, so an answer costs no network and no round trip
     * through Playwright (routing each call through page.route cost more than the server took).
     */
    const fromMemory = async (ctx: BrowserContext) => {
      const answers = Object.fromEntries(
        [...recorded].map(([k, r]) => [
          k.replace(server.url, ''),
          {
            status: r.status,
            type: r.headers['content-type'] ?? 'application/json',
            range: r.headers['content-range'] ?? null,
            body: r.body.toString('utf8'),
          },
        ]),
      );
      await ctx.addInitScript(`(() => {
        const answers = ${JSON.stringify(answers)};
        const real = window.fetch.bind(window);
        window.fetch = (input, init) => {
          const req = new Request(input, init);
          const url = new URL(req.url);
          const hit = answers[req.method + ' ' + url.pathname + url.search];
          if (!hit) return real(input, init);
          const headers = { 'content-type': hit.type };
          if (hit.range) headers['content-range'] = hit.range;
          return Promise.resolve(new Response(hit.body, { status: hit.status, headers }));
        };
      })();`);
    };
    const measure = async (
      width: number,
      cache: 'cold' | 'warm',
      floor: boolean,
    ): Promise<{ first: number[]; app: number[] }> => {
      const times: number[] = [];
      const apps: number[] = [];
      for (let i = 0; i < runs + 1; i++) {
        // cold: a new context each time (empty HTTP cache); warm: one context, a first visit fills its cache
        const ctx = await context(width);
        if (floor) await fromMemory(ctx);
        const page = await ctx.newPage();
        if (cache === 'warm') await open(page);
        const { ms, app } = await open(page);
        if (i > 0) {
          // the first is a warm-up (the server's and the browser's)
          times.push(ms);
          apps.push(app);
        }
        await ctx.close();
      }
      return { first: times, app: apps };
    };

    // record the calls a visit makes, and what the server answers, for the floor
    {
      const ctx = await context(1280);
      const page = await ctx.newPage();
      page.on('response', async (res) => {
        if (!res.url().includes('/api/')) return;
        const headers = await res.allHeaders();
        recorded.set(res.request().method() + ' ' + res.url(), {
          status: res.status(),
          headers,
          body: await res.body().catch(() => Buffer.alloc(0)),
        });
      });
      const { calls } = await open(page);
      await page.waitForLoadState('networkidle');
      process.stderr.write(`  12. /api calls on the way to the first row: ${calls.join(', ')}\n`);
      await ctx.close();
      // a phone's visit may ask differently (cards): record it too
      const phone = await context(375);
      const p2 = await phone.newPage();
      p2.on('response', async (res) => {
        if (!res.url().includes('/api/') || recorded.has(res.request().method() + ' ' + res.url())) return;
        recorded.set(res.request().method() + ' ' + res.url(), {
          status: res.status(),
          headers: await res.allHeaders(),
          body: await res.body().catch(() => Buffer.alloc(0)),
        });
      });
      await open(p2);
      await p2.waitForLoadState('networkidle');
      await phone.close();
    }

    for (const width of [1280, 375]) {
      for (const cache of ['cold', 'warm'] as const) {
        const ours = await measure(width, cache, false);
        const floors = await measure(width, cache, true);
        const real = median(ours.first);
        const floor = median(floors.first);
        const app = median(ours.app);
        kit.record(
          {
            scenario: `12. /admin to the first payment at ${width} px, ${cache === 'cold' ? 'empty cache' : 'cached'} (Chromium)`,
            measured: `${real.toFixed(0)} ms (the list in charge at ${app.toFixed(0)} ms)`,
            floor: `${floor.toFixed(0)} ms (/api from memory)`,
            ratio: real / floor,
            goal: '≤ 600 ms',
            met: kit.quick ? null : real <= 600,
          },
          { width, cache, runs, real, floor, app, appFloor: median(floors.app), loadavg: loadavg()[0] },
        );
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
