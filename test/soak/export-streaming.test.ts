/**
 * The export's memory does not grow with the data: `remit export` of 50 000 and of 200 000
 * payments, each in its own process, peaks at the same resident memory within a margin far below
 * what holding the rows would cost (the whole-file export grew by about 3.8 KB a row, so 150 000
 * more rows would add over 500 MB). Sizes, not times, so a busy machine cannot fail it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, openDatabase } from '../../core/index.js';
// The bench's generator and its child runner (built into dist/ with everything else).
import { seedDatabaseFast } from '../../bench/data.js';
import { assertBuilt } from '../helpers/cli.js';
import { benchChild } from '../helpers/benchChild.js';

const MB = 1024 * 1024;

const exportPeak = (db: string, out: string) => benchChild('export-cli', [db, out]);

describe('export streams: memory flat from 50 000 to 200 000 rows', () => {
  let dir: string;
  let db: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-stream-'));
    db = join(dir, 'remit.db');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const seed = async (n: number, s: string) => {
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      await migrateLatest(k);
      await seedDatabaseFast(k, n, s);
    } finally {
      await k.destroy();
    }
  };

  it('exports the .xlsx whole at both sizes, its peak memory under 300 MB and flat', async () => {
    await seed(50_000, 'a');
    const small = await exportPeak(db, join(dir, 'small.xlsx'));
    await seed(150_000, 'b');
    const large = await exportPeak(db, join(dir, 'large.xlsx'));

    expect(small.stdout).toContain('已匯出 50000 筆記錄');
    expect(large.stdout).toContain('已匯出 200000 筆記錄');
    // The file grew with the rows (it is complete), the memory did not: what remains is V8 settling
    // its heap (about 50 MB, then flat to a million), where holding the rows would add over 500 MB.
    expect(statSync(join(dir, 'large.xlsx')).size).toBeGreaterThan(3.5 * statSync(join(dir, 'small.xlsx')).size);
    const say = `${Math.round(small.maxRSS / MB)} MB → ${Math.round(large.maxRSS / MB)} MB`;
    expect(large.maxRSS - small.maxRSS, say).toBeLessThan(80 * MB);
    expect(large.maxRSS, say).toBeLessThan(300 * MB);
  }, 180_000);
});
