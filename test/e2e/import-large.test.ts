/**
 * The import wizard says, before reading anything, that a file is too big for the browser and
 * points to `remit import`; at 1280 px and at 375 px.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK, HAS_CHROMIUM, startE2E, type E2E } from './harness.js';

describe.skipIf(!HAS_CHROMIUM)('import wizard and a file too big for the browser', () => {
  let e: E2E;
  const dir = mkdtempSync(join(tmpdir(), 'remit-e2e-big-'));
  const file = join(dir, '一年的匯款.xlsx');
  beforeAll(async () => {
    // 21 MB starting as a zip does: never parsed, so the rest does not matter
    const big = Buffer.alloc(21 * 1024 * 1024);
    big.write('PK\u0003\u0004', 'latin1');
    writeFileSync(file, big);
    e = await startE2E();
  });
  afterAll(async () => {
    await e?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['1280', DESK],
    ['375', { width: 375, height: 800 }],
  ] as const)('at %s px: the file is named, the way out is said, 下一步 stays off', async (w, viewport) => {
    const page = await e.signedIn('admin', '/admin/payments', viewport);
    await page.getByRole('button', { name: 'Excel 匯入' }).click();
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-file-info').waitFor();
    const dialog = page.getByTestId('import-dialog');
    await expect
      .poll(() => dialog.textContent())
      .toContain(
        '檔案大於 20 MB，無法在瀏覽器中匯入。請在伺服器上以指令匯入：remit import 檔案名稱.xlsx（.xlsx 或 CSV 最多 1048576 筆）',
      );
    expect(await page.getByTestId('import-file-info').textContent()).toBe('一年的匯款.xlsx（21504.0 KB）');
    expect(await page.getByRole('button', { name: '下一步' }).isDisabled()).toBe(true);
    await e.shot(page, `import-too-big-${w}`);
  });
});
