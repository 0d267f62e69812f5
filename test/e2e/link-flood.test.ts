/**
 * A flood through a store's public link, as a manager meets it in a real browser at 375 and 1280
 * px: a notice with the count on 分店管理 and above 匯款記錄, 查看這些回報 opening the list on the
 * flood's reports, and 移除 removing those still 未確認 after a confirmation with the count and
 * behind 復原 (taken back: nothing removed). axe-core on both pages with the notice and the dialog.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings, callApi, DESK, graveFindings, HAS_CHROMIUM, PHONE, startE2E, type E2E } from './harness.js';

/** A flood's reports, written as the link writes them: 顧客, through the store's link, arriving now. */
async function flood(e: E2E, storeId: number, count: number): Promise<void> {
  await callApi(e, 'GET', `/stores/${storeId}/link`, 'admin');
  const link = await e.t.db('store_links').where({ store_id: storeId }).first('id');
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    uuid: randomUUID(),
    store_id: storeId,
    last_five: String(30000 + i),
    paid_at: Date.UTC(2026, 9, 1 + (i % 28), 3),
    amount: 100 + i,
    status: '未確認',
    note: '',
    source: 'customer',
    link_id: link.id,
    created_by: null,
    created_at: now - i,
    updated_at: now - i,
  }));
  for (let i = 0; i < rows.length; i += 200) await e.t.db('payments').insert(rows.slice(i, i + 200));
}

const customerReports = async (e: E2E, storeId: number) =>
  Number((await e.t.db('payments').where({ store_id: storeId, source: 'customer' }).count({ n: '*' }).first())!.n);

describe.skipIf(!HAS_CHROMIUM)('a flood through a public link, in the back office', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  for (const viewport of [PHONE, DESK]) {
    it(`is named with its count, found, and removed behind 復原 at ${viewport.width} px`, async () => {
      const store = (
        (await callApi(e, 'POST', '/stores', 'admin', {
          name: `洪水店${viewport.width}`,
          code: `F${viewport.width}`,
        })) as { id: number }
      ).id;
      await flood(e, store, 80);
      const page = await e.signedIn('admin', '/admin/stores', viewport);
      const notice = page.getByTestId(`flood-${store}`);
      await notice.waitFor();
      expect(await notice.innerText()).toContain(
        `洪水店${viewport.width} (F${viewport.width}) 的公開連結今天收到 80 筆顧客回報，可能有人大量送出。`,
      );
      expect(await notice.innerText()).toContain('重新產生');
      expect(graveFindings(await axeFindings(page))).toEqual([]);
      await e.shot(page, `link-flood-stores-${viewport.width}`);

      // 查看這些回報: the list on the store's customer reports received today
      await notice.getByRole('button', { name: '查看這些回報' }).click();
      await page.getByTestId('filter-received').waitFor();
      await expect
        .poll(() => page.locator('.RaDatagrid-row, [data-testid^="payment-card-"]').count())
        .toBeGreaterThan(0);
      expect(await page.getByTestId(`flood-${store}`).count()).toBe(1);

      // 移除, then 復原: nothing is removed
      await page.getByTestId(`flood-remove-${store}`).click();
      const dialog = page.getByTestId('flood-remove-dialog');
      await dialog.getByText(/仍為未確認的 80 筆顧客回報/).waitFor();
      expect(graveFindings(await axeFindings(page))).toEqual([]);
      await e.shot(page, `link-flood-remove-${viewport.width}`);
      await page.getByTestId('flood-remove-ok').click();
      await page.getByText('已移除 80 筆顧客回報').waitFor();
      await page.getByRole('button', { name: '復原' }).click();
      await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached' });
      expect(await customerReports(e, store)).toBe(80);

      // 移除 left alone: sent once the notice goes, and the notice with it
      await page.getByTestId(`flood-remove-${store}`).click();
      await dialog.getByText(/80 筆顧客回報/).waitFor();
      await page.getByTestId('flood-remove-ok').click();
      await page.getByRole('button', { name: '復原' }).waitFor({ state: 'detached', timeout: 15_000 });
      await expect.poll(() => customerReports(e, store)).toBe(0);
      await expect.poll(() => page.getByTestId(`flood-${store}`).count()).toBe(0);
      await page.context().close();
    });
  }

  it('is not shown to a store that is not flooded, nor its remove button to someone without 刪除匯款', async () => {
    await flood(e, e.stores.A.id, 80);
    const viewer = await e.signedIn('hq_view_payments', '/admin/payments', DESK);
    await viewer.getByTestId(`flood-${e.stores.A.id}`).waitFor();
    expect(await viewer.getByTestId(`flood-remove-${e.stores.A.id}`).count()).toBe(0);
    expect(await viewer.getByTestId(`flood-${e.stores.B.id}`).count()).toBe(0);
    expect(
      await viewer
        .getByTestId('flood-notices')
        .getByTestId(/^flood-\d+$/)
        .count(),
    ).toBe(1);
    await viewer.context().close();
  });
});
