/**
 * 備份 in the back office, as headquarters' admin uses it: a backup downloaded while the shop works on, the
 * same file restored after seeing what it holds and typing 還原, and the data back as it was; every wrong or
 * hostile file refused with its sentence and nothing lost; the page at 1280 and 375 px, axe-core clean; and
 * no entry, and 權限不足, for anyone else.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, DESK, HAS_CHROMIUM, PHONE, seriousFindings, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('the 備份 page', () => {
  let e: E2E;
  let dir: string;
  let work: string;
  let downloaded: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'remit-e2e-backups-'));
    work = mkdtempSync(join(tmpdir(), 'remit-e2e-files-'));
    e = await startE2E(undefined, { backups: { dir } });
    for (let i = 0; i < 3; i++)
      await callApi(e, 'POST', '/payments', 'admin', {
        last_five: String(70000 + i),
        paid_at: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
        amount: 1000 + i,
        store_id: e.stores.A.id,
      });
  });
  afterAll(async () => {
    await e?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const paymentCount = async () => {
    const r = await fetch(`${e.url}/api/payments?range=${encodeURIComponent('[0,0]')}`, {
      headers: { authorization: `Bearer ${e.tokens.admin}` },
    });
    return Number(/\/(\d+)$/.exec(r.headers.get('content-range') ?? '')![1]);
  };

  async function choose(page: Page, file: string) {
    await page.getByTestId('backup-file').setInputFiles(file);
  }

  it('downloads a backup, restores it after the typed 還原, and the data comes back (1280 px)', async () => {
    const page = await e.signedIn('admin', '/admin/payments', DESK);
    await page.getByRole('menuitem', { name: '備份' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/backups');
    await page.getByTestId('backup-none').waitFor();
    expect(await seriousFindings(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-take').click()]);
    downloaded = join(work, download.suggestedFilename());
    await download.saveAs(downloaded);
    expect(download.suggestedFilename()).toMatch(/^remit-\d{8}-\d{6}-\d{3}-manual\.backup\.gz$/);
    expect(gunzipSync(readFileSync(downloaded)).subarray(0, 15).toString()).toBe('remit-backup 1\n');
    await expect.poll(() => page.getByTestId('backup-taken').textContent()).toContain('開始下載');
    await expect.poll(() => page.getByTestId('backup-row').count()).toBe(1);
    expect(await page.getByTestId('backup-row').first().textContent()).toContain('手動');

    // work goes on after the backup: a payment the restore will take away
    const before = await paymentCount();
    await callApi(e, 'POST', '/payments', 'admin', {
      last_five: '88888',
      paid_at: new Date(Date.now() - 600_000).toISOString(),
      amount: 4321,
      store_id: e.stores.B.id,
    });
    expect(await paymentCount()).toBe(before + 1);

    await choose(page, downloaded);
    const holds = page.getByTestId('backup-holds');
    await holds.waitFor();
    const text = (await holds.textContent()) ?? '';
    expect(text).toContain(`匯款${before} 筆`);
    expect(text).toContain('分店3 家');
    expect(text).toMatch(/備份時間\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/);
    const restore = page.getByTestId('backup-restore');
    expect(await restore.isDisabled()).toBe(true);
    await page.getByTestId('backup-confirm').fill('還');
    expect(await restore.isDisabled()).toBe(true);
    await page.getByTestId('backup-confirm').fill('還原');
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'backups-confirm-1280');
    await restore.click();
    await expect.poll(() => page.getByTestId('backup-restored').textContent()).toContain('還原前的資料已備份為');
    expect(await paymentCount()).toBe(before);
    await expect.poll(() => page.getByTestId('backup-row').count()).toBe(2);
    expect(await page.getByTestId('backup-list').textContent()).toContain('還原前');

    // 匯款記錄 shows the data as the backup held it: the later payment is gone
    await page.getByRole('menuitem', { name: '匯款記錄' }).click();
    await page.getByText('70000').first().waitFor();
    expect(await page.getByText('88888').count()).toBe(0);
    expect(e.errors).toEqual([]);
    await page.context().close();
  });

  it('refuses every wrong or hostile file with its sentence, and nothing is lost', async () => {
    const whole = readFileSync(downloaded);
    const raw = gunzipSync(whole);
    const cut = raw.indexOf(10, raw.indexOf(10) + 1) + 1;
    const header = JSON.parse(raw.subarray(raw.indexOf(10) + 1, cut - 1).toString());
    const flipped = Buffer.from(raw);
    flipped[flipped.length - 200] ^= 1;
    const files: Array<[string, Buffer, string]> = [
      ['notes.txt', Buffer.from('a shopping list\n'), '不是 remit 的備份檔，也不是 SQLite 資料庫檔案：notes.txt'],
      [
        'cut.backup.gz',
        whole.subarray(0, Math.floor(whole.length / 2)),
        '備份檔不完整（可能在下載或複製時中斷），未還原任何資料',
      ],
      ['edited.backup.gz', gzipSync(flipped), '備份檔的內容與檢查碼不符（檔案已損壞或被修改），未還原任何資料'],
      [
        'bomb.backup.gz',
        gzipSync(Buffer.concat([raw.subarray(0, cut), Buffer.alloc(48 * 1024 * 1024)])),
        '備份檔的內容與標頭記載的不符（檔案已損壞或被修改），未還原任何資料',
      ],
      [
        'future.backup.gz',
        gzipSync(Buffer.from(`remit-backup 1\n${JSON.stringify({ ...header, payload_bytes: 8 * 1024 ** 3 })}\n`)),
        '備份檔解壓縮後超過上限 4096 MB，已拒絕',
      ],
    ];
    const count = await paymentCount();
    const page = await e.signedIn('admin', '/admin/backups', DESK);
    await page.getByTestId('backup-list').waitFor();
    for (const [name, bytes, message] of files) {
      const path = join(work, name);
      writeFileSync(path, bytes);
      await choose(page, path);
      await expect.poll(() => page.getByTestId('backup-error').textContent(), { message: name }).toBe(message);
      expect(await page.getByTestId('backup-holds').count()).toBe(0);
    }
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'backups-refused-1280');
    expect(await paymentCount()).toBe(count);
    await page.context().close();
  });

  it('at 375 px: the list as cards, each downloadable, the restore reachable; axe-core clean', async () => {
    const page = await e.signedIn('admin', '/admin/backups', PHONE);
    await page.getByTestId('backup-list').waitFor();
    const rows = page.getByTestId('backup-row');
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    const link = rows.first().getByRole('link', { name: /^下載 / });
    expect(await link.getAttribute('href')).toMatch(/^\/api\/backups\/remit-.*\.backup\.gz$/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.backup\.gz$/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousFindings(page)).toEqual([]);
    await choose(page, downloaded);
    await page.getByTestId('backup-holds').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await e.shot(page, 'backups-375');
    await page.context().close();
  });

  it('anyone else: no menu entry, and the page says 權限不足', async () => {
    for (const who of ['branchA', 'hq_system_admin']) {
      const page = await e.signedIn(who, '/admin/backups', DESK);
      await page.getByTestId('backups-forbidden').waitFor();
      expect(await page.getByRole('menuitem', { name: '備份' }).count()).toBe(0);
      expect(await seriousFindings(page)).toEqual([]);
      await page.context().close();
    }
  });
});
