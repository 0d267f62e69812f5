/**
 * On the 對帳 page: a one-store accountant imports without being asked for a store,
 * types the statement's account, confirms, and finds the payer under 已記住的付款人, where they
 * forget it after a confirmation; another store's staff never see it; someone with several
 * stores must choose one before importing. At 375 px and 1280 px nothing scrolls sideways.
 * (The project has no axe-core; the checks here are the section's heading, the buttons' names
 * and the dialog's text.)
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import { type UserRow } from '../../core/users/rows.js';
import { TEST_SECURITY } from '../helpers/db.js';
import { DESK as DESKTOP, HAS_CHROMIUM, PHONE, settle, startE2E, type E2E } from './harness.js';

const STATEMENT = [
  '存款交易明細',
  '交易日期,交易時間,摘要,支出,存入,餘額,備註,對方帳號',
  '2026/11/05,14:03:00,跨行轉入,0,1500,15500,,8220000012345',
  '2026/11/06,09:05:00,跨行轉入,0,2600,18100,,0081234524680',
].join('\n');

describe.skipIf(!HAS_CHROMIUM)('已記住的付款人 on the 對帳 page', () => {
  let e: E2E;
  const uuids: Record<string, string> = {};

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${e.url}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${e.tokens.admin}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
    return (await res.json()) as T;
  }
  const overflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  beforeAll(async () => {
    e = await startE2E();
    const ctx = { db: e.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const u = await createUser(ctx, {
      username: 'tpe_acct',
      password: 'shop-key-4821',
      role: 'user',
      store_id: e.stores.A.id,
      permissions: ['view_payments', 'edit_payments', 'manage_payments', 'confirm_payments'],
    });
    e.tokens.tpe_acct = signToken(TEST_SECURITY, (await e.t.db<UserRow>('users').where({ id: u.id }).first())!);
    for (const [name, last_five, at, amount] of [
      ['clear', '12345', '05T14:00', 1500],
      ['second', '24680', '06T09:00', 2600],
    ] as const) {
      uuids[name] = (
        await api<{ uuid: string }>('POST', '/payments', {
          last_five,
          paid_at: `2026-11-${at}+08:00`,
          amount,
          note: '',
          store_id: e.stores.A.id,
        })
      ).uuid;
    }
  });
  afterAll(async () => {
    await e?.close();
  });

  it('a one-store accountant imports without choosing a store, confirms, and forgets the payer it taught (1280 px)', async () => {
    const page = await e.signedIn('tpe_acct', '/admin/reconcile', DESKTOP);
    await page.getByTestId('statement-upload').waitFor();
    expect(await page.getByTestId('statement-store').count()).toBe(0);
    await page.getByTestId('statement-account').fill('0123-456-789012');
    await page
      .getByTestId('statement-file')
      .setInputFiles({ name: '11月.csv', mimeType: 'text/csv', buffer: Buffer.from(STATEMENT, 'utf8') });
    const summary = page.getByTestId('statement-summary');
    await expect.poll(() => summary.textContent()).toContain('新增 2 筆');
    expect(await page.getByTestId('statement-account-read').textContent()).toBe('銀行帳號：0123-456-789012');
    const stored = await e.t.db('bank_statements').first();
    expect(stored).toMatchObject({ store_id: e.stores.A.id, account: '0123-456-789012' });

    const section = page.getByTestId('payers');
    await expect.poll(() => section.textContent()).toContain('尚未記住任何付款人');
    expect(await section.getByRole('heading', { name: '已記住的付款人' }).count()).toBe(1);

    const auto = page.getByTestId('queue-auto').getByTestId('auto-item');
    await expect.poll(() => auto.count()).toBeGreaterThan(0);
    // the line shows its account where the queues show it
    expect(await auto.first().textContent()).toContain('銀行帳號：0123-456-789012');
    await page.getByTestId('auto-confirm').click();
    await expect.poll(() => auto.count()).toBe(0);

    const cards = section.getByTestId(/^payer-\d+$/);
    await expect.poll(() => cards.count()).toBe(2);
    const card = cards.filter({ hasText: '8220000012345' });
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('對帳單上的付款人：8220000012345');
    expect(text).toContain('後五碼：12345');
    expect(text).toContain('台北店 (TPE)');
    expect(text).toMatch(/記住時間：\d{4}\/\d{2}\/\d{2}/);
    // 確認入帳 on the page is a person's decision, even for 建議入帳
    expect(text).toContain('tpe_acct 確認');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0)); // a full-page shot taken scrolled draws the fixed bar mid-page
    await e.shot(page, 'reconcile-payers-desktop');

    // 忘記, after a confirmation that says what it does
    await card.getByRole('button', { name: '忘記 8220000012345' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('忘記付款人「8220000012345」（後五碼 12345）？');
    await settle(page);
    await e.shot(page, 'reconcile-payers-forget-dialog');
    await page.getByTestId('forget-confirm').click();
    await expect.poll(() => cards.count()).toBe(1);
    expect(await e.t.db('reconcile_payers').where({ payer: '8220000012345' })).toEqual([]);
    const audit = await e.t.db('audit_log').where({ entity: 'payer', action: 'delete' });
    expect(audit.map((a) => a.actor_username)).toEqual(['tpe_acct']);
    await page.context().close();
  });

  it('at 375 px the section fits; another store’s staff do not see it; several stores must choose before importing', async () => {
    const phone = await e.signedIn('tpe_acct', '/admin/reconcile', PHONE);
    const cards = phone.getByTestId('payers').getByTestId(/^payer-\d+$/);
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().textContent()).toContain('81234524680'); // a whole account, without the leading zeros a spreadsheet program may drop;
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    const box = await cards.first().boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await e.shot(phone, 'reconcile-payers-phone');
    await phone.context().close();

    const other = await e.signedIn('branchB', '/admin/reconcile', DESKTOP);
    await expect.poll(() => other.getByTestId('payers').textContent()).toContain('尚未記住任何付款人');
    expect(await other.getByTestId('payers').textContent()).not.toContain('81234524680');
    await other.context().close();

    // headquarters import staff with stores A and B: the upload waits for a store
    const hq = await e.signedIn('hq_manage_payments', '/admin/reconcile', PHONE);
    const upload = hq.getByTestId('statement-upload');
    await upload.waitFor();
    expect(await upload.isDisabled()).toBe(true);
    await hq.getByTestId('statement-store').click();
    await hq.getByRole('option', { name: '台中店 (TXG)' }).click();
    await expect.poll(() => upload.isDisabled()).toBe(false);
    // without view_payments the memory is not shown at all
    expect(await hq.getByTestId('payers').count()).toBe(0);
    expect(await overflow(hq)).toBeLessThanOrEqual(0);
    await e.shot(hq, 'reconcile-choose-store-phone');
    await hq.context().close();
    expect(e.errors).toEqual([]);
  });
});
