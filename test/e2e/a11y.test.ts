/**
 * axe-core in Chromium on the pages this session touched, at 375 and 1280 px: the sign-in page,
 * the form, the 對帳 page with every queue filled (the review card, 未入帳候選, the payer read
 * from 備註), and 匯款記錄 with 對帳明細 open. No critical and no serious violation (WCAG 2 A/AA).
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, startE2E, type E2E } from './harness.js';

const AXE = createRequire(import.meta.url)('axe-core') as { source: string };
const SIZES = [
  ['375', { width: 375, height: 812 }],
  ['1280', { width: 1280, height: 900 }],
] as const;

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註',
  '2026/11/05,14:03:00,跨行轉入,0,1500,1500,***12345',
  '2026/11/06,09:05:00,跨行轉入,0,800,2300,***58812',
  '2026/11/07,12:00:00,利息存入,0,33,2333,',
  '2026/11/10,09:00:00,提款,300,0,2033,',
].join('\n');

/** The serious and critical violations axe finds on the page as it stands. */
async function violations(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol: the site's Content-Security-Policy refuses inline scripts
  await page.evaluate(AXE.source);
  const found = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ html: string; failureSummary: string }> }> }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    // each with up to three of its elements and what is wrong, so that a failure says where
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => `${n.html.slice(0, 300)}: ${n.failureSummary.replace(/\n/g, ' ')}`) }));
  })) as Array<{ id: string; impact: string | null; targets: string[] }>;
  return found.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

describe.skipIf(!HAS_CHROMIUM)('accessibility (axe-core) of the pages issue 21 and 22 touched', () => {
  let e: E2E;
  let linked = '';

  beforeAll(async () => {
    e = await startE2E();
    const call = async <T>(method: string, path: string, body?: unknown, type = 'application/json'): Promise<T> => {
      const res = await fetch(`${e.url}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': type },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
      return (await res.json()) as T;
    };
    const pay = (last_five: string, at: string, amount: number) => call<{ uuid: string }>('POST', '/payments', { last_five, paid_at: `2026-11-${at}+08:00`, amount, note: '', store_id: e.stores.A.id });
    const clear = await pay('12345', '05T14:00', 1500); // confirmed below: 對帳明細
    await pay('30303', '06T09:00', 800); // another account's digits: a review card with nothing chosen
    await pay('22222', '06T13:00', 4000); // nothing pays it: 未入帳候選
    await call('POST', `/reconcile/statements?filename=statement.csv&store_id=${e.stores.A.id}`, STATEMENT, 'application/octet-stream');
    const p = await call<{ auto: Array<{ payment: { uuid: string }; line: { id: number } }> }>('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-10&store_id=');
    const pair = p.auto.find((a) => a.payment.uuid === clear.uuid)!;
    await call('POST', '/reconcile/confirm', { pairs: [{ payment: clear.uuid, line: pair.line.id }] });
    linked = clear.uuid;
  });
  afterAll(async () => {
    await e?.close();
  });

  for (const [size, viewport] of SIZES) {
    it(`the sign-in page and the form at ${size} px`, async () => {
      const ctx = await e.context(viewport);
      const page = await ctx.newPage();
      await page.goto(`${e.url}/admin/login`);
      await page.getByLabel('密碼').waitFor();
      expect(await violations(page)).toEqual([]);
      await ctx.close();
      const form = await e.signedIn('branchA', '/', viewport);
      await form.getByLabel('匯款金額').first().waitFor();
      expect(await violations(form)).toEqual([]);
      await form.context().close();
    });

    it(`對帳 with every queue at ${size} px`, async () => {
      const page = await e.signedIn('admin', '/admin/reconcile', viewport);
      await page.getByLabel('起日').fill('2026-11-05');
      await page.getByLabel('迄日').fill('2026-11-10');
      await expect.poll(() => page.getByTestId('review-item').count()).toBe(1);
      await expect.poll(() => page.getByTestId('unpaid-item').count()).toBe(1);
      expect(await page.getByTestId('review-decide').isDisabled()).toBe(true); // another account's digits: nothing chosen
      expect(await violations(page)).toEqual([]);
      await page.context().close();
    });

    it(`匯款記錄 with 對帳明細 open at ${size} px`, async () => {
      const filter = encodeURIComponent(JSON.stringify({ paid_at_gte: '2026-11-01', paid_at_lte: '2026-11-30' }));
      const page = await e.signedIn('admin', `/admin/payments?filter=${filter}`, viewport);
      const label = page.getByTestId(`status-${linked}`);
      await label.click();
      await expect.poll(() => page.getByTestId('linked-line').textContent()).toContain('statement.csv 第 3 列');
      expect(await violations(page)).toEqual([]);
      await e.shot(page, `linked-line-${size}`);
      await page.context().close();
    });
  }
});
