/**
 * The 對帳 page in a real browser: a bank export is imported and what was read is shown; the
 * confident pair waits in 建議入帳 and is confirmed; a report whose last five differ by one digit
 * waits in 需人工確認 beside its candidate with that digit in red, and is confirmed by hand; two
 * reports of one customer minutes apart go to a person, one marked 未入帳; interest nobody
 * reported is in 銀行有款無回報; 取消對帳 in the payments list puts the status back. At 375 px
 * nothing scrolls sideways. Permissions: no import without manage_payments, no page without
 * edit_payments or manage_payments.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO, REPORTS, writeBankExports, type ReportName } from '../helpers/bankExports.js';
import { DESK as DESKTOP, HAS_CHROMIUM, PHONE, startE2E, type E2E } from './harness.js';

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
  '2026/11/05,10:06:00,跨行轉入,0,2000,12000,,0081234524680',
  '2026/11/05,10:07:00,跨行轉入,0,2000,14000,,0081234524680',
  '2026/11/05,14:03:00,跨行轉入,0,1500,15500,王小明,8220000012345',
  '2026/11/06,09:05:00,ATM轉入,0,800,16300,,*******11171',
  '2026/11/07,12:00:00,利息存入,0,33,16333,,',
].join('\n');

/** the API as the admin, for setting up and checking what the page did */
async function adminCall<T>(e: E2E, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e.url}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  return (await res.json()) as T;
}

