/**
 * 匯款記錄 from a phone to a wide desk. On a phone every control in a card is a finger's size
 * (44 px) and apart from the next. Below 1200 px, where the menu beside the list leaves it less
 * than 960 px, the list is cards, and every card's status, note and delete are on the screen (the
 * table's began at 905 px on a 768 px tablet). From 1200 px the table: its delete column stays on
 * the screen when the columns run past it, opaque, and the last column scrolls clear of it; from
 * 1280 px, beside the menu or not, every column fits (the 建立時間 column ran under 操作 at 1280
 * beside the menu), nothing is cut without the whole on hover, and the rows stay 28 px.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTaipei } from '../../core/index.js';
import {
  callApi,
  DESK,
  HAS_CHROMIUM,
  minutesAgoToday,
  PHONE,
  SCREENSHOTS,
  seriousFindings,
  settle,
  startE2E,
  type E2E,
} from './harness.js';

/** The menu beside the list closed, as its button does, and the list widened into its room. */
async function closeMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: '關閉選單' }).click();
  await settle(page);
  await expect
    .poll(() => page.evaluate(() => document.querySelector('.RaList-content')!.getBoundingClientRect().left))
    .toBeLessThan(100);
}

/** What a person could not see in the table: cells under the sticky 操作 column, text cut without the whole on hover, content spilling out of its cell. */
interface TableLook {
  fits: boolean;
  problems: string[];
  rowHeights: number[];
}

/** The table scrolled to its end (whichever box around it scrolls sideways, if any), looked at cell by cell. */
async function lookAtTable(page: Page): Promise<TableLook> {
  return page.evaluate(async () => {
    const table = document.querySelector('.RaDatagrid-table') as HTMLElement;
    const scrollers: HTMLElement[] = [];
    for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
      if (el.scrollWidth > el.clientWidth + 0.5 && /auto|scroll/.test(getComputedStyle(el).overflowX))
        scrollers.push(el);
    }
    for (const el of scrollers) el.scrollLeft = el.scrollWidth;
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    const view = (scrollers[0] ?? table.parentElement!).getBoundingClientRect();
    const problems: string[] = [];
    const rows = [...document.querySelectorAll('.RaDatagrid-table tr')] as HTMLElement[];
    const name = (c: Element, i: number) =>
      `${c.closest('thead') ? 'header' : `row ${rows.indexOf(c.parentElement as HTMLElement)}`} column ${i} (${(c.textContent ?? '').trim().slice(0, 16)})`;
    for (const tr of rows) {
      const cells = [...tr.children] as HTMLElement[];
      const sticky = cells[cells.length - 1];
      const s = sticky.getBoundingClientRect();
      const style = getComputedStyle(sticky);
      if (style.position !== 'sticky') problems.push(`${name(sticky, cells.length - 1)} is not sticky`);
      // opaque: what scrolls under it does not show through
      if (!/^rgb\(/.test(style.backgroundColor))
        problems.push(
          `${name(sticky, cells.length - 1)} lets what is under it show through (${style.backgroundColor})`,
        );
      if (s.right > view.right + 0.5 || s.right > innerWidth)
        problems.push(`${name(sticky, cells.length - 1)} runs off the screen`);
      cells.forEach((c, i) => {
        const r = c.getBoundingClientRect();
        if (c !== sticky && r.right > s.left + 0.5 && r.left < s.right)
          problems.push(`${name(c, i)} is under 操作 by ${Math.round(r.right - s.left)} px`);
        if (c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1)
          problems.push(`${name(c, i)} spills out of its cell`);
      });
    }
    // text cut to fit (a long store name, a long username, a long note in its field) says the whole on hover
    for (const el of table.querySelectorAll('tbody *')) {
      if (el.closest('[aria-hidden="true"]')) continue;
      const input = el instanceof HTMLInputElement;
      if (input && el.type === 'hidden') continue;
      if (el.scrollWidth <= el.clientWidth + 1 || (!input && el.children.length > 0)) continue;
      const whole = input ? el.value : (el.textContent ?? '');
      if (el.closest('[title]')?.getAttribute('title') !== whole)
        problems.push(`“${whole}” is cut and its whole is nowhere to hover`);
    }
    return {
      fits: scrollers.length === 0,
      problems,
      rowHeights: [...document.querySelectorAll('tbody tr')].map(
        (tr) => Math.round(tr.getBoundingClientRect().height * 2) / 2,
      ),
    };
  });
}

/**
 * Every control a finger can hit in each card (buttons, the status menu, the note, links,
 * checkboxes, a linked payment's label), with its box; none hidden from people (a select's
 * native input is aria-hidden, under the menu's box).
 */
async function cardTargets(page: Page): Promise<
  Array<{
    card: string;
    height: number;
    targets: Array<{ name: string; x: number; y: number; width: number; height: number }>;
  }>
