/**
 * 銀行有款無回報 on the 對帳 page: a credit nobody reported is made a payment (建立匯款記錄), another
 * linked to the report it paid, found by hand (連結到回報). Each leaves the queue at once, its
 * count with it, and waits behind 復原 as the page's other decisions do: taken back, nothing is
 * sent; left alone, it is. At 1280 and 375 px, axe-core clean with the dialogs open. (Its own
 * fixture: the credits nobody reported would change the counts reconcile-undo asserts.)
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, DESK, HAS_CHROMIUM, PHONE, seriousFindings, settle, startE2E, type E2E } from './harness.js';

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
  '2026/11/05,14:03:00,跨行轉入,0,3300,3300,陳美玲,8220000077777',
  '2026/11/05,16:20:00,現金存款,0,2100,5400,,',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('銀行有款無回報: 建立匯款記錄 and 連結到回報, with 復原', () => {
  let e: E2E;
  let report = '';
  const queue = (page: Page) => page.getByTestId('queue-unreported');
  const badge = (page: Page) => queue(page).locator('.MuiBadge-badge').first();
  const card = (page: Page, amount: string) => queue(page).getByTestId('unreported-item').filter({ hasText: amount });
  const bankPayments = async () =>
    (await callApi(
      e,
      'GET',
      `/payments?filter=${encodeURIComponent(JSON.stringify({ source: 'bank' }))}`,
      'admin',
    )) as Array<{ amount: number; status: string; last_five: string; note: string }>;
  const statusOf = async (uuid: string) =>
    ((await callApi(e, 'GET', `/payments/${uuid}`, 'admin')) as { status: string }).status;

  beforeAll(async () => {
    e = await startE2E();
    // the report the cash deposit paid, typed in a week early: too far for the matcher to offer it
    report = (
      (await callApi(e, 'POST', '/payments', 'admin', {
        last_five: '24680',
        paid_at: '2026-10-29T16:00+08:00',
        amount: 2100,
        note: '林先生 訂金',
        store_id: e.stores.A.id,
      })) as { uuid: string }
    ).uuid;
    const up = await fetch(`${e.url}/api/reconcile/statements?filename=statement.csv&store_id=${e.stores.A.id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/octet-stream' },
      body: Buffer.from(STATEMENT, 'utf8'),
    });
    expect(up.status).toBe(201);
  });
  afterAll(async () => e?.close());

  /** the page on the statement's day as store A's staff; every decision sent is counted */
  async function open(viewport: { width: number; height: number }) {
    const page = await e.signedIn('branchA', '/admin/reconcile', viewport);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/reconcile\/(from-line|confirm)/.test(r.url()))
        sent.push(new URL(r.url()).pathname);
    });
    await page.getByTestId('reconcile-from').fill('2026-11-05');
    await page.getByTestId('reconcile-to').fill('2026-11-05');
    return { page, sent };
  }

  async function create(page: Page) {
    await card(page, 'NT$3,300').getByTestId('line-create').click();
    const dialog = page.getByTestId('create-from-line-dialog');
    await dialog.waitFor();
    await settle(page);
    return dialog;
  }

  async function link(page: Page) {
    await card(page, 'NT$2,100').getByTestId('line-link').click();
    const dialog = page.getByTestId('link-report-dialog');
    await expect.poll(() => dialog.getByTestId('link-report-option').count()).toBe(1);
    await settle(page);
    return dialog;
  }

  const notice = (page: Page) => page.locator('.MuiSnackbar-root');
  /**
   * The finger lifted: on a phone the dialog's button sits where the notice appears, and a mouse
   * left there holds the notice open (hovered), as no finger does.
   */
  const lift = (page: Page) => page.mouse.move(1, 1);

  it('at 1280 and 375 px: each decision leaves the queue at once and 復原 brings it back with nothing sent; axe clean with the dialogs open', async () => {
    for (const viewport of [DESK, PHONE]) {
      const { page, sent } = await open(viewport);
      await expect.poll(() => queue(page).getByTestId('unreported-item').count()).toBe(2);
      expect(await badge(page).textContent()).toBe('2');
      expect(await seriousFindings(page)).toEqual([]);

      const dialog = await create(page);
      // the bank shows the payer's last five: read from the line, not typed; the statement is store A's
      expect(await dialog.getByTestId('create-last-five').inputValue()).toBe('77777');
      expect(await dialog.getByTestId('create-last-five').getAttribute('readonly')).not.toBeNull();
      expect(await dialog.getByTestId('create-store').textContent()).toBe('台北店 (TPE)');
      expect(await dialog.getByTestId('create-note').inputValue()).toBe('跨行轉入 8220000077777 陳美玲');
      expect(await seriousFindings(page)).toEqual([]);
      await dialog.getByRole('button', { name: '建立匯款記錄' }).click();
      await expect.poll(() => card(page, 'NT$3,300').count(), { timeout: 4_000 }).toBe(0);
      expect(await badge(page).textContent()).toBe('1');
      await expect.poll(() => notice(page).textContent()).toContain('已建立匯款記錄 1 筆（已入帳）');
      await notice(page).getByRole('button', { name: '復原' }).click();
      await expect.poll(() => card(page, 'NT$3,300').count()).toBe(1);
      expect(await badge(page).textContent()).toBe('2');
      await notice(page).getByRole('button', { name: '復原' }).waitFor({ state: 'hidden' });

      // a cash deposit shows no account: the last five is asked for, checked as the form checks it
      await card(page, 'NT$2,100').getByTestId('line-create').click();
      const ask = page.getByTestId('create-from-line-dialog');
      await ask.getByRole('button', { name: '建立匯款記錄' }).click();
      await expect.poll(() => ask.textContent()).toContain('請輸入帳號後五碼');
      await ask.getByTestId('create-last-five').fill('123');
      await ask.getByRole('button', { name: '建立匯款記錄' }).click();
      await expect.poll(() => ask.textContent()).toContain('帳號後五碼必須是5位數字');
      await ask.getByRole('button', { name: '取消' }).click();
      await ask.waitFor({ state: 'hidden' });

      const picker = await link(page);
      expect(await picker.getByTestId('link-report-option').textContent()).toContain('林先生 訂金');
      expect(await seriousFindings(page)).toEqual([]);
      await picker.getByRole('radio').check();
      await picker.getByRole('button', { name: '連結' }).click();
      await expect.poll(() => card(page, 'NT$2,100').count(), { timeout: 4_000 }).toBe(0);
      expect(await badge(page).textContent()).toBe('1');
      await expect.poll(() => notice(page).textContent()).toContain('已連結到回報 1 筆（已入帳）');
      await notice(page).getByRole('button', { name: '復原' }).click();
      await expect.poll(() => card(page, 'NT$2,100').count()).toBe(1);
      await notice(page).getByRole('button', { name: '復原' }).waitFor({ state: 'hidden' });

      // read again from the server: both credits still there, nothing was sent
      await page.getByRole('button', { name: '重新比對' }).click();
      await expect.poll(() => page.getByLabel('比對中...').count()).toBe(0);
      expect(await queue(page).getByTestId('unreported-item').count()).toBe(2);
      expect(sent).toEqual([]);
      expect(await bankPayments()).toEqual([]);
      expect(await statusOf(report)).toBe('未確認');
      await page.context().close();
    }
  });

  it('at 375 px: left alone, the payment is made and the report linked; the credits stay gone and the queue says why it is empty', async () => {
    const { page, sent } = await open(PHONE);
    await expect.poll(() => queue(page).getByTestId('unreported-item').count()).toBe(2);
    const dialog = await create(page);
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'reconcile-create-from-line-phone');
    await dialog.getByRole('button', { name: '建立匯款記錄' }).click();
    await lift(page);
    await expect.poll(() => card(page, 'NT$3,300').count(), { timeout: 4_000 }).toBe(0);
    await expect
      .poll(async () => (await bankPayments()).map((p) => [p.amount, p.status, p.last_five]))
      .toEqual([[3300, '已入帳', '77777']]);
    await notice(page).getByRole('button', { name: '復原' }).waitFor({ state: 'hidden' });

    const picker = await link(page);
    // searching by the report's note finds it; a search that matches nothing says so
    await picker.getByTestId('link-search').fill('王');
    await expect.poll(() => picker.textContent()).toContain('找不到未確認的回報');
    await picker.getByTestId('link-search').fill('林先生');
    await expect.poll(() => picker.getByTestId('link-report-option').count()).toBe(1);
    expect(await seriousFindings(page)).toEqual([]);
    await picker.getByRole('radio').check();
    await picker.getByRole('button', { name: '連結' }).click();
    await lift(page);
    await expect.poll(() => card(page, 'NT$2,100').count(), { timeout: 4_000 }).toBe(0);
    await expect.poll(() => statusOf(report)).toBe('已入帳');
    // the browser's request events reach the test after the server may have answered
    await expect.poll(() => sent).toEqual(['/api/reconcile/from-line', '/api/reconcile/confirm']);

    await page.getByRole('button', { name: '重新比對' }).click();
    await expect.poll(() => page.getByLabel('比對中...').count()).toBe(0);
    expect(await queue(page).getByTestId('unreported-item').count()).toBe(0);
    expect(await page.getByTestId('reconcile-empty-why').textContent()).toBe(
      '這段期間的存入款項都已對帳完成，也沒有待確認的回報',
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousFindings(page)).toEqual([]);
    await page.context().close();
  });
  it("a store's accountant links a credit of headquarters' statement but makes no payment of it: the card says why, axe clean at 1280 and 375 px", async () => {
    // headquarters imports a download for every store; store A's accountant imports the same one
    const shared = [
      '存款交易明細',
      '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
      '2026/11/06,10:15:00,跨行轉入,0,4100,9500,王大明,8220000012121',
    ].join('\n');
    const upload = (token: string) =>
      fetch(`${e.url}/api/reconcile/statements?filename=shared.csv`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
        body: Buffer.from(shared, 'utf8'),
      });
    expect((await upload(e.tokens.admin)).status).toBe(201);
    const permissions = [...e.users.branchA.permissions, 'manage_payments'];
    await callApi(e, 'PUT', `/users/${e.users.branchA.id}`, 'admin', { permissions });
    expect((await upload(e.tokens.branchA)).status).toBe(201);
    for (const viewport of [DESK, PHONE]) {
      const page = await e.signedIn('branchA', '/admin/reconcile', viewport);
      await page.getByTestId('reconcile-from').fill('2026-11-06');
      await page.getByTestId('reconcile-to').fill('2026-11-06');
      const credit = card(page, 'NT$4,100');
      await credit.getByTestId('line-shared').waitFor();
      expect(await credit.getByTestId('line-shared').textContent()).toBe(
        '全部分店的對帳單：由管理全部分店的帳號建立匯款記錄',
      );
      expect(await credit.getByTestId('line-create').count()).toBe(0);
      expect(await credit.getByTestId('line-link').count()).toBe(1);
      await settle(page);
      await e.shot(page, `reconcile-shared-line-${viewport.width}`);
      expect(await seriousFindings(page)).toEqual([]);
      await page.context().close();
    }
  });
});
