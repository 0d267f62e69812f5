/**
 * The daily close on a phone when something goes wrong: a drawer that does not match is asked
 * about once more (only a manager can reopen a closed day), with room to say why; and a close
 * whose answer is lost on a weak connection is looked up, so the clerk sees it saved instead of
 * 載入失敗 and a second tap refused. Screenshots in test-output/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { callApi, HAS_CHROMIUM, minutesAgoToday, PHONE, seriousFindings, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('closing the till when something goes wrong', () => {
  let e: E2E;
  const today = taipeiDate(Date.now());
  const yesterday = taipeiDate(Date.parse(`${today}T12:00:00+08:00`) - 86_400_000);
  const dayStatus = async (date: string) =>
    ((await callApi(e, 'GET', `/closes/day?store_id=${e.stores.B.id}&date=${date}`, 'branchB')) as { status: string })
      .status;

  beforeAll(async () => {
    e = await startE2E();
    const r = (await callApi(e, 'POST', '/payments', 'branchB', {
      method: '現金',
      amount: 1000,
      paid_at: minutesAgoToday(30),
      note: '',
      store_id: e.stores.B.id,
    })) as { uuid?: string };
    expect(r.uuid, JSON.stringify(r)).toBeTruthy();
  }, 60_000);
  afterAll(async () => {
    await e?.close();
  });

  it('a count that does not match is asked about before closing, and the reason is kept', async () => {
    const page = await e.signedIn('branchB', '/admin/close', PHONE);
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('未結帳');
    await page.getByTestId('close-opening').fill('2000');
    await page.getByTestId('close-counted-input').fill('2900');
    await expect.poll(() => page.getByTestId('close-preview-difference').textContent()).toBe('-NT$100');
    await page.getByTestId('close-submit').click();
    const dialog = page.getByTestId('close-difference-dialog');
    await expect
      .poll(() => dialog.getByRole('dialog').textContent())
      .toContain('點收 NT$2,900，應有 NT$3,000，少了 NT$100');
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'close-difference-ask-375');
    // nothing is stored until the clerk says so; 回去重點 goes back to the count
    expect(await dayStatus(today)).toBe('open');
    await page.getByTestId('close-recount').click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await dayStatus(today)).toBe('open');
    // asked again, the reason written, closed
    await page.getByTestId('close-submit').click();
    await page.getByTestId('close-difference-reason').fill('找錯錢給客人');
    await page.getByTestId('close-confirm').click();
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('已結帳');
    expect(await page.getByTestId('close-difference').textContent()).toBe('-NT$100');
    expect(await page.getByTestId('close-done').textContent()).toContain('：找錯錢給客人');
    await e.shot(page, 'close-difference-closed-375');
    await page.context().close();
  });

  it('a close whose answer is lost shows as closed, not as a failure to send again', async () => {
    const page = await e.signedIn('branchB', `/admin/close?date=${yesterday}`, PHONE);
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('無收支'); // nothing came in that day: 無收支, and it still closes
    await page.getByTestId('close-opening').fill('3000');
    await page.getByTestId('close-counted-input').fill('3000');
    await expect.poll(() => page.getByTestId('close-preview-difference').textContent()).toBe('NT$0');
    // the server stores the close, then the connection drops before the answer arrives
    let sent = 0;
    await page.route('**/api/closes', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent++;
      await route.fetch();
      await route.abort('failed');
    });
    await page.getByTestId('close-submit').click();
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('已結帳');
    expect(sent).toBe(1);
    expect(await page.getByTestId('close-error').count()).toBe(0);
    expect(await page.getByTestId('close-counted').textContent()).toBe('NT$3,000');
    expect(await dayStatus(yesterday)).toBe('closed');
    await e.shot(page, 'close-lost-answer-375');
    await page.context().close();
  });

  it('a day closed meanwhile (a second phone, an earlier send) shows the stored close and who made it', async () => {
    const earlier = taipeiDate(Date.parse(`${today}T12:00:00+08:00`) - 2 * 86_400_000);
    const page = await e.signedIn('branchB', `/admin/close?date=${earlier}`, PHONE);
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('無收支');
    await page.getByTestId('close-opening').fill('500');
    await page.getByTestId('close-counted-input').fill('500');
    const r = (await callApi(e, 'POST', '/closes', 'branchB', {
      store_id: e.stores.B.id,
      date: earlier,
      opening: 500,
      counted: 500,
      note: '',
    })) as { counted?: number };
    expect(r.counted, JSON.stringify(r)).toBe(500);
    await page.getByTestId('close-submit').click();
    await expect.poll(() => page.getByTestId('close-status').textContent()).toBe('已結帳');
    await page.getByText(/已經結帳（branchB，.*），不能再結一次/).waitFor();
    expect(await page.getByTestId('close-error').count()).toBe(0);
    await page.context().close();
    expect(e.errors).toEqual([]);
  });
});
