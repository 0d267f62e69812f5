/**
 * The 對帳 page's decisions as an accountant makes them, a month at a time: a decision leaves its
 * queue at once and the queue's count drops with it, though matching the month again takes the
 * server seconds; every decision waits behind 復原, so a wrong click (確認入帳 for a whole
 * queue, 標記為未入帳 on the wrong report) is taken back with one tap and nothing is sent. At
 * 1280 and 375 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, DESK, HAS_CHROMIUM, PHONE, type E2E, startE2E } from './harness.js';

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
  '2026/11/05,14:03:00,跨行轉入,0,1500,11500,王小明,8220000012345',
  '2026/11/05,16:20:00,跨行轉入,0,2600,14100,,8220000054321',
  '2026/11/06,09:05:00,ATM轉入,0,800,14900,,*******11171',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('對帳 decisions: at once, with 復原', () => {
  let e: E2E;
  const uuids: Record<string, string> = {};
  const status = async (name: string) =>
    ((await callApi(e, 'GET', `/payments/${uuids[name]}`, 'admin')) as { status: string }).status;
  const queue = (page: Page, name: string) => page.getByTestId(`queue-${name}`);
  const badge = (page: Page, name: string) => queue(page, name).locator('.MuiBadge-badge').first();

  beforeAll(async () => {
    e = await startE2E();
    const report = async (name: string, last_five: string, at: string, amount: number) => {
      uuids[name] = (
        (await callApi(e, 'POST', '/payments', 'admin', {
          last_five,
          paid_at: `2026-11-${at}+08:00`,
          amount,
          note: '',
          store_id: e.stores.A.id,
        })) as { uuid: string }
      ).uuid;
    };
    await report('clear', '12345', '05T14:00', 1500);
    await report('clear2', '54321', '05T16:18', 2600);
    await report('typo', '11111', '06T09:00', 800);
    const up = await fetch(`${e.url}/api/reconcile/statements?filename=statement.csv&store_id=${e.stores.A.id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/octet-stream' },
      body: Buffer.from(STATEMENT, 'utf8'),
    });
    expect(up.status).toBe(201);
  });
  afterAll(async () => e?.close());

  /** the page on the statement's days; every decision sent to the server is counted */
  async function open(viewport: { width: number; height: number }) {
    const page = await e.signedIn('admin', '/admin/reconcile', viewport);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/reconcile\/(confirm|unpaid)/.test(r.url()))
        sent.push(new URL(r.url()).pathname);
    });
    await page.getByTestId('reconcile-from').fill('2026-11-05');
    await page.getByTestId('reconcile-to').fill('2026-11-06');
    await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count()).toBe(2);
    return { page, sent };
  }

  it('確認入帳 for a whole queue is taken back with 復原: the pairs come back, nothing is sent', async () => {
    for (const viewport of [DESK, PHONE]) {
      const { page, sent } = await open(viewport);
      await page.getByTestId('auto-confirm').click();
      // gone at once (well before the decision is sent, 5 s on), the count with them
      await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count(), { timeout: 4_000 }).toBe(0);
      expect(await badge(page, 'auto').textContent()).toBe('0');
      const notice = page.locator('.MuiSnackbar-root');
      await expect.poll(() => notice.textContent()).toContain('已確認入帳 2 筆');
      await notice.getByRole('button', { name: '復原' }).click();
      await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count()).toBe(2);
      expect(await badge(page, 'auto').textContent()).toBe('2');
      // the notice gone: nothing sent, nothing changed, and the queues read again from the server still hold both
      await notice.getByRole('button', { name: '復原' }).waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: '重新比對' }).click();
      await expect.poll(() => page.getByLabel('比對中...').count()).toBe(0);
      await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count()).toBe(2);
      expect(sent).toEqual([]);
      expect(await status('clear')).toBe('未確認');
      expect(await status('clear2')).toBe('未確認');
      await page.context().close();
    }
  });

  it('標記為未入帳 on the wrong report is taken back with 復原; a decision left alone is sent when the notice goes', async () => {
    const { page, sent } = await open(PHONE);
    const card = queue(page, 'review').getByTestId('review-item');
    await expect.poll(() => card.count()).toBe(1);
    await card.getByLabel('都不是').check();
    await card.getByTestId('review-decide').click();
    await expect.poll(() => card.count(), { timeout: 4_000 }).toBe(0);
    expect(await badge(page, 'review').textContent()).toBe('0');
    const notice = page.locator('.MuiSnackbar-root');
    await expect.poll(() => notice.textContent()).toContain('已標記未入帳 1 筆');
    await e.shot(page, 'reconcile-undo-phone');
    await notice.getByRole('button', { name: '復原' }).click();
    await expect.poll(() => card.count()).toBe(1);
    expect(sent).toEqual([]);
    expect(await status('typo')).toBe('未確認');

    // the right candidate this time (preselected), left to go through; only it is ever sent (the
    // undone 標記為未入帳, due before it, never was)
    await card.getByTestId('review-decide').click();
    await expect.poll(() => card.count(), { timeout: 4_000 }).toBe(0);
    await expect.poll(() => status('typo')).toBe('已入帳');
    expect(sent).toEqual(['/api/reconcile/confirm']);
    // read again from the server: it stays gone
    await page.getByRole('button', { name: '重新比對' }).click();
    await expect.poll(() => page.getByLabel('比對中...').count()).toBe(0);
    expect(await card.count()).toBe(0);
    await page.context().close();
  });

  it('a decided report leaves its queue at once while the server takes seconds to match the month again', async () => {
    const { page } = await open(DESK);
    // matching the month again is slow (seconds for ~1 300 reports): the answers after a decision come late
    let decided = false;
    let askedAgain = false;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/reconcile/')) decided = true;
    });
    // the server's slow answer, played by holding it (a fixture, not a wait of the test's)
    await page.route('**/api/reconcile/proposals*', async (route) => {
      if (decided) {
        askedAgain = true;
        await new Promise((res) => setTimeout(res, 12_000));
      }
      await route.continue().catch(() => undefined);
    });
    const auto = queue(page, 'auto').getByTestId('auto-item');
    await auto.first().getByRole('checkbox').uncheck();
    await expect.poll(() => page.getByTestId('auto-confirm').textContent()).toBe('確認入帳（1 筆）');
    await page.getByTestId('auto-confirm').click();
    await expect.poll(() => auto.count(), { timeout: 4_000 }).toBe(1);
    expect(await badge(page, 'auto').textContent()).toBe('1');
    // the one kept for a person is still there, still unticked
    expect(await auto.first().getByRole('checkbox').isChecked()).toBe(false);
    // and it stays gone once sent, while the queues are read again
    await expect.poll(() => askedAgain).toBe(true);
    expect(await auto.count()).toBe(1);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.context().close();
  });
});
