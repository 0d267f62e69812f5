/**
 * Browser tests: the real server (API and built pages) on a private seeded database, driven by
 * Debian's Chromium through playwright-core. Without Chromium the tests are skipped, loudly;
 * CI installs it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEFAULT_MATCHING, taipeiDate, taipeiDayStart, type BackupSettings } from '../../core/index.js';
import { firstScreenFor } from '../../http/firstScreen.js';
import { spa } from '../../http/static.js';
import { createTestDb, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { PASSWORD, seed, type Fixture } from '../helpers/fixtures.js';
import { listenApi } from '../helpers/server.js';

const CHROMIUM = process.env.REMIT_CHROMIUM ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const SCREENSHOTS = resolve(import.meta.dirname, '..', '..', 'test-output', 'screenshots');
/** the built pages; REMIT_E2E_DIST points elsewhere (a private build while several people work) */
const DIST_ADMIN = process.env.REMIT_E2E_DIST ?? resolve(import.meta.dirname, '..', '..', 'dist', 'admin');

if (!HAS_CHROMIUM) {
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n[remit e2e] ${CHROMIUM} not found: browser tests are SKIPPED.\n  Install it with: apt-get install -y chromium   (CI does)\n${line}\n`,
  );
}

export { PASSWORD };
/** the back office's session cookie (http/session.ts) */
export const SESSION_COOKIE = 'remit_session';

/** The two widths every browser test looks at: a phone held upright, and a desk. */
export const PHONE = { width: 375, height: 812 };
export const DESK = { width: 1280, height: 900 };

/**
 * MUI's fades and slides (CSS transitions) finished: the drawer in, a dialog shown, a menu gone, so what comes
 * next sees what a person sees. Waits on the page's own transitions, not on a clock; the cap
 * only stops a transition that never ends from hanging the test.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(`Promise.race([
    Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))),
    new Promise((res) => setTimeout(res, 5000)),
  ])`);
}

/**
 * `min` minutes ago (under an hour), kept on today's Taiwan date: just after midnight the times
 * gather in the day's first minute, in the same order, so a test run at 00:20 does not put its
 * "today" entries on yesterday (a closes test did, at 00:37).
 */
export function minutesAgoToday(min: number): string {
  const now = Date.now();
  const dayStart = taipeiDayStart(taipeiDate(now))!;
  return new Date(Math.max(now - min * 60_000, dayStart + (60 - Math.min(min, 59)) * 1000)).toISOString();
}

/**
 * A screenshot to look at: the whole page, or the screen when something is open over it.
 * A full-page capture makes Chromium resize the window to 1×1 and back. At 1 px the back office is
 * a phone's: the list's rows become cards, so a dialog opened from a row (修改付款方式) went with
 * its row (caught by tracing the page in CI at load 12); the list's date fields, drawn anew, lost
 * a range typed but not applied. With a dialog, a menu, a notice or an alert open, the shot is of
 * the screen as a person sees it, and the page is left alone.
 */
export async function capture(page: Page, path: string): Promise<void> {
  await settle(page);
  // an alert on the page too: it answers what was typed, and fields a narrower layout draws anew
  // (the list's date range on a phone) would lose what was typed but not yet applied
  const open = await page
    .locator('.MuiModal-root, .MuiPopover-root, .MuiSnackbar-root, [role=dialog], [role=alert]')
    .count();
  await page.screenshot({ path, fullPage: open === 0 });
  if (open > 0) return;
  // back at its own size, and drawn again, before the test goes on
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.waitForFunction(([w, h]) => innerWidth === w && innerHeight === h, [width, height]);
  await settle(page);
}

const AXE = createRequire(import.meta.url)('axe-core') as { source: string };

/** One rule axe-core finds broken: its impact, how many elements, and up to three of them with what is wrong. */
interface AxeFinding {
  id: string;
  impact: string | null;
  count: number;
  targets: string[];
}

/**
 * Every WCAG 2.1 A and AA violation axe-core finds on the page as it stands, all impacts. After
 * the page's transitions end, unless `settled: false` (a page whose scripts are held back).
 */
export async function axeFindings(page: Page, opts: { settled?: boolean } = {}): Promise<AxeFinding[]> {
  if (opts.settled !== false) await settle(page);
  // evaluated through the DevTools protocol: the site's Content-Security-Policy refuses inline scripts
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE.source);
  return (await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            opts: unknown,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              nodes: Array<{ html: string; failureSummary: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      count: v.nodes.length,
      targets: v.nodes
        .slice(0, 3)
        .map((n) => `${n.html.slice(0, 200)}: ${(n.failureSummary ?? '').replace(/\n/g, ' ')}`),
    }));
  })) as AxeFinding[];
}

/** The critical and serious ones, a line each saying where: what every page must have none of. */
export const graveFindings = (found: AxeFinding[]): string[] =>
  found
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id} (${v.impact} ×${v.count}): ${v.targets.join(' | ')}`);

