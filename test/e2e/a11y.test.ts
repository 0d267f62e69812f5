/**
 * axe-core in Chromium on every page of the back office and the form: each page
 * × each kind of user × 375 and 1280 px, with the dialogs and menus a person opens there (a row
 * ticked and the batch bar shown, a status menu, Excel 匯入, 新增會員, 新增分店, the user menu, the
 * phone's drawer), plus the 對帳 page with every queue filled and 匯款記錄 with 對帳明細 open.
 * No critical and no serious violation (WCAG 2 A/AA); a failure names the page, the user, the
 * width, the rule and the elements.
 *
 * One server and one browser for the file; a context per user and width.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import { type UserRow } from '../../core/users/rows.js';
import { TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { axeFindings, DESK, graveFindings, HAS_CHROMIUM, PHONE, startE2E, type E2E } from './harness.js';

const SIZES = [
  ['375', PHONE],
  // a tablet: the menu beside the pages, which then have 528 px
  ['768', { width: 768, height: 1024 }],
  ['1280', DESK],
] as const;

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註',
  '2026/11/05,14:03:00,跨行轉入,0,1500,1500,***12345',
  '2026/11/06,09:05:00,跨行轉入,0,800,2300,***58812',
  '2026/11/07,12:00:00,利息存入,0,33,2333,',
  '2026/11/10,09:00:00,提款,300,0,2033,',
].join('\n');

/** The kinds of user: what each may do decides which pages, dialogs and menus they see. */
const ROLES = {
  admin: 'admin',
  /** a branch manager: one store, every day-to-day permission, manages the branch's members */
  manager: 'mgrA',
  /** a branch clerk: one store, views and edits */
  clerk: 'branchA',
  /** at the till: reports, takes cash, records cash out and closes the day, and sees no list */
  till: 'tillA',
  /** reads the list and the reports, changes nothing */
  reader: 'readerA',
  /** a headquarters account with no store at all */
  nostore: 'nostoreU',
} as const;
type Role = keyof typeof ROLES;

/** Screens shot for a person to look at (test-output/screenshots/a11y-*.png). */
const SHOTS = [
  'payments · admin · 1280 · a row ticked',
  'users · admin',
  'stores · reader',
  'dashboard · reader',
  'drawer · admin',
  'payments · reader',
];

const PAGES = [
  'payments',
  'dashboard',
  'users',
  'stores',
  'audit',
  'reconcile',
  'close',
  'closes',
  'backups',
  'form',
] as const;
type PageName = (typeof PAGES)[number];

/** Something a person waits for on each page, whatever they may see there (the page, 權限不足, or none of it). */
const READY: Record<PageName, string> = {
  payments:
    '.RaDatagrid-row, [data-testid^="payment-card-"], [data-testid="payments-empty"], [data-testid="payments-forbidden"], [data-testid="payments-no-store"]',
  dashboard: '[data-testid="dashboard-scope"], [data-testid="dashboard-forbidden"], [data-testid="dashboard-no-store"]',
  users:
    '[data-testid^="user-row-"], [data-testid="users-empty"], .MuiAlert-root, .RaAccessDenied-root, [data-testid="not-found"]',
  stores:
    '[data-testid^="store-row-"], .RaDatagrid-row, .MuiAlert-root, .RaAccessDenied-root, [data-testid="not-found"]',
  audit:
    '.RaDatagrid-row, [data-testid^="audit-card-"], [data-testid="audit-empty"], .MuiAlert-root, .RaAccessDenied-root, [data-testid="not-found"]',
  reconcile: '[data-testid="statement-upload"], [data-testid="reconcile-forbidden"], [data-testid="reconcile"]',
  close: '[data-testid="close-status"], [data-testid="close-forbidden"], [data-testid="close-no-store"]',
  closes: '[data-testid="board-table"], [data-testid="board-forbidden"], [data-testid="board-no-store"]',
  backups: '[data-testid="backup-list"], [data-testid="backup-none"], [data-testid="backups-forbidden"]',
  form: 'form',
};
const PATH: Record<PageName, string> = {
  payments: '/admin/payments',
  dashboard: '/admin/dashboard',
  users: '/admin/users',
  stores: '/admin/stores',
  audit: '/admin/audit',
  reconcile: '/admin/reconcile',
  close: '/admin/close',
  closes: '/admin/closes',
  backups: '/admin/backups',
  form: '/',
};

