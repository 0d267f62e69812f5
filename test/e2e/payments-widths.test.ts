/**
 * 匯款記錄 from a tablet to a desk: below 1200 px, where the menu beside the list leaves it less
 * than 960 px, the list is cards, and every card's status, note and delete are on the screen (the
 * table's began at 905 px on a 768 px tablet); from 1200 px the table, whose delete column stays on
 * the screen when the columns run past it, and a long store name is cut to fit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, DESK, HAS_CHROMIUM, minutesAgoToday, seriousFindings, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('匯款記錄 at tablet and desk widths', () => {
  let e: E2E;
  const ids: string[] = [];
  beforeAll(async () => {
    e = await startE2E();
    const store = (await callApi(e, 'POST', '/stores', 'admin', { code: 'KHH9', name: '高雄旗艦店（三多商圈）' })) as { id: number };
    for (let i = 0; i < 4; i++) {
      const body = i % 2 ? { method: '電子支付', method_detail: 'LINE Pay' } : { method: '匯款', last_five: `5432${i}` };
      const r = (await callApi(e, 'POST', '/payments', 'admin', { ...body, amount: 128000, paid_at: minutesAgoToday(10 + i), note: i === 1 ? 'LINE 訂單 #123 王小姐' : '', store_id: i < 2 ? store.id : e.stores.A.id })) as { uuid?: string };
      expect(r.uuid).toBeTruthy();
      ids.push(r.uuid!);
    }
  }, 60_000);
  afterAll(async () => e?.close());

  it('at 375 px: a card\'s pencil and trash, and the ‹ › day steps, are a finger\'s size (40 px)', async () => {
    const page = await e.signedIn('admin', '/admin/payments', { width: 375, height: 812 });
    await page.getByTestId(`payment-card-${ids[1]}`).waitFor();
    for (const target of [page.getByTestId(`delete-${ids[1]}`), page.getByTestId(`method-edit-${ids[1]}`), page.getByTestId('day-before')]) {
      const box = (await target.boundingBox())!;
      expect([Math.round(box.width), Math.round(box.height)]).toEqual([40, 40]);
    }
    await e.shot(page, 'payments-cards-375');
    await page.context().close();
  });

  for (const [w, h] of [[768, 1024], [1024, 768]]) {
    it(`at ${w} px: cards, each card's status, note and delete on the screen; no serious axe finding`, async () => {
      const page = await e.signedIn('admin', '/admin/payments', { width: w, height: h });
      await page.getByTestId(`payment-card-${ids[0]}`).waitFor();
      expect(await page.locator('table').count()).toBe(0);
      for (const id of ids) {
        const card = page.getByTestId(`payment-card-${id}`);
        for (const part of [card.getByTestId(`delete-${id}`), card.getByTestId(`note-${id}`), card.getByTestId(`status-${id}`)]) {
          const box = (await part.boundingBox())!;
          expect(box.x + box.width, `${id} at ${w}`).toBeLessThanOrEqual(w);
        }
      }
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth)).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
      await page.context().close();
    });
  }

  it('at 1280 px: the table; the delete column and its header on the screen, a long store name cut with the whole on hover', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    await page.getByTestId(`delete-${ids[0]}`).waitFor();
    expect(await page.locator('table').count()).toBe(1);
    for (const id of ids) expect((await page.getByTestId(`delete-${id}`).boundingBox())!.x + 20).toBeLessThanOrEqual(DESK.width);
    const header = page.locator('thead th').last();
    expect(await header.textContent()).toBe('操作');
    // the header is drawn above the columns that scroll under it
    const { x, y, width, height } = (await header.boundingBox())!;
    expect(await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.closest('th')?.textContent, [x + width / 2, y + height / 2])).toBe('操作');
    const long = page.getByTitle('高雄旗艦店（三多商圈）').first();
    expect(await long.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.context().close();
  });
});