/** axe-core's critical and serious findings on the page as it stands. */
export async function seriousFindings(page: Page, opts: { settled?: boolean } = {}): Promise<string[]> {
  return graveFindings(await axeFindings(page, opts));
}

/**
 * A MUI select or menu: open it with `trigger`, pick `option`, and wait until the menu is gone.
 * While it fades out, its backdrop still covers the page and takes the next click.
 */
export async function pick(page: Page, trigger: Locator, option: string | RegExp, exact = false): Promise<void> {
  await trigger.click();
  const choice = page.getByRole('option', { name: option, exact });
  const menu = page.locator('.MuiPopover-root');
  await choice.click();
  // Once in CI (load 12) the menu was still open 20 s after the click: while the menu grows in,
  // the option can move between the press and the release, and the click then lands on the list,
  // not on an option. A person clicks the option again; so do we, twice at most, and the step
  // still fails when the menu never closes.
  for (let again = 0; again < 2; again++) {
    if (
      await menu.waitFor({ state: 'detached', timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    if (await choice.isVisible()) await choice.click();
  }
  await expect.poll(() => menu.count()).toBe(0);
}

export interface E2E extends Fixture {
  url: string;
  t: TestDb;
  browser: Browser;
  errors: unknown[];
  /** a fresh browser context (its own cookies and storage) at the given viewport */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** puts a session into a context as a sign-in would: the HttpOnly cookie with this token */
  addSession(ctx: BrowserContext, token: string): Promise<void>;
  /** the session cookie the browser holds for the site, if any */
  sessionCookie(ctx: BrowserContext): Promise<{ value: string; httpOnly: boolean; sameSite: string } | undefined>;
  /** a page signed in as a fixture user, already on `path` */
  signedIn(user: string, path?: string, viewport?: { width: number; height: number }): Promise<Page>;
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** A JSON call to the API as one of the fixture's users (Bearer), for a test's setup and checks. */
export async function callApi(e: E2E, method: string, path: string, as: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${e.url}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${e.tokens[as]}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r.status === 204 ? null : r.json();
}

/** `backups`: the server's backups folder and limits (the 備份 page); none, the page says none is set. */
export async function startE2E(
  title = '煙具專賣店 匯款回報系統',
  opts: { backups?: BackupSettings } = {},
): Promise<E2E> {
  if (!existsSync(join(DIST_ADMIN, 'admin.html')))
    throw new Error(`${DIST_ADMIN} is missing: run "npm run build" (npm test does it first)`);
  const t = await createTestDb('sqlite');
  const fixture = await seed(t.db);
  const errors: unknown[] = [];
  // /admin as `remit serve` answers it: with the user's first page of 匯款記錄 in it (http/firstScreen.ts)
  const firstScreen = firstScreenFor({ db: t.db, security: TEST_SECURITY, matching: DEFAULT_MATCHING }, title);
  const server = await listenApi({
    db: t.db,
    errors,
    backups: opts.backups,
    after: [spa({ root: DIST_ADMIN, title, firstScreen })],
  });
  const url = server.url;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--lang=zh-TW',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const e2e: E2E = {
    ...fixture,
    url,
    t,
    browser,
    errors,
    async context(viewport = DESK) {
      const ctx = await browser.newContext({
        viewport,
        locale: 'zh-TW',
        timezoneId: 'Asia/Taipei',
        acceptDownloads: true,
      });
      // Fail at the step that waits, well before the test's own time-out; as long as expect.poll
      // waits (vitest.config.ts), since a menu closing took over 8 s with the machine at load 12.
      ctx.setDefaultTimeout(20_000);
      return ctx;
    },
    async addSession(ctx, token) {
      await ctx.addCookies([{ name: SESSION_COOKIE, value: token, url, httpOnly: true, sameSite: 'Strict' }]);
    },
    async sessionCookie(ctx) {
      return (await ctx.cookies(url)).find((c) => c.name === SESSION_COOKIE);
    },
    async signedIn(user, path = '/admin', viewport) {
      const ctx = await e2e.context(viewport);
      // The session cookie, as a sign-in sets it (a later logout clears it, as in a real browser).
      await e2e.addSession(ctx, fixture.tokens[user]);
      const page = await ctx.newPage();
      await page.goto(`${url}${path}`);
      // The server may draw 匯款記錄's first page before the scripts run (http/firstScreen.ts): its
      // rows cannot be used yet and stand beside the list's for a moment. Wait, as a person does,
      // until the back office has taken over.
      await page.waitForFunction(() => !document.getElementById('first-screen'));
      return page;
    },
    async shot(page, name) {
      await capture(page, join(SCREENSHOTS, `${name}.png`));
    },
    async close() {
      await browser.close();
      await server.close();
      await t.cleanup();
    },
  };
  return e2e;
}
