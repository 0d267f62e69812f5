/**
 * The 對帳 page in a real browser: a bank export is imported and what was read is shown; the
 * confident pair waits in 建議入帳 and is confirmed; a report whose last five differ by one digit
 * waits in 需人工確認 beside its candidate with that digit in red, and is confirmed by hand; two
 * reports of one customer minutes apart go to a person, one marked 未入帳; interest nobody
 * reported is in 銀行有款無回報; 取消對帳 in the payments list puts the status back. At 375 px
 * nothing scrolls sideways. Permissions: no import without manage_payments, no page without
 * edit_payments or manage_payments.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, startE2E, type E2E } from './harness.js';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
  '2026/11/05,10:06:00,跨行轉入,0,2000,12000,,0081234524680',
  '2026/11/05,10:07:00,跨行轉入,0,2000,14000,,0081234524680',
  '2026/11/05,14:03:00,跨行轉入,0,1500,15500,王小明,8220000012345',
  '2026/11/06,09:05:00,ATM轉入,0,800,16300,,*******11171',
  '2026/11/07,12:00:00,利息存入,0,33,16333,,',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('the 對帳 page in the browser', () => {
  let e: E2E;
  const uuids: Record<string, string> = {};

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${e.url}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
    return (await res.json()) as T;
  }
  const status = async (name: string) => (await call<{ status: string }>('GET', `/payments/${uuids[name]}`)).status;

  beforeAll(async () => {
    e = await startE2E();
    const report = async (name: string, last_five: string, at: string, amount: number) => {
      const r = await call<{ uuid: string }>('POST', '/payments', { last_five, paid_at: `2026-11-${at}+08:00`, amount, note: '', store_id: e.stores.A.id });
      uuids[name] = r.uuid;
    };
    await report('clear', '12345', '05T14:00', 1500);
    await report('twinA', '24680', '05T10:00', 2000);
    await report('twinB', '24680', '05T10:04', 2000);
    await report('typo', '11111', '06T09:00', 800);
  });
  afterAll(async () => {
    await e?.close();
  });

  async function upload(page: Page) {
    await page.getByTestId('statement-file').setInputFiles({ name: '存款交易明細_202611.csv', mimeType: 'text/csv', buffer: Buffer.from(STATEMENT, 'utf8') });
    await page.getByTestId('statement-summary').waitFor();
  }
  const queue = (page: Page, name: string) => page.getByTestId(`queue-${name}`);

  it('imports a statement, shows what was read and the three queues, and records the decisions', async () => {
    const page = await e.signedIn('admin', '/admin/reconcile', DESKTOP);
    await expect.poll(() => page.getByRole('menuitem', { name: '對帳' }).count()).toBe(1);
    await upload(page);
    const summary = page.getByTestId('statement-summary');
    await expect.poll(() => summary.textContent()).toContain('新增 5 筆');
    const text = (await summary.textContent()) ?? '';
    expect(text).toContain('期間：2026-11-05 ～ 2026-11-07');
    expect(text).toContain('編碼：utf-8');
    expect(text).toContain('餘額連續');
    const columns = await page.getByTestId('statement-columns').textContent();
    for (const c of ['日期：交易日期', '時間：交易時間', '存入：存入', '餘額：餘額', '摘要：摘要', '對方帳號：對方帳號']) expect(columns).toContain(c);

    // the period follows the statement; the queues settle
    const auto = queue(page, 'auto').getByTestId('auto-item');
    await expect.poll(() => auto.count()).toBe(1);
    expect(await auto.first().textContent()).toContain('12345');
    const review = queue(page, 'review').getByTestId('review-item');
    await expect.poll(() => review.count()).toBe(3);
    const unreported = queue(page, 'unreported').getByTestId('unreported-item');
    await expect.poll(() => unreported.count()).toBe(1);
    expect(await unreported.first().textContent()).toContain('利息存入');

    // the typo: the report beside its candidate, the one differing digit in red
    const typoCard = review.filter({ hasText: '11111' });
    expect(await typoCard.textContent()).toContain('後五碼可能打錯（1 碼不同）');
    const states = await typoCard.getByTestId(/^digit-\d$/).evaluateAll((els) => els.map((el) => el.getAttribute('data-state')));
    expect(states).toEqual(['same', 'same', 'same', 'diff', 'same']);
    await e.shot(page, 'reconcile-desktop');

    // 建議入帳 at once
    await page.getByTestId('auto-confirm').click();
    await expect.poll(() => auto.count()).toBe(0);
    expect(await status('clear')).toBe('已入帳');

    // the typo confirmed by hand (its candidate is preselected)
    await typoCard.getByTestId('review-decide').click();
    await expect.poll(() => review.count()).toBe(2);
    expect(await status('typo')).toBe('已入帳');

    // one of the twins: none of the candidates → 未入帳 (still listed: not linked to any line)
    const twin = review.filter({ hasText: '10:00' });
    await twin.getByLabel('都不是').check();
    await expect.poll(() => twin.getByTestId('review-decide').textContent()).toBe('標記為未入帳');
    await twin.getByTestId('review-decide').click();
    await expect.poll(() => twin.getByTestId('payment-status').textContent()).toBe('未入帳');
    expect(await status('twinA')).toBe('未入帳');
    await page.context().close();
  });

  it('取消對帳 from the payments list puts the payment back as it was', async () => {
    // linked, whether or not the test above ran (importing again adds nothing)
    const up = await fetch(`${e.url}/api/reconcile/statements?filename=statement.csv&store_id=`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/octet-stream' },
      body: Buffer.from(STATEMENT, 'utf8'),
    });
    expect(up.status).toBe(201);
    if ((await status('clear')) !== '已入帳') {
      const p = await call<{ auto: Array<{ payment: { uuid: string }; line: { id: number } }> }>('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-07&store_id=');
      const pair = p.auto.find((a) => a.payment.uuid === uuids.clear)!;
      await call('POST', '/reconcile/confirm', { pairs: [{ payment: uuids.clear, line: pair.line.id }] });
    }
    const filter = encodeURIComponent(JSON.stringify({ paid_at_gte: '2026-11-01', paid_at_lte: '2026-11-30' }));
    const page = await e.signedIn('admin', `/admin/payments?filter=${filter}`, DESKTOP);
    const button = page.getByTestId(`unlink-${uuids.clear}`);
    await button.waitFor();
    await e.shot(page, 'payments-unlink-desktop');
    await button.click();
    await page.getByTestId('unlink-confirm').click();
    await expect.poll(() => button.count()).toBe(0);
    expect(await status('clear')).toBe('未確認');
    // not linked any more: the pair is proposed again
    const again = await call<{ auto: Array<{ payment: { uuid: string } }> }>('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-07&store_id=');
    expect(again.auto.map((a) => a.payment.uuid)).toContain(uuids.clear);
    await page.context().close();
  });

  it('fits a phone: no sideways scrolling, the queues readable', async () => {
    const page = await e.signedIn('admin', '/admin/reconcile', PHONE);
    await upload(page);
    await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count()).toBe(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await e.shot(page, 'reconcile-phone');
    await page.context().close();
  });

  it('branch staff decide but do not import; without the permissions there is no page', async () => {
    const branch = await e.signedIn('branchA', '/admin/reconcile', DESKTOP);
    await queue(branch, 'auto').waitFor();
    expect(await branch.getByTestId('statement-upload').count()).toBe(0);
    await branch.context().close();

    const viewer = await e.signedIn('hq_view_payments', '/admin/reconcile', DESKTOP);
    await viewer.getByTestId('reconcile-forbidden').waitFor();
    expect(await viewer.getByRole('menuitem', { name: '對帳' }).count()).toBe(0);
    await viewer.context().close();
  });
});