describe.skipIf(!HAS_CHROMIUM)('accessibility (axe-core): every page, every kind of user, 375 and 1280 px', () => {
  let e: E2E;
  let linked = '';
  let backupDir = '';
  /** what axe found per `page · user · width`, all impacts, for the summary */
  const summary = new Map<string, Record<string, number>>();

  /** Runs axe, records the counts under `where`, and checks softly so that one test reports every page. */
  async function check(page: Page, where: string): Promise<void> {
    const found = await axeFindings(page);
    const counts: Record<string, number> = {};
    for (const v of found) counts[v.impact ?? 'unknown'] = (counts[v.impact ?? 'unknown'] ?? 0) + v.count;
    summary.set(where, counts);
    expect.soft(graveFindings(found), where).toEqual([]);
    // the screens whose colours or structure the fixes changed, to look at
    if (SHOTS.some((w) => where.startsWith(w)))
      await e.shot(page, `a11y-${where.replace(/ · /g, '-').replace(/\s+/g, '_')}`);
  }

  beforeAll(async () => {
    backupDir = mkdtempSync(join(tmpdir(), 'remit-a11y-backups-'));
    e = await startE2E(undefined, { backups: { dir: backupDir } });
    const ctx = { db: e.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const A = e.stores.A.id;
    // a failed sign-in: its 登入失敗 entry in 稽核紀錄
    const failed = await fetch(`${e.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'not-the-password-1' }),
    });
    expect(failed.status).toBe(401);
    const extra: Record<string, Record<string, unknown>> = {
      mgrA: {
        role: 'user',
        store_id: A,
        permissions: [
          'manage_users',
          'manage_payments',
          'view_payments',
          'edit_payments',
          'delete_payments',
          'view_reports',
          'record_takings',
          'record_cash_out',
          'close_day',
          'confirm_payments',
        ],
      },
      tillA: { role: 'user', store_id: A, permissions: ['record_takings', 'record_cash_out', 'close_day'] },
      readerA: { role: 'user', store_id: A, permissions: ['view_payments', 'view_reports'] },
      nostoreU: {
        role: 'user',
        store_id: null,
        accessible_stores: [],
        permissions: ['view_payments', 'edit_payments', 'view_reports'],
      },
    };
    for (const [username, spec] of Object.entries(extra)) {
      const u = await createUser(ctx, { username, password: PASSWORD, ...spec });
      const row = (await e.t.db<UserRow>('users').where({ id: u.id }).first())!;
      e.tokens[username] = signToken(TEST_SECURITY, row);
    }
    const call = async <T>(method: string, path: string, body?: unknown, type = 'application/json'): Promise<T> => {
      const res = await fetch(`${e.url}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': type },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
      return (await res.json()) as T;
    };
    // A full first page in the list's default dates (the last three days): notes and none (無備註), two stores.
    for (let i = 0; i < 27; i++) {
      const at = new Date(Date.now() - (i + 1) * 3600_000).toISOString();
      const store = i % 5 === 4 ? e.stores.B.id : A;
      await call('POST', '/payments', {
        last_five: String(40000 + i * 7).padStart(5, '0'),
        paid_at: at,
        amount: 500 + i * 10,
        note: i % 3 === 0 ? `客人 ${i}` : '',
        store_id: store,
      });
    }
    const pay = (last_five: string, at: string, amount: number) =>
      call<{ uuid: string }>('POST', '/payments', {
        last_five,
        paid_at: `2026-11-${at}+08:00`,
        amount,
        note: '',
        store_id: A,
      });
    const clear = await pay('12345', '05T14:00', 1500); // confirmed below: 對帳明細
    await pay('30303', '06T09:00', 800); // another account's digits: a review card with nothing chosen
    await pay('22222', '06T13:00', 4000); // nothing pays it: 未入帳候選
    await call(
      'POST',
      `/reconcile/statements?filename=statement.csv&store_id=${A}`,
      STATEMENT,
      'application/octet-stream',
    );
    const p = await call<{ auto: Array<{ payment: { uuid: string }; line: { id: number } }> }>(
      'GET',
      '/reconcile/proposals?from=2026-11-05&to=2026-11-10&store_id=',
    );
    const pair = p.auto.find((a) => a.payment.uuid === clear.uuid)!;
    await call('POST', '/reconcile/confirm', { pairs: [{ payment: clear.uuid, line: pair.line.id }] });
    linked = clear.uuid;
  });
  afterAll(async () => {
    // the counts per page, user and width, every impact (moderate and minor are not failures)
    const lines = [...summary].map(
      ([where, c]) =>
        `${where.padEnd(40)} ${
          Object.entries(c)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ') || 'none'
        }`,
    );
    console.log(`axe-core violations (elements per impact):\n${lines.join('\n')}`);
    await e?.close();
    if (backupDir) rmSync(backupDir, { recursive: true, force: true });
  });

  /** Opens `open` (a dialog, a menu), checks the page with it open, and closes it with Escape. */
  async function withOpen(page: Page, where: string, open: () => Promise<void>): Promise<void> {
    await open();
    await check(page, where);
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.locator('.MuiPopover-root, .MuiDialog-root, .MuiModal-root:not(.MuiDrawer-root)').count())
      .toBe(0);
  }

  for (const [size, viewport] of SIZES) {
    const phone = viewport.width < 600;

    it(`the sign-in page at ${size} px`, async () => {
      const ctx = await e.context(viewport);
      const page = await ctx.newPage();
      await page.goto(`${e.url}/admin/login`);
      await page.getByLabel('密碼').waitFor();
      await check(page, `login · - · ${size}`);
      await ctx.close();
    });

    for (const role of Object.keys(ROLES) as Role[]) {
      it(`every page for the ${role} at ${size} px`, async () => {
        const user = ROLES[role];
        const ctx = await e.context(viewport);
        await e.addSession(ctx, e.tokens[user]);
        const page = await ctx.newPage();
        for (const name of PAGES) {
          await page.goto(`${e.url}${PATH[name]}`);
          await page
            .locator(READY[name])
            .first()
            .waitFor()
            .catch(async (err) => {
              await e.shot(page, `a11y-not-ready-${name}-${role}-${size}`);
              throw err;
            });
          await expect.poll(() => page.locator('.MuiLinearProgress-root, .MuiCircularProgress-root').count()).toBe(0);
          const where = `${name} · ${role} · ${size}`;
          await check(page, where);

          if (name === 'payments') {
            const status = page.getByRole('combobox', { name: '狀態' }).first();
            if (await status.count()) {
              await withOpen(page, `${where} · status menu`, async () => {
                await status.click();
                await page.getByRole('option').first().waitFor();
              });
            }
            const tick = page.locator('.RaDatagrid-row input[type="checkbox"]').first();
            if (!phone && (await tick.count())) {
              await tick.check();
              await page.locator('.RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)').waitFor();
              await check(page, `${where} · a row ticked`);
              await tick.uncheck();
            }
            // 修改付款方式 of a transfer: its locked last five says why, readably
            const method = page.locator('[data-testid^="method-edit-"]').first();
            if (await method.count()) {
              await withOpen(page, `${where} · 修改付款方式`, async () => {
                await method.click();
                await page.getByTestId('method-edit-dialog').waitFor();
              });
            }
            const importButton = page.getByRole('button', { name: 'Excel 匯入' });
            if (await importButton.count()) {
              await withOpen(page, `${where} · Excel 匯入`, async () => {
                await importButton.click();
                await page.getByTestId('import-dialog').waitFor();
              });
            }
          }
          if (name === 'users') {
            const add = page.getByRole('button', { name: '新增會員' });
            if (await add.count()) {
              await withOpen(page, `${where} · 新增會員`, async () => {
                await add.click();
                await page.getByRole('dialog').waitFor();
              });
            }
            // 編輯會員: the locked username says why, readably
            const editUser = page.getByTestId(`user-row-${ROLES.clerk}`).getByRole('button', { name: '編輯' });
            if ((await editUser.count()) && (await editUser.isEnabled())) {
              await withOpen(page, `${where} · 編輯會員`, async () => {
                await editUser.click();
                await page.getByRole('dialog').waitFor();
              });
            }
          }
          if (name === 'stores') {
            const add = page.getByTestId('store-add');
            if (await add.count()) {
              await withOpen(page, `${where} · 新增分店`, async () => {
                await add.click();
                await page.getByTestId('store-form-dialog').waitFor();
              });
            }
            const link = page.getByRole('button', { name: /^公開連結 / }).first();
            if (await link.count()) {
              await withOpen(page, `${where} · 公開連結`, async () => {
                await link.click();
                await page.getByTestId('store-link-dialog').getByRole('button', { name: '關閉' }).waitFor();
                await expect.poll(() => page.locator('.MuiCircularProgress-root').count()).toBe(0);
              });
            }
          }
        }
        // the user menu (the top bar's on a desk, the drawer on a phone) and the own-password dialog
        await page.goto(`${e.url}/admin/payments`);
        await page.locator(READY.payments).first().waitFor();
        if (phone) {
          await page
            .getByRole('button', { name: /開啟選單|選單/ })
            .first()
            .click();
          await page.getByTestId('mobile-menu-extras').waitFor();
          await check(page, `drawer · ${role} · ${size}`);
          await page.getByRole('menuitem', { name: '更改密碼' }).click();
        } else if (!(await page.getByTestId('user-menu').count())) {
          // a tablet: the account's items stand in the menu beside the page
          await page.getByText('更改密碼', { exact: true }).click();
        } else {
          await withOpen(page, `user menu · ${role} · ${size}`, async () => {
            await page.getByTestId('user-menu').click();
            await page.getByRole('menuitem', { name: '更改密碼' }).waitFor();
          });
          await page.getByTestId('user-menu').click();
          await page.getByRole('menuitem', { name: '更改密碼' }).click();
        }
        await page.getByRole('dialog').waitFor();
        await check(page, `password dialog · ${role} · ${size}`);
        await ctx.close();
      });
    }

    it(`對帳 with every queue at ${size} px`, async () => {
      const page = await e.signedIn('admin', '/admin/reconcile', viewport);
      await page.getByLabel('起日').fill('2026-11-05');
      await page.getByLabel('迄日').fill('2026-11-10');
      await expect.poll(() => page.getByTestId('review-item').count()).toBe(1);
      await expect.poll(() => page.getByTestId('unpaid-item').count()).toBe(1);
      expect(await page.getByTestId('review-decide').isDisabled()).toBe(true); // another account's digits: nothing chosen
      await check(page, `reconcile queues · admin · ${size}`);
      await page.context().close();
    });

    it(`匯款記錄 with 對帳明細 open at ${size} px`, async () => {
      const filter = encodeURIComponent(JSON.stringify({ paid_at_gte: '2026-11-01', paid_at_lte: '2026-11-10' }));
      const page = await e.signedIn('admin', `/admin/payments?filter=${filter}`, viewport);
      const label = page.getByTestId(`status-${linked}`);
      await label.click();
      await expect.poll(() => page.getByTestId('linked-line').textContent()).toContain('statement.csv 第 3 列');
      await check(page, `payments 對帳明細 · admin · ${size}`);
      await e.shot(page, `linked-line-${size}`);
      await page.context().close();
    });
  }
});
