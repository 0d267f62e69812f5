/**
 * 可能為分次或合併付款 on the 對帳 page: a customer's two orders paid with one transfer
 * and one order paid in two transfers are shown as groups, each with its reports, its credits and
 * both sums, read only with a note saying where to settle them; their credits are not in
 * 銀行有款無回報. At 375 px and 1280 px nothing scrolls sideways and axe-core finds no critical or
 * serious violation (WCAG 2 A/AA).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK, HAS_CHROMIUM, PHONE, seriousFindings, startE2E, type E2E } from './harness.js';

const SIZES = [
  ['375', PHONE],
  ['1280', DESK],
] as const;

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
  '2026/11/05,10:05:00,跨行轉入,0,2000,2000,,0081234533333',
  '2026/11/07,15:01:00,跨行轉入,0,3000,5000,,0081234544444',
  '2026/11/07,15:03:00,現金存款,0,2000,7000,,',
  '2026/11/08,12:00:00,利息存入,0,33,7033,,',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('可能為分次或合併付款 on the 對帳 page', () => {
  let e: E2E;
  const uuids: Record<string, string> = {};

  beforeAll(async () => {
    e = await startE2E();
    for (const [name, last_five, at, amount] of [
      ['first', '33333', '05T10:00', 1200],
      ['second', '33333', '05T10:02', 800],
      ['split', '44444', '07T15:00', 5000],
    ] as const) {
      const res = await fetch(`${e.url}/api/payments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ last_five, paid_at: `2026-11-${at}+08:00`, amount, note: '', store_id: e.stores.A.id }),
      });
      expect(res.ok).toBe(true);
      uuids[name] = ((await res.json()) as { uuid: string }).uuid;
    }
  });
  afterAll(async () => {
    await e?.close();
  });

  it.each(SIZES)(
    'at %s px: each group with its reports, credits and sums, read only; its credits not unreported; axe clean',
    async (label, size) => {
      const page = await e.signedIn('admin', '/admin/reconcile', size);
      await page
        .getByTestId('statement-file')
        .setInputFiles({ name: `分次合併_${label}.csv`, mimeType: 'text/csv', buffer: Buffer.from(STATEMENT, 'utf8') });
      await page.getByTestId('statement-summary').waitFor();
      const groups = page.getByTestId('queue-groups');
      await expect.poll(() => groups.getByTestId('group-item').count()).toBe(2);
      expect(await groups.getByRole('heading', { level: 2 }).textContent()).toBe('可能為分次或合併付款');
      expect(await groups.getByTestId('groups-read-only').textContent()).toBe(
        '一筆匯款只能連結一筆金額相同的入帳，這裡無法確認；核對無誤後，請在「匯款記錄」將這些回報改為已入帳',
      );

      const [combined, split] = [groups.getByTestId('group-item').nth(0), groups.getByTestId('group-item').nth(1)];
      expect(await combined.getByTestId('group-reports').textContent()).toBe('回報 2 筆，合計 NT$2,000');
      expect(await combined.getByTestId('group-lines').textContent()).toBe('入帳 1 筆，合計 NT$2,000');
      const combinedText = (await combined.textContent()) ?? '';
      expect(combinedText).toContain('NT$1,200');
      expect(combinedText).toContain('NT$800');
      expect(combinedText).toContain('2 筆回報合計金額相符、後五碼相同');
      expect(await split.getByTestId('group-reports').textContent()).toBe('回報 1 筆，合計 NT$5,000');
      expect(await split.getByTestId('group-lines').textContent()).toBe('入帳 2 筆，合計 NT$5,000');
      const splitText = (await split.textContent()) ?? '';
      expect(splitText).toContain('0081234544444');
      expect(splitText).toContain('現金存款');
      expect(splitText).toContain('2 筆入帳合計金額相符、後五碼相符');
      // nothing to press: a group is settled in 匯款記錄
      expect(await groups.getByRole('button').count()).toBe(0);

      // 銀行有款無回報 holds the interest only
      const unreported = page.getByTestId('queue-unreported');
      await expect.poll(() => unreported.getByTestId('unreported-item').count()).toBe(1);
      expect(await unreported.getByTestId('unreported-item').textContent()).toContain('利息存入');
      expect(await unreported.getByTestId('open-line-item').count()).toBe(0);

      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousFindings(page)).toEqual([]);
      await groups.scrollIntoViewIfNeeded();
      await e.shot(page, `reconcile-groups-${label}`);
      await page.context().close();
    },
  );
});
