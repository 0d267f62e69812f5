import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('browser smoke', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  it('redirects to login without a token, and back after signing in', async () => {
    const ctx = await e.context();
    const page = await ctx.newPage();
    await page.goto(`${e.url}/`);
    await page.waitForURL(/\/admin\/login\?redirect=%2F$/);
    await e.shot(page, 'login');
    await page.getByLabel('用戶名').fill('branchA');
    await page.getByLabel('密碼').fill('secret123');
    await page.getByRole('button', { name: '登入' }).click();
    await page.waitForURL(`${e.url}/`);
    await expect(page.getByRole('button', { name: '提交匯款資訊' })).toBeDefined();
    await page.getByText('已鎖定').waitFor();
    await e.shot(page, 'submit-branch');
    await ctx.close();
  });
});
