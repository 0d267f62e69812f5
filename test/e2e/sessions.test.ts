/**
 * In Chromium at 375 and 1280 px: the session is an HttpOnly cookie that
 * no page script can read; signing in through the form, the submission form, the payments list,
 * signing out (the server revokes the session), and the way back after signing in all work with
 * it. A page on another site forging a form and a fetch to the API changes nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK, HAS_CHROMIUM, PASSWORD, SESSION_COOKIE, settle, startE2E, type E2E } from './harness.js';

const WIDTHS = [{ width: 375, height: 800 }, DESK];

describe.skipIf(!HAS_CHROMIUM)('cookie sessions in the browser', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  const yesterday = new Date(Date.now() - 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10);

  /** Nothing a script on the page can read holds the session. */
  async function expectNoTokenInReach(page: Page) {
    const reachable = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }),
    );
    expect(reachable).not.toContain('eyJ');
    expect(reachable).not.toContain(SESSION_COOKIE);
  }

  for (const viewport of WIDTHS) {
    it(`at ${viewport.width} px: sign in, back where they were, the form, the list, sign out on the server`, async () => {
      const ctx = await e.context(viewport);
      const page = await ctx.newPage();
      // a page that needs a session: to the login page, with the way back
      await page.goto(`${e.url}/admin/payments?from=menu`);
      await page.waitForURL(`${e.url}/admin/login?redirect=${encodeURIComponent('/admin/payments?from=menu')}`);
      await page.getByLabel('用戶名').fill('branchA');
      await page.getByLabel('密碼').fill(PASSWORD);
      await e.shot(page, `session-signin-${viewport.width}`);
      await page.getByRole('button', { name: '登入' }).click();
      await page.waitForURL(`${e.url}/admin/payments?from=menu`);
      await page.getByTestId('count-line').waitFor();

      const cookie = await e.sessionCookie(ctx);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Strict');
      await expectNoTokenInReach(page);

      // the submission form shares the session
      await page.goto(`${e.url}/`);
      await page.getByTestId('locked-store').waitFor();
      expect(await page.getByTestId('username').textContent()).toBe('branchA');
      const lastFive = viewport.width === 375 ? '37537' : '12801';
      await page.locator('#last_five').fill(lastFive);
      await page.locator('#paid_at').fill(`${yesterday}T10:20`);
      await page.locator('#amount').fill('4321');
      await page.getByRole('button', { name: '提交匯款資訊' }).click();
      await page.getByTestId('banner-success').waitFor();
      await expectNoTokenInReach(page);

      // the list shows it
      await page.goto(`${e.url}/admin/payments`);
      await page.getByText(lastFive).first().waitFor();

      // 登出 from the back office's menu (on a phone, inside the menu)
      if (viewport.width < 600) {
        await page
          .getByRole('button', { name: /開啟選單|關閉選單|選單/ })
          .first()
          .click();
        await page.getByTestId('mobile-menu-extras').getByText('登出').click();
      } else {
        await page.getByRole('button', { name: '登出' }).click();
      }
      await page.waitForURL(/\/admin\/login$/);
      await page.getByRole('button', { name: '登入' }).waitFor();
      await e.shot(page, `session-signout-${viewport.width}`);
      expect(await e.sessionCookie(ctx)).toBeUndefined();
      // revoked on the server: the session's token no longer opens anything
      for (const path of ['/api/admin/me', '/api/payments']) {
        expect(
          (await fetch(`${e.url}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${cookie!.value}` } })).status,
        ).toBe(401);
        expect((await fetch(`${e.url}${path}`, { headers: { authorization: `Bearer ${cookie!.value}` } })).status).toBe(
          401,
        );
      }
      // and the pages send the user to sign in again
      await page.goto(`${e.url}/`);
      await page.waitForURL(`${e.url}/admin/login?redirect=${encodeURIComponent('/')}`);
      await ctx.close();
    });
  }

  it('the submission page signs out on the server too', async () => {
    const page = await e.signedIn('branchA', '/', WIDTHS[0]);
    await page.getByTestId('locked-store').waitFor();
    const token = (await e.sessionCookie(page.context()))!.value;
    await page.getByRole('button', { name: '登出' }).click();
    await page.waitForURL(/\/admin\/login$/);
    expect((await fetch(`${e.url}/api/admin/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await page.context().close();
  });

  it('a page on another site forging a form and a fetch to the API changes nothing, and the session stays', async () => {
    const page = await e.signedIn('admin', '/admin/payments', WIDTHS[1]);
    await page.getByTestId('count-line').waitFor();
    const before = Number(((await e.t.db('payments').count({ n: '*' }).first()) as any).n);
    const target = new URL(e.url);
    // another site: localhost is not 127.0.0.1 to the browser
    const body = JSON.stringify({
      last_five: '66666',
      paid_at: `${yesterday}T09:00`,
      amount: 999,
      note: 'forged',
      store_id: e.stores.A.id,
    });
    const evilPage = `<!doctype html><meta charset="utf-8"><title>evil</title>
      <form id="f" method="POST" action="${e.url}/api/admin/logout"></form>
      <script>
        fetch(${JSON.stringify(`${e.url}/api/payments`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(body)} })
          .catch(() => undefined)
          .finally(() => document.getElementById('f').submit());
      </script>`;
    const evil: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(evilPage);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
    try {
      const attacked = await page.context().newPage();
      const seen: Array<{ path: string; status: number; cookie: boolean }> = [];
      attacked.on('response', async (r) => {
        const u = new URL(r.url());
        if (u.host !== target.host) return;
        const headers = await r.request().allHeaders();
        seen.push({ path: u.pathname, status: r.status(), cookie: (headers.cookie ?? '').includes(SESSION_COOKIE) });
      });
      await attacked.goto(evilUrl);
      // the forged form lands on the API's answer: refused as coming from another site
      await attacked.waitForURL(`${e.url}/api/admin/logout`);
      expect(await attacked.locator('body').innerText()).toContain('這個要求來自其他網站，已拒絕');
      await expect.poll(() => seen.map((s) => s.path).sort()).toEqual(['/api/admin/logout', '/api/payments']);
      for (const s of seen) {
        expect(s.status, s.path).toBe(403);
        // SameSite=Strict: the browser did not even send the session
        expect(s.cookie, s.path).toBe(false);
      }
      await attacked.close();
    } finally {
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
    expect(Number(((await e.t.db('payments').count({ n: '*' }).first()) as any).n)).toBe(before);
    // still signed in
    await page.reload();
    await page.getByTestId('count-line').waitFor();
    await settle(page);
    expect(new URL(page.url()).pathname).toBe('/admin/payments');
    await page.context().close();
  });

  it('answered no request with a server error', () => {
    expect(e.errors).toEqual([]);
  });
});
