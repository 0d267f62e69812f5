/**
 * The import's memory does not grow with the file: `remit import` of our streamed export at
 * 50 000 and at 200 000 rows, each into an empty database in its own process, peaks at about the
 * same resident memory (the whole-file import held the workbook, its cells and every row: about
 * 5 KB a row, so 150 000 more rows would add over 700 MB). Sizes, not times, so a busy machine
 * cannot fail it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, openDatabase } from '../core/index.js';
import { seedDatabase, seedDatabaseFast } from '../bench/data.js';
import { assertBuilt } from './helpers/cli.js';

const CHILD = join(import.meta.dirname, '..', 'dist', 'bench', 'child.js');
const MB = 1024 * 1024;

/** A bench child (`export-cli` or `import-cli`) in a fresh process: its peak RSS and what it printed. */
function child(mode: string, args: string[]): Promise<{ maxRSS: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, mode, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d));
    p.stderr.on('data', (d: Buffer) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const m = /BENCH (\{.*\})/.exec(stderr);
      if (code !== 0 || !m) return reject(new Error(`${mode} failed (${code}): ${stderr.slice(0, 2000)}`));
      resolve({ maxRSS: (JSON.parse(m[1]) as { maxRSS: number }).maxRSS, stdout });
    });
  });
}

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
    await child('export-cli', [join(dir, 'source.db'), join(dir, 'small.xlsx')]);
    await withDb('source.db', (k) => seedDatabaseFast(k, 150_000, 'b'));
    await child('export-cli', [join(dir, 'source.db'), join(dir, 'large.xlsx')]);

    const peaks: Record<string, number> = {};
    for (const [name, n] of [['small', 50_000], ['large', 200_000]] as const) {
      await withDb(`${name}.db`, async (k) => void (await seedDatabase(k, 0))); // the stores, no payments
      const r = await child('import-cli', [join(dir, `${name}.xlsx`), join(dir, `${name}.db`)]);
      const out = JSON.parse(r.stdout) as { rows: number; imported: number; errors: string[]; skipped_rows: unknown[] };
      // the second seeding repeats the first one's payments, so the large file holds 50 000 repeats, skipped
      expect(out).toMatchObject({ rows: n, imported: name === 'small' ? 50_000 : 150_000, errors: [] });
      expect(out.imported + out.skipped_rows.length).toBe(n);
      peaks[name] = r.maxRSS;
    }
    const say = `${Math.round(peaks.small / MB)} MB → ${Math.round(peaks.large / MB)} MB`;
    process.stderr.write(`import peak RSS: ${say}\n`);
    // What may grow: the keys that find repeats within the file (about 100 bytes a row, 15 MB here).
    expect(peaks.large - peaks.small, say).toBeLessThan(80 * MB);
    expect(peaks.large, say).toBeLessThan(400 * MB);
  }, 600_000);
});
