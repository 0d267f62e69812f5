/**
 * The submission page `/` and the session rules, in a real browser: redirects to login and
 * back, the branch lock, the banners of spec section 8, the form reset, 提交中..., 375 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { HAS_CHROMIUM, PASSWORD, seriousFindings, startE2E, type E2E } from './harness.js';

// Yesterday: a time later today may still lie ahead of the clock, which the form rightly questions.
const today = taipeiDate(Date.now() - 86_400_000);

describe.skipIf(!HAS_CHROMIUM)('submission page and session', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  const count = async () => Number(((await e.t.db('payments').count({ n: '*' }).first()) as any).n);

  async function fill(page: Page, v: { last_five?: string; paid_at?: string; amount?: string; note?: string }) {
    if (v.last_five !== undefined) await page.locator('#last_five').fill(v.last_five);
    if (v.paid_at !== undefined) await page.locator('#paid_at').fill(v.paid_at);
    if (v.amount !== undefined) await page.locator('#amount').fill(v.amount);
    if (v.note !== undefined) await page.locator('#note').fill(v.note);
  }

  it('sends / and /admin to the login with the full target path, and back after signing in', async () => {
    const ctx = await e.context();
    const page = await ctx.newPage();
    await page.goto(`${e.url}/?from=qr`);
    await page.waitForURL(`${e.url}/admin/login?redirect=${encodeURIComponent('/?from=qr')}`);
    await e.shot(page, 'login');
    await page.getByRole('button', { name: '登入' }).click();
    expect(await page.getByText('請輸入用戶名').count()).toBe(1);
    await page.getByLabel('用戶名').fill('branchA');
    await page.getByLabel('密碼').fill('wrong-password');
    await page.getByRole('button', { name: '登入' }).click();
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').textContent()).toBe('用戶名或密碼錯誤');
    await page.getByLabel('密碼').fill(PASSWORD);
    await page.getByRole('button', { name: '登入' }).click();
    await page.waitForURL(`${e.url}/?from=qr`);
    await ctx.close();

    const admin = await (await e.context()).newPage();
    await admin.goto(`${e.url}/admin/users`);
    await admin.waitForURL(`${e.url}/admin/login?redirect=${encodeURIComponent('/admin/users')}`);
    await admin.getByLabel('用戶名').fill('admin');
    await admin.getByLabel('密碼').fill(PASSWORD);
    await admin.getByRole('button', { name: '登入' }).click();
    await admin.waitForURL(`${e.url}/admin/users`);
    await admin.context().close();

    // A redirect to the login route itself, or to another site, ends at /admin.
    for (const target of ['/admin/login', '//evil.example/x']) {
      const p = await (await e.context()).newPage();
      await p.goto(`${e.url}/admin/login?redirect=${encodeURIComponent(target)}`);
      await p.getByLabel('用戶名').fill('admin');
      await p.getByLabel('密碼').fill(PASSWORD);
      await p.getByRole('button', { name: '登入' }).click();
      await p.waitForURL(`${e.url}/admin/payments`);
      await p.context().close();
    }
  });

  it('a branch user submits for their locked store, sees the tracking number, and the form resets', async () => {
    const page = await e.signedIn('branchA', '/');
    await page.getByTestId('locked-store').waitFor();
    expect(await page.getByTestId('locked-store').textContent()).toBe('台北店 (TPE)已鎖定');
    expect(await page.getByText('您是分店員工，只能提交本分店的匯款資料').count()).toBe(1);
    expect(await page.getByTestId('username').textContent()).toBe('branchA');
    const before = await count();
    await fill(page, { last_five: '01234', paid_at: `${today}T09:15`, amount: '1500', note: '早班' });
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    await page.getByTestId('banner-success').waitFor();
    const text = await page.getByTestId('banner-success').textContent();
    const uuid = /^匯款資訊已成功提交！追蹤編號：([0-9a-f-]{36})$/.exec(text ?? '')?.[1];
    expect(uuid).toBeDefined();
    const row = await e.t.db('payments').where({ uuid }).first();
    expect(row).toMatchObject({ last_five: '01234', note: '早班', store_id: e.stores.A.id });
    expect(new Date(Number(row.paid_at)).toISOString()).toBe(`${today}T01:15:00.000Z`);
    expect(await count()).toBe(before + 1);
    // reset: last five, amount and note empty, the time back to the clock, the store still locked
    expect(await page.locator('#last_five').inputValue()).toBe('');
    await page.getByText('自動填入現在時間，可以修改').waitFor();
    expect(await page.locator('#amount').inputValue()).toBe('');
    expect(await page.locator('#note').inputValue()).toBe('');
    expect(await page.getByTestId('locked-store').textContent()).toContain('台北店 (TPE)');
    await e.shot(page, 'submit-success');
    await page.context().close();
  });

  it('shows field errors before sending, and the server error banners of spec section 8', async () => {
    const page = await e.signedIn('hq_none', '/');
    await page.locator('#store_id').waitFor();
    const before = await count();
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    // the payment form's own messages (現金支出 below it has a form of its own); the time is the clock's
    const form = page.getByTestId('payment-form');
    for (const m of ['請輸入帳號後五碼', '請輸入匯款金額', '請選擇分店'])
      expect(await form.getByText(m).count(), m).toBe(1);
    await fill(page, { last_five: '123', paid_at: `${today}T10:00`, amount: '1.5' });
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    expect(await page.getByText('帳號後五碼必須是5位數字').count()).toBe(1);
    expect(await page.getByText('匯款金額必須是整數（新台幣元）').count()).toBe(1);
    expect(await count()).toBe(before);

    // A store outside the user's scope is not offered; the server still refuses
    // it (test/http/authz-matrix.test.ts).
    expect(await page.locator('#store_id option').allInnerTexts()).toEqual([
      '選擇分店',
      '台北店 (TPE)',
      '台中店 (TXG)',
    ]);

    await e.shot(page, 'submit-error');
    await page.context().close();

    // A store deleted after the page loaded: 驗證錯誤：{messages}.
    const created = await fetch(`${e.url}/api/stores`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${e.tokens.admin}` },
      body: JSON.stringify({ name: '快閃店', code: 'POP' }),
    }).then((r) => r.json());
    const admin = await e.signedIn('admin', '/');
    await admin.locator('#store_id').waitFor();
    await fill(admin, { last_five: '54321', paid_at: `${today}T10:00`, amount: '800' });
    await admin.locator('#store_id').selectOption({ label: '快閃店 (POP)' });
    await fetch(`${e.url}/api/stores/${created.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${e.tokens.admin}` },
    });
    await admin.getByRole('button', { name: '提交匯款資訊' }).click();
    await admin.getByTestId('banner-error').waitFor();
    expect(await admin.getByTestId('banner-error').textContent()).toBe('驗證錯誤：找不到分店');
    expect(await count()).toBe(before);
    await admin.context().close();
  });

  it('shows 提交中... while sending and ignores a second submit', async () => {
    const page = await e.signedIn('branchA', '/');
    await page.getByTestId('locked-store').waitFor();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/payments', async (route) => {
      await gate;
      await route.continue();
    });
    const before = await count();
    await fill(page, { last_five: '77777', paid_at: `${today}T11:00`, amount: '700' });
    await page.getByRole('button', { name: '提交匯款資訊' }).click();
    const busy = page.getByRole('button', { name: '提交中...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await page.getByTestId('payment-form').evaluate((f: HTMLFormElement) => f.requestSubmit());
    release();
    await page.getByTestId('banner-success').waitFor();
    expect(await count()).toBe(before + 1);
    await page.context().close();
  });

  it('works at 375 px wide without loading react-admin, and logs out', async () => {
    const ctx = await e.context({ width: 375, height: 800 });
    const signIn = await fetch(`${e.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'branchA', password: PASSWORD }),
    });
    const token = (await signIn.json()).token as string;
    await e.addSession(ctx, token);
    const page = await ctx.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto(`${e.url}/`);
    await page.getByTestId('locked-store').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(
      scripts.some((s) => /admin-|parse-/.test(s)),
      scripts.join(', '),
    ).toBe(false);
    expect(await page.getByRole('button', { name: '登出' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: '後台管理' }).isVisible()).toBe(true);
    await e.shot(page, 'submit-375');
    await page.getByRole('button', { name: '登出' }).click();
    await page.waitForURL(/\/admin\/login$/);
    // signed out on the server: the cookie is gone and its session refused everywhere
    expect(await e.sessionCookie(ctx)).toBeUndefined();
    expect((await fetch(`${e.url}/api/admin/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await ctx.close();
  });

  it('at 375 px what follows a tap on 提交匯款資訊 is on the screen and focused: the first field in error, the question, the result', async () => {
    const page = await e.signedIn('branchA', '/', { width: 375, height: 640 });
    await page.getByTestId('locked-store').waitFor();
    const submit = page.getByRole('button', { name: '提交匯款資訊' });
    const onScreen = async (testId: string) => {
      const box = (await page.getByTestId(testId).boundingBox())!;
      return box.y >= 0 && box.y + Math.min(box.height, 80) <= 640;
    };
    const focusedTestId = () =>
      page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id);
    // nothing typed: the first field in error is focused and marked, its message linked
    await submit.click();
    await page.locator('#last_five[aria-invalid="true"]').waitFor();
    await expect.poll(focusedTestId).toBe('last_five');
    expect(await page.locator('#last_five').getAttribute('aria-describedby')).toBe('last_five-error');
    expect(await page.locator('#last_five-error').textContent()).toBe('請輸入帳號後五碼');
    // a time three days ahead: refused here with the server's sentence, not asked about
    const ahead = taipeiDate(Date.now() + 3 * 86_400_000);
    await fill(page, { last_five: '１２３４５', paid_at: `${ahead}T10:00`, amount: '2468', note: '375' });
    await submit.click();
    await page.locator('#paid_at[aria-invalid="true"]').waitFor();
    expect(await page.locator('#paid_at-error').textContent()).toBe('匯款時間不能晚於現在超過一天，請確認日期與時間');
    expect(await page.getByTestId('doubt-time').count()).toBe(0);
    await expect.poll(focusedTestId).toBe('paid_at');
    // sent (full-width digits as typed on a phone): the result is on the screen, focused
    await fill(page, { paid_at: `${today}T08:30` });
    await submit.click();
    await page.getByTestId('banner-success').waitFor();
    // focus moves once the message has been scrolled to (one effect): wait for it, then look
    await expect.poll(focusedTestId).toBe('banner-success');
    expect(await onScreen('banner-success')).toBe(true);
    const uuid = /追蹤編號：([0-9a-f-]{36})/.exec((await page.getByTestId('banner-success').textContent()) ?? '')![1];
    expect((await e.t.db('payments').where({ uuid }).first()).last_five).toBe('12345');
    // the same again: the question about a possible duplicate is on the screen, focused
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await fill(page, { last_five: '12345', paid_at: `${today}T08:30`, amount: '2468', note: '375' });
    await submit.click();
    await page.getByTestId('doubt-duplicate').waitFor();
    await expect.poll(focusedTestId).toBe('doubt-duplicate');
    expect(await onScreen('doubt-duplicate')).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'submit-duplicate-375');
    // the bar's buttons are a finger's size, and the name under the pointer stays readable
    for (const b of await page.locator('header.bar .btn').all())
      expect((await b.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    await page.locator('header.bar .user').hover();
    expect(await seriousFindings(page)).toEqual([]);
    await page.context().close();
  });

  it('a 401 in the back office ends the session; a 403 does not', async () => {
    const page = await e.signedIn('hq_view_payments', '/admin/payments');
    await page.getByTestId('count-line').waitFor();
    // 403: the users list is not this user's; they stay signed in.
    await page.goto(`${e.url}/admin/users`, { waitUntil: 'networkidle' });
    expect(new URL(page.url()).pathname).not.toBe('/admin/login');
    expect(await e.sessionCookie(page.context())).toBeTruthy();
    // 401: the token is revoked (deactivation); the next call leads to the login page.
    await e.t.db('users').where({ id: e.users.hq_view_payments.id }).update({ token_version: 99 });
    await page.goto(`${e.url}/admin/payments`);
    await page.waitForURL(/\/admin\/login\?redirect=/);
    // the sign-in form, as a person sees it (the login page may still settle its address first)
    await page.getByRole('button', { name: '登入' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.context().close();
  });

  it('answered no request with a server error', () => {
    expect(e.errors).toEqual([]);
  });
});