> {
  return page.locator('[data-testid^="payment-card-"]').evaluateAll((cards) =>
    cards.map((card) => {
      const found = [
        ...card.querySelectorAll(
          'button, a[href], input, select, textarea, [role="button"], [role="combobox"], [role="checkbox"], [tabindex]:not([tabindex="-1"])',
        ),
      ]
        .filter(
          (el) => !el.closest('[aria-hidden="true"]') && !(el instanceof HTMLInputElement && el.type === 'hidden'),
        )
        // a control inside another (an icon's button in a label) is the outer one's target
        .filter((el, _, all) => !all.some((o) => o !== el && o.contains(el)));
      return {
        card: card.getAttribute('data-testid')!,
        height: card.getBoundingClientRect().height,
        targets: found.map((el) => {
          const r = el.getBoundingClientRect();
          return {
            name: el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.textContent ?? el.tagName,
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
          };
        }),
      };
    }),
  );
}

describe.skipIf(!HAS_CHROMIUM)('匯款記錄 from a phone to a wide desk', () => {
  let e: E2E;
  const ids: string[] = [];
  beforeAll(async () => {
    e = await startE2E();
    const store = (await callApi(e, 'POST', '/stores', 'admin', { code: 'KHH9', name: '高雄旗艦店（三多商圈）' })) as {
      id: number;
    };
    for (let i = 0; i < 4; i++) {
      const body =
        i % 2 ? { method: '電子支付', method_detail: 'LINE Pay' } : { method: '匯款', last_five: `5432${i}` };
      const r = (await callApi(e, 'POST', '/payments', 'admin', {
        ...body,
        amount: 128000,
        paid_at: minutesAgoToday(10 + i),
        note: i === 1 ? 'LINE 訂單 #123 王小姐，下午到店取貨' : '',
        store_id: i < 2 ? store.id : e.stores.A.id,
      })) as { uuid?: string };
      expect(r.uuid).toBeTruthy();
      ids.push(r.uuid!);
    }
    // submitted by a long username (18 characters), cut to fit in the table
    const long = (await callApi(e, 'POST', '/payments', 'hq_manage_payments', {
      method: '匯款',
      last_five: '54325',
      amount: 1_280_000,
      paid_at: minutesAgoToday(15),
      note: '',
      store_id: e.stores.A.id,
    })) as { uuid?: string };
    expect(long.uuid).toBeTruthy();
    ids.push(long.uuid!);
    // linked to a bank line: its status is a label with 取消對帳 beside it, the widest status cell
    const at = minutesAgoToday(20);
    const linked = (await callApi(e, 'POST', '/payments', 'admin', {
      method: '匯款',
      last_five: '54329',
      amount: 2000,
      paid_at: at,
      note: '',
      store_id: e.stores.A.id,
    })) as { uuid: string };
    ids.push(linked.uuid);
    const [day, time] = formatTaipei(Date.parse(at), { seconds: true }).split(' ');
    const statement = [
      '存款交易明細',
      '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
      `${day},${time},跨行轉入,0,2000,12000,,0081234554329`,
    ].join('\n');
    const up = await fetch(`${e.url}/api/reconcile/statements?filename=statement.csv&store_id=`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/octet-stream' },
      body: Buffer.from(statement, 'utf8'),
    });
    expect(up.status).toBe(201);
    const date = day.replace(/\//g, '-');
    const proposals = (await callApi(e, 'GET', `/reconcile/proposals?from=${date}&to=${date}&store_id=`, 'admin')) as {
      auto: Array<{ payment: { uuid: string }; line: { id: number } }>;
    };
    const pair = proposals.auto.find((a) => a.payment.uuid === linked.uuid)!;
    expect(
      await callApi(e, 'POST', '/reconcile/confirm', 'admin', {
        pairs: [{ payment: linked.uuid, line: pair.line.id }],
      }),
    ).toEqual({ confirmed: 1 });
  }, 60_000);
  afterAll(async () => e?.close());

  it('at 375 px: every control in a card is 44 px high and wide and 8 px from the next, the cards barely longer; the ‹ › day steps 40 px', async () => {
    const page = await e.signedIn('admin', '/admin/payments', PHONE);
    for (const id of ids) await page.getByTestId(`payment-card-${id}`).waitFor();
    await settle(page);
    const cards = await cardTargets(page);
    expect(cards).toHaveLength(ids.length);
    for (const { card, targets } of cards) {
      // the status menu, the note, delete and 修改付款方式 on each; 確認入帳 or 取消對帳 and the linked label where they apply
      expect(targets.length, card).toBeGreaterThanOrEqual(4);
      for (const t of targets) {
        expect(
          [Math.round(t.width) >= 44, Math.round(t.height) >= 44],
          `${card} ${t.name}: ${Math.round(t.width)}×${Math.round(t.height)}`,
        ).toEqual([true, true]);
        expect(t.x + t.width, `${card} ${t.name} on the screen`).toBeLessThanOrEqual(PHONE.width);
      }
      // apart: 8 px between any two, across or down
      for (const [i, a] of targets.entries())
        for (const b of targets.slice(i + 1)) {
          const gap = Math.max(
            b.x - (a.x + a.width),
            a.x - (b.x + b.width),
            b.y - (a.y + a.height),
            a.y - (b.y + b.height),
          );
          expect(Math.round(gap), `${card}: ${a.name} and ${b.name}`).toBeGreaterThanOrEqual(8);
        }
    }
    // each kind of control is there to be measured
    const names = cards.flatMap((c) => c.targets.map((t) => t.name));
    for (const kind of ['status-', 'note-', 'delete-', 'method-edit-', 'confirm-', 'unlink-'])
      expect(
        names.some((n) => n.startsWith(kind)),
        kind,
      ).toBe(true);
    expect(names).toContain(`status-${ids[5]}`); // the linked label, which opens 對帳明細
    // 162 px a card (182 with a line wrapped) when the controls were 24 to 40 px: 8 more now
    for (const { card, height } of cards) expect(height, card).toBeLessThanOrEqual(190);
    const day = (await page.getByTestId('day-before').boundingBox())!;
    expect([Math.round(day.width), Math.round(day.height)]).toEqual([40, 40]);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth)).toBe(0);
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'payments-cards-375');
    await page.context().close();
  });

  for (const [w, h, menu] of [
    [768, 1024, 'closed'],
    [1024, 768, 'open'],
    [1024, 768, 'closed'],
  ] as const) {
    it(`at ${w} px, menu ${menu}: cards, each card's status, note and delete on the screen; no serious axe finding`, async () => {
      const page = await e.signedIn('admin', '/admin/payments', { width: w, height: h });
      await page.getByTestId(`payment-card-${ids[0]}`).waitFor();
      if (menu === 'closed' && w >= 900) await closeMenu(page);
      expect(await page.locator('table').count()).toBe(0);
      for (const id of ids) {
        const card = page.getByTestId(`payment-card-${id}`);
        for (const part of [
          card.getByTestId(`delete-${id}`),
          card.getByTestId(`note-${id}`),
          card.getByTestId(`status-${id}`),
        ]) {
          const box = (await part.boundingBox())!;
          expect(box.x + box.width, `${id} at ${w}`).toBeLessThanOrEqual(w);
        }
        // nothing in a card runs past its edge
        expect(await card.evaluate((el) => el.scrollWidth - el.clientWidth), id).toBeLessThanOrEqual(0);
      }
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth)).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
      await e.shot(page, `payments-widths-${w}-menu-${menu}`);
      await page.context().close();
    });
  }

  // 1200 px beside the menu: the table scrolls, under an opaque 操作 and clear of it at the end; from 1280 it fits
  const desks: Array<[number, 'open' | 'closed']> = [[1200, 'open']];
  for (const w of [1280, 1366, 1440, 1920]) desks.push([w, 'open'], [w, 'closed']);
  for (const [w, menu] of desks) {
    it(`at ${w} px, menu ${menu}: every column ${w < 1280 ? 'scrolls clear of' : 'fits beside'} 操作, nothing cut without the whole on hover, rows 28 px`, async () => {
      const page = await e.signedIn('admin', '/admin/payments', { width: w, height: 900 });
      for (const id of ids) await page.getByTestId(`delete-${id}`).waitFor();
      if (menu === 'closed') await closeMenu(page);
      await settle(page);
      const look = await lookAtTable(page);
      // all said at once: what is hidden or cut, whether the table fits (from 1280 px), the rows taller than 28 px
      expect({
        problems: look.problems,
        fits: w < 1280 || look.fits,
        tallRows: look.rowHeights.filter((px) => px > 28.5),
      }).toEqual({ problems: [], fits: true, tallRows: [] });
      // the screen as it stands, scrolled to the end where the table scrolls (a full-page capture would redraw it)
      if (w < 1280)
        await page.screenshot({ path: join(SCREENSHOTS, `payments-widths-${w}-menu-${menu}-scrolled.png`) });
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth)).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
      await e.shot(page, `payments-widths-${w}-menu-${menu}`);
      await page.context().close();
    });
  }

  it('at 1280 px: the table; the delete column and its header on the screen, a long store name cut with the whole on hover', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    await page.getByTestId(`delete-${ids[0]}`).waitFor();
    expect(await page.locator('table').count()).toBe(1);
    for (const id of ids)
      expect((await page.getByTestId(`delete-${id}`).boundingBox())!.x + 20).toBeLessThanOrEqual(DESK.width);
    const header = page.locator('thead th').last();
    expect(await header.textContent()).toBe('操作');
    // the header is drawn above the columns that scroll under it
    const { x, y, width, height } = (await header.boundingBox())!;
    expect(
      await page.evaluate(
        ([px, py]) => document.elementFromPoint(px, py)?.closest('th')?.textContent,
        [x + width / 2, y + height / 2],
      ),
    ).toBe('操作');
    const long = page.getByTitle('高雄旗艦店（三多商圈）').first();
    expect(await long.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.context().close();
  });
});
