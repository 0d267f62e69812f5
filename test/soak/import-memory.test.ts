/**
 * The import's memory does not grow with the file: `remit import` of our streamed export at
 * 50 000 and at 200 000 rows, each into an empty database in its own process, peaks at about the
 * same resident memory (the whole-file import held the workbook, its cells and every row: about
 * 5 KB a row, so 150 000 more rows would add over 700 MB). Sizes, not times, so a busy machine
 * cannot fail it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, openDatabase } from '../../core/index.js';
import { seedDatabase, seedDatabaseFast } from '../../bench/data.js';
import { assertBuilt } from '../helpers/cli.js';
import { benchChild } from '../helpers/benchChild.js';

const MB = 1024 * 1024;

describe('import streams: memory flat from 50 000 to 200 000 rows', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-import-mem-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const withDb = async (file: string, fn: (k: ReturnType<typeof openDatabase>) => Promise<void>) => {
    const k = openDatabase({ client: 'sqlite', filename: join(dir, file) });
    try {
      await migrateLatest(k);
      await fn(k);
    } finally {
      await k.destroy();
    }
  };

  it('imports our export whole at both sizes, its peak memory flat', async () => {
    await withDb('source.db', (k) => seedDatabaseFast(k, 50_000, 'a'));
    await benchChild('export-cli', [join(dir, 'source.db'), join(dir, 'small.xlsx')]);
    await withDb('source.db', (k) => seedDatabaseFast(k, 150_000, 'b'));
    await benchChild('export-cli', [join(dir, 'source.db'), join(dir, 'large.xlsx')]);

    const peaks: Record<string, number> = {};
    for (const [name, n] of [
      ['small', 50_000],
      ['large', 200_000],
    ] as const) {
      await withDb(`${name}.db`, async (k) => void (await seedDatabase(k, 0))); // the stores, no payments
      const r = await benchChild('import-cli', [join(dir, `${name}.xlsx`), join(dir, `${name}.db`)]);
      const out = JSON.parse(r.stdout) as {
        rows: number;
        imported: number;
        errors: string[];
        skipped_rows: unknown[];
        skipped_row_count: number;
      };
      // the second seeding repeats the first one's payments, so the large file holds 50 000 repeats, skipped
      expect(out).toMatchObject({ rows: n, imported: name === 'small' ? 50_000 : 150_000, errors: [] });
      expect(out.imported + out.skipped_row_count).toBe(n);
      // the rows named one by one stop at 10 000 (their count does not), so a second import of a big file stays flat too
      expect(out.skipped_rows).toHaveLength(Math.min(out.skipped_row_count, 10_000));
      peaks[name] = r.maxRSS;
    }
    // The small file again into its database: every row is stored already, counted whole, named up to 10 000.
    const again = JSON.parse(
      (await benchChild('import-cli', [join(dir, 'small.xlsx'), join(dir, 'small.db')])).stdout,
    ) as { imported: number; skipped: number; duplicates: number[] };
    expect(again).toMatchObject({ imported: 0, skipped: 50_000 });
    expect(again.duplicates).toHaveLength(10_000);
    expect(again.duplicates.slice(0, 3)).toEqual([2, 3, 4]);

    const say = `${Math.round(peaks.small / MB)} MB → ${Math.round(peaks.large / MB)} MB`;
    process.stderr.write(`import peak RSS: ${say}\n`);
    // What may grow: the keys that find repeats within the file (about 60 bytes a row, 9 MB here),
    // and how much garbage V8 lets pile up before collecting, which varies from run to run: the
    // growth measured 9 to 42 MB over six runs with two other test files beside it. Holding the
    // rows would add over 700 MB; the bound is the export test's, with room for that spread.
    expect(peaks.large - peaks.small, say).toBeLessThan(80 * MB);
    expect(peaks.large, say).toBeLessThan(400 * MB);
  }, 600_000);
});
