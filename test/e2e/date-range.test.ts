/**
 * One date-range rule in the back office: a start after the end, on the
 * dashboard, the payments filters and the 對帳 page, is answered under the start date with
 * core's sentence (the one the API and the CLI give), and no request goes out with it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK as DESKTOP, HAS_CHROMIUM, PHONE, startE2E, type E2E } from './harness.js';

const MESSAGE = '開始日期（2026-11-12）不能晚於結束日期（2026-11-10）';

const screens = [
  {
    name: 'dashboard',
    path: '/admin/dashboard',
    from: 'dashboard-from',
    to: 'dashboard-to',
    api: '/api/stats/summary',
  },
  // on a phone the payment filters other than the search fold behind 篩選
  {
    name: 'payments',
    path: '/admin/payments',
    from: 'filter-from',
    to: 'filter-to',
    api: '/api/payments',
    phoneToggle: 'filters-toggle',
  },
  {
    name: 'reconcile',
    path: '/admin/reconcile',
    from: 'reconcile-from',
    to: 'reconcile-to',
    api: '/api/reconcile/proposals',
  },
];

describe.skipIf(!HAS_CHROMIUM)('a reversed date range in the back office', () => {
  let e: E2E;
  beforeAll(async () => {
    e = await startE2E();
  });
  afterAll(async () => e?.close());

  /** the requests the page makes to `api`, as their query strings */
  function requests(page: Page, api: string): string[] {
    const seen: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === api) seen.push(decodeURIComponent(u.search));
    });
    return seen;
  }

  /** Types 2026-11-10 as the end and 2026-11-12 as the start; the sentence shows. */
  async function typeReversed(page: Page, s: (typeof screens)[number]) {
    const from = page.getByTestId(s.from);
    await from.waitFor();
    await page.getByTestId(s.to).fill('2026-11-10');
    await from.fill('2026-11-12');
    const alert = page.getByRole('alert').filter({ hasText: '不能晚於' });
    await expect.poll(() => alert.textContent()).toBe(MESSAGE);
    return alert;
  }

  for (const [size, viewport] of [
    ['1280', DESKTOP],
    ['375', PHONE],
  ] as const) {
    it.each(screens)(`$name at ${size} px says the one sentence and asks for nothing reversed`, async (s) => {
      const page = await e.signedIn('admin', s.path, viewport);
      const seen = requests(page, s.api);
      if (s.phoneToggle && viewport === PHONE) await page.getByTestId(s.phoneToggle).click();
      const alert = await typeReversed(page, s);
      await e.shot(page, `date-range-${s.name}-${size}`);
      // a good range again: the sentence goes and the page asks for that range
      await page.getByTestId(s.to).fill('2026-11-12');
      await expect.poll(() => alert.count()).toBe(0);
      await expect.poll(() => seen.some((q) => q.includes('2026-11-12') && !q.includes('2026-11-10'))).toBe(true);
      expect(
        seen.filter((q) => q.includes('2026-11-12') && q.includes('2026-11-10')),
        'a reversed range was sent',
      ).toEqual([]);
      await page.context().close();
    });
  }

  // 匯款記錄's date fields move into the folded filters on a phone and back: what was typed (and
  // not applied, being reversed) stays, with its sentence, as the layout changes either way
  it.each(screens)(
    '$name keeps a reversed range typed but not applied when the screen turns narrow and wide again',
    async (s) => {
      const page = await e.signedIn('admin', s.path, DESKTOP);
      const alert = await typeReversed(page, s);
      const from = page.getByTestId(s.from);
      await page.setViewportSize(PHONE);
      if (s.phoneToggle) {
        // the layout changed: the phone's 篩選 button, which opens the folded fields
        await page.getByTestId(s.phoneToggle).click();
      }
      await expect.poll(() => from.inputValue()).toBe('2026-11-12');
      expect(await page.getByTestId(s.to).inputValue()).toBe('2026-11-10');
      await expect.poll(() => alert.textContent()).toBe(MESSAGE);
      await page.setViewportSize(DESKTOP);
      await expect.poll(() => page.getByTestId(s.phoneToggle ?? s.from).count()).toBe(s.phoneToggle ? 0 : 1);
      await expect.poll(() => from.inputValue()).toBe('2026-11-12');
      expect(await page.getByTestId(s.to).inputValue()).toBe('2026-11-10');
      await expect.poll(() => alert.textContent()).toBe(MESSAGE);
      await page.context().close();
    },
  );
});
