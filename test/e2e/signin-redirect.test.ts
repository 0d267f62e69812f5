/**
 * In a real browser: after signing in, the redirect query may only take the user
 * to this site's own pages. Chromium resolves the value as it will navigate to it (tabs and
 * newlines dropped, `\` read as `/`), so each hostile form is opened as an attacker would send it
 * in a link, the user signs in, and the page must end on the product's own origin, having asked
 * no other host for anything. A good target (the back office's users page, the submission page)
 * is still honoured.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, PASSWORD, startE2E, type E2E } from './harness.js';

/** raw query values, as they appear in the link an attacker sends */
const HOSTILE: Record<string, string> = {
  'tab between the slashes': '%2F%09%2Fevil.example',
  'newline between the slashes': '%2F%0A%2Fevil.example',
  'carriage return and newline': '%2F%0D%0A%2Fevil.example%2Fadmin',
  'protocol-relative': '%2F%2Fevil.example',
  'protocol-relative, unencoded': '//evil.example/admin',
  backslash: '%2F%5Cevil.example',
  'backslash, unencoded': '/\\evil.example',
  'absolute https': 'https%3A%2F%2Fevil.example%2Fadmin',
  'absolute, leading tab': '%09https%3A%2F%2Fevil.example',
  'javascript:': 'javascript%3Aalert(document.domain)',
  'javascript: behind a slash': '%2F%09javascript%3Aalert(1)',
  'user info': '%2F%2F127.0.0.1%40evil.example',
  'dot segments': '%2Fadmin%2F..%2F..%2F%2Fevil.example',
};

describe.skipIf(!HAS_CHROMIUM)('the redirect after signing in stays on this site', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  /**
   * Opens the login page with `query` as the redirect, signs in, and waits for the page the
   * sign-in leads to. Records every request to another host and every dialog (a `javascript:`
   * target would open one).
   */
  async function signInWith(
    query: string,
    user = 'admin',
  ): Promise<{ page: Page; foreign: string[]; dialogs: string[]; visited: string[] }> {
    const ctx = await e.context();
    const foreign: string[] = [];
    const dialogs: string[] = [];
    const own = new URL(e.url).host;
    await ctx.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host === own) return route.continue();
      foreign.push(route.request().url());
      // stands in for the attacker's site, so a failure names where the user was taken
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>evil</h1>' });
    });
    const page = await ctx.newPage();
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(f.url());
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${e.url}/admin/login?redirect=${query}`);
    await page.getByLabel('用戶名').fill(user);
    await page.getByLabel('密碼').fill(PASSWORD);
    const left: Promise<Request> = page.waitForRequest(
      (r) => r.isNavigationRequest() && !r.url().startsWith(`${e.url}/admin/login`),
    );
    await page.getByRole('button', { name: '登入' }).click();
    await left;
    return { page, foreign, dialogs, visited };
  }

  for (const [name, query] of Object.entries(HOSTILE)) {
    it(`${name}: ${query} ends on this site's back office`, async () => {
      const { page, foreign, dialogs, visited } = await signInWith(query);
      // admin's start page (/admin leads to the payments list), or wherever else the page went
      await page.waitForURL((u) => u.origin !== e.url || u.pathname === '/admin/payments');
      expect(page.url()).toBe(`${e.url}/admin/payments`);
      await page.getByRole('heading', { name: '匯款記錄' }).or(page.getByText('匯款記錄').first()).first().waitFor();
      expect(new URL(page.url()).origin).toBe(e.url);
      expect(visited.filter((u) => !u.startsWith(`${e.url}/`))).toEqual([]);
      expect(foreign).toEqual([]);
      expect(dialogs).toEqual([]);
      await page.context().close();
    });
  }

  it('a target on this site is honoured: the back office users page, with its hash', async () => {
    // The back office routes by path (spec section 4), so its start page then shows the payments
    // list; what matters here is that the sign-in went where the link said.
    const { page, foreign, visited } = await signInWith(encodeURIComponent('/admin#/users'));
    await page.waitForURL(`${e.url}/admin/payments`);
    expect(visited).toContain(`${e.url}/admin#/users`);
    await page.context().close();

    const users = await signInWith(encodeURIComponent('/admin/users?from=mail'));
    await users.page.waitForURL(`${e.url}/admin/users?from=mail`);
    await users.page.getByTestId('user-row-admin').waitFor();
    expect([...foreign, ...users.foreign]).toEqual([]);
    await users.page.context().close();
  });

  it('the submission page sends a branch user to sign in and back to the form, never elsewhere', async () => {
    const ctx = await e.context();
    const page = await ctx.newPage();
    await page.goto(`${e.url}/?store=qr`);
    await page.waitForURL(`${e.url}/admin/login?redirect=${encodeURIComponent('/?store=qr')}`);
    await page.getByLabel('用戶名').fill('branchA');
    await page.getByLabel('密碼').fill(PASSWORD);
    await page.getByRole('button', { name: '登入' }).click();
    await page.waitForURL(`${e.url}/?store=qr`);
    await page.locator('#last_five').waitFor();
    await ctx.close();

    // The same hostile link, used on a branch user: the submission page's login lands on this site too.
    const { page: p2, foreign } = await signInWith('%2F%09%2Fevil.example', 'branchA');
    await p2.waitForURL((u) => u.origin === e.url && !u.pathname.startsWith('/admin/login'));
    expect(foreign).toEqual([]);
    await p2.context().close();
  });
});