describe.skipIf(!HAS_CHROMIUM)('the 對帳 page in the browser', () => {
  let e: E2E;
  const uuids: Record<string, string> = {};

  const call = <T>(method: string, path: string, body?: unknown) => adminCall<T>(e, method, path, body);
  const status = async (name: string) => (await call<{ status: string }>('GET', `/payments/${uuids[name]}`)).status;

  beforeAll(async () => {
    e = await startE2E();
    const report = async (name: string, last_five: string, at: string, amount: number) => {
      const r = await call<{ uuid: string }>('POST', '/payments', {
        last_five,
        paid_at: `2026-11-${at}+08:00`,
        amount,
        note: '',
        store_id: e.stores.A.id,
      });
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
    await page
      .getByTestId('statement-file')
      .setInputFiles({ name: '存款交易明細_202611.csv', mimeType: 'text/csv', buffer: Buffer.from(STATEMENT, 'utf8') });
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
    expect(text).toContain('期間：2026/11/05 ～ 2026/11/07');
    expect(text).toContain('編碼：UTF-8');
    expect(text).toContain('餘額連續');
    const columns = await page.getByTestId('statement-columns').textContent();
    for (const c of [
      '日期：交易日期',
      '時間：交易時間',
      '存入：存入',
      '餘額：餘額',
      '摘要：摘要',
      '對方帳號：對方帳號',
    ])
      expect(columns).toContain(c);

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
    const states = await typoCard
      .getByTestId(/^digit-\d$/)
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-state')));
    expect(states).toEqual(['same', 'same', 'same', 'diff', 'same']);
    await e.shot(page, 'reconcile-desktop');

    // 建議入帳 at once
    await page.getByTestId('auto-confirm').click();
    await expect.poll(() => auto.count()).toBe(0);
    await expect.poll(() => status('clear')).toBe('已入帳');

    // the typo confirmed by hand (its candidate is preselected)
    await typoCard.getByTestId('review-decide').click();
    await expect.poll(() => review.count()).toBe(2);
    await expect.poll(() => status('typo')).toBe('已入帳');

    // one of the twins: none of the candidates → 未入帳, and it leaves the queues until un-marked
    const twin = review.filter({ hasText: '10:00' });
    await twin.getByLabel('都不是').check();
    await expect.poll(() => twin.getByTestId('review-decide').textContent()).toBe('標記為未入帳');
    await twin.getByTestId('review-decide').click();
    await expect.poll(() => review.count()).toBe(1);
    await expect.poll(() => status('twinA')).toBe('未入帳');
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
      const p = await call<{ auto: Array<{ payment: { uuid: string }; line: { id: number } }> }>(
        'GET',
        '/reconcile/proposals?from=2026-11-05&to=2026-11-07&store_id=',
      );
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
    const again = await call<{ auto: Array<{ payment: { uuid: string } }> }>(
      'GET',
      '/reconcile/proposals?from=2026-11-05&to=2026-11-07&store_id=',
    );
    expect(again.auto.map((a) => a.payment.uuid)).toContain(uuids.clear);
    await page.context().close();
  });

  it('fits a phone: no sideways scrolling, the queues readable', async () => {
    const page = await e.signedIn('admin', '/admin/reconcile', PHONE);
    await upload(page);
    await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count()).toBe(1);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
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

/**
 * An accountant with only the README's 對帳 section: seven exports in the banks' own shapes
 * (test/helpers/bankExports.ts), imported one after another on the page at 1280 px; the period
 * follows every statement imported; 建議入帳 confirmed at once, the typo resolved in 需人工確認,
 * one twin marked 都不是, one payment unlinked in 匯款記錄, and the statuses there. Then a phone.
 */
describe.skipIf(!HAS_CHROMIUM)('an accountant’s month of bank exports in the back office', () => {
  let e: E2E;
  let dir: string;
  let files: string[];
  const uuids = {} as Record<ReportName, string>;
  const api = <T>(method: string, path: string, body?: unknown) => adminCall<T>(e, method, path, body);
  const statusOf = async (name: ReportName) =>
    (await api<{ status: string }>('GET', `/payments/${uuids[name]}`)).status;
  const queue = (page: Page, name: string) => page.getByTestId(`queue-${name}`);
  const overflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  beforeAll(async () => {
    e = await startE2E();
    dir = mkdtempSync(join(tmpdir(), 'remit-e2e-exports-'));
    files = writeBankExports(dir);
    for (const [name, r] of Object.entries(REPORTS)) {
      uuids[name as ReportName] = (
        await api<{ uuid: string }>('POST', '/payments', {
          ...r,
          note: '',
          store_id: e.stores.A.id,
          confirm_duplicate: true,
        })
      ).uuid;
    }
  }, 400_000);
  afterAll(async () => {
    await e?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function upload(page: Page, path: string) {
    await page.getByTestId('statement-file').setInputFiles(path);
    const summary = page.getByTestId('statement-summary');
    await expect.poll(() => summary.textContent()).toContain(`已匯入「${basename(path)}」`);
    // the page's period follows the import, so nothing is typed until the button is free again
    await expect.poll(() => page.getByTestId('statement-upload').isEnabled()).toBe(true);
    return (await summary.textContent()) ?? '';
  }

  it('imports every shape at 1280 px, confirms, resolves, marks 都不是, unlinks, and 匯款記錄 shows the statuses', async () => {
    const page = await e.signedIn('admin', '/admin/reconcile', DESKTOP);
    const read = [];
    for (const path of files) read.push(await upload(page, path));
    // what was read, per file: the period and the encoding the README promises
    const expected: Array<[string, string]> = [
      ['期間：2026/11/01 ～ 2026/11/02', '編碼：大五碼（Big5）'],
      ['期間：2026/11/03 ～ 2026/11/03', '編碼：大五碼（Big5）'],
      ['期間：2026/11/04 ～ 2026/11/04', '編碼：大五碼（Big5）'],
      ['期間：2026/11/05 ～ 2026/11/05', '編碼：UTF-8'],
      ['期間：2026/11/06 ～ 2026/11/06', '編碼：UTF-8'],
      ['期間：2026/11/07 ～ 2026/11/07', '編碼：Excel 活頁簿（.xlsx）'],
      ['期間：2026/11/08 ～ 2026/11/08', '編碼：Excel 97–2003 活頁簿（.xls）'],
    ];
    read.forEach((text, k) => {
      for (const part of expected[k]) expect(text, basename(files[k])).toContain(part);
      expect(text).toContain('餘額連續');
    });
    // the period spans every statement imported (as the CLI with several files)
    await expect.poll(() => page.getByLabel('起日').inputValue()).toBe('2026-11-01');
    expect(await page.getByLabel('迄日').inputValue()).toBe('2026-11-08');

    const auto = queue(page, 'auto').getByTestId('auto-item');
    const review = queue(page, 'review').getByTestId('review-item');
    const unreported = queue(page, 'unreported').getByTestId('unreported-item');
    await expect.poll(() => auto.count()).toBe(AUTO.length);
    await expect.poll(() => review.count()).toBe(3);
    await expect.poll(() => unreported.count()).toBe(1);
    expect(await unreported.first().textContent()).toContain('利息');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await e.shot(page, 'reconcile-month-desktop');

    await page.getByTestId('auto-confirm').click();
    await expect.poll(() => auto.count()).toBe(0);
    for (const name of AUTO) await expect.poll(() => statusOf(name), { message: name }).toBe('已入帳');

    // 需人工確認: the typo beside its line, the differing digit marked; confirmed as proposed
    const typo = review.filter({ hasText: REPORTS.typo.last_five });
    expect(await typo.textContent()).toContain('後五碼可能打錯（1 碼不同）');
    const states = await typo
      .getByTestId(/^digit-\d$/)
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-state')));
    expect(states).toEqual(['same', 'same', 'same', 'same', 'diff']);
    await typo.getByTestId('review-decide').click();
    await expect.poll(() => review.count()).toBe(2);
    await expect.poll(() => statusOf('typo')).toBe('已入帳');

    // one twin: 都不是 → 未入帳, and it is not proposed again
    const twin = review.filter({ hasText: '15:00' });
    await twin.getByLabel('都不是').check();
    await twin.getByTestId('review-decide').click();
    await expect.poll(() => review.count()).toBe(1);
    await expect.poll(() => statusOf('twinA')).toBe('未入帳');
    await page.evaluate(() => window.scrollTo(0, 0)); // a full-page shot taken scrolled draws the fixed bar mid-page
    await e.shot(page, 'reconcile-month-decided-desktop');

    // 匯款記錄: the statuses, and 取消對帳 on one confirmed payment
    const filter = encodeURIComponent(JSON.stringify({ paid_at_gte: '2026-11-01', paid_at_lte: '2026-11-30' }));
    await page.goto(`${e.url}/admin/payments?filter=${filter}`);
    const shown = async (name: ReportName) =>
      (await page.getByTestId(`status-${uuids[name]}`).locator('..').textContent()) ?? '';
    await page.getByTestId(`status-${uuids.fubon}`).waitFor();
    for (const name of [...AUTO, 'typo'] as ReportName[]) expect(await shown(name), name).toContain('已入帳');
    expect(await shown('twinA')).toContain('未入帳');
    expect(await shown('twinB')).toContain('未確認');
    await e.shot(page, 'reconcile-month-payments-desktop');
    // a linked payment's status is a label saying why it cannot be chosen; unlinked, a choice again
    const fubon = page.getByTestId(`status-${uuids.fubon}`);
    expect(await fubon.getAttribute('data-linked')).toBe('true');
    expect(await fubon.getAttribute('title')).toBe('此匯款已對帳，請先取消對帳');
    // …and opens 對帳明細: the very line it was linked to, as the statement wrote it
    await fubon.click();
    const linked = page.getByTestId('linked-line');
    await expect.poll(() => linked.textContent()).toContain('富邦_交易明細.xlsx 第 2 列');
    expect(await linked.textContent()).toContain('NT$650');
    await e.shot(page, 'reconcile-month-linked-line-desktop');
    await page.getByRole('button', { name: '關閉' }).click();
    await expect.poll(() => linked.count()).toBe(0);
    const unlink = page.getByTestId(`unlink-${uuids.fubon}`);
    await unlink.click();
    await page.getByTestId('unlink-confirm').click();
    await expect.poll(() => unlink.count()).toBe(0);
    await expect.poll(() => shown('fubon')).toContain('未確認');
    await expect.poll(() => fubon.getAttribute('data-linked')).toBeNull();
    expect(await statusOf('fubon')).toBe('未確認');
    await page.context().close();
  });

  it('at 375 px: an export imported again adds nothing, the queues fit, nothing scrolls sideways', async () => {
    const page = await e.signedIn('admin', '/admin/reconcile', PHONE);
    await upload(page, files[5]); // new, or already in from the test above
    expect(await upload(page, files[5])).toContain('新增 0 筆，略過重複 1 筆');
    await expect.poll(() => page.getByLabel('起日').inputValue()).toBe('2026-11-07');
    // the unlinked payment is proposed again for its statement's day
    await expect.poll(() => queue(page, 'auto').getByTestId('auto-item').count()).toBe(1);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await e.shot(page, 'reconcile-month-phone');
    await page.getByLabel('起日').fill('2026-11-01');
    await page.getByLabel('迄日').fill('2026-11-08');
    // the twins (both, or the one left when the test above marked the other 都不是)
    await expect.poll(() => queue(page, 'review').getByTestId('review-item').count()).toBeGreaterThan(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await queue(page, 'review').scrollIntoViewIfNeeded();
    await e.shot(page, 'reconcile-month-review-phone');
    await page.context().close();
  });
});
