/**
 * One measured task in its own process, so each starts cold and its peak memory is its own.
 * Prints `BENCH {"ms":…,"maxRSS":…}` on stderr when it exits.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as XLSX from 'xlsx';
import { migrateLatest, openDatabase } from '../core/index.js';

const started = performance.now();
process.on('exit', () => {
  process.stderr.write(
    `BENCH ${JSON.stringify({ ms: performance.now() - started, maxRSS: process.resourceUsage().maxRSS * 1024 })}\n`,
  );
});

const [mode, ...args] = process.argv.slice(2);
// the product as built (dist/), not the bench's own compiled copy of its sources
const cliMain = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js')).href;

async function runCli(argv: string[]) {
  process.argv = [process.argv[0], 'remit', ...argv];
  await import(cliMain);
}

switch (mode) {
  // The ops person's path: `remit import file --json` (parse, validate, duplicates, insert, audit).
  case 'import-cli':
    await runCli(['--db', args[1], 'import', args[0], '--json']);
    break;
  // The floor: the spreadsheet library reads the same file, then a raw batched insert.
  case 'import-floor': {
    const wb = XLSX.read(readFileSync(args[0]), { type: 'buffer', dense: true });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true }).slice(1);
    const db = openDatabase({ client: 'sqlite', filename: args[1] });
    await migrateLatest(db);
    const stores = new Map(
      ((await db('stores').select('id', 'code')) as Array<{ id: number; code: string }>).map((s) => [s.code, s.id]),
    );
    const now = Date.now();
    await db.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) {
        await trx('payments').insert(
          rows.slice(i, i + 500).map((r, j) => ({
            uuid: `floor-${i + j}-${now}`,
            store_id: stores.get(String(r[5])) ?? 1,
            last_five: String(r[1]),
            paid_at: Date.parse(String(r[2]).replace(/\//g, '-').replace(' ', 'T') + ':00+08:00'),
            amount: Number(r[3]),
            status: r[6] === '已點收' ? '已入帳' : '未確認',
            note: String(r[4] ?? ''),
            created_by: null,
            created_at: now,
            updated_at: now,
          })),
        );
      }
    });
    await db.destroy();
    break;
  }
  // the streamed parse of the same file plus a raw batched insert.
  case 'import-stream-floor':
    await (await import('./import-streaming.js')).importStreamFloor(args[0], args[1]);
    break;
  // `remit export -o file` of everything.
  case 'export-cli':
    await runCli(['--db', args[0], 'export', '--verbose', '-o', args[1]]);
    break;
  // `remit export -o file` of everything from PostgreSQL (DATABASE_URL).
  case 'export-cli-pg':
    process.env.DATABASE_URL = args[0];
    process.env.REMIT_JWT_SECRET ??= 'b7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru';
    await runCli(['export', '--verbose', '-o', args[1]]);
    break;
  // The floor: the spreadsheet library writes the same rows, already in memory.
  case 'export-floor': {
    const rows = JSON.parse(readFileSync(args[0], 'utf8')) as unknown[][];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows, { dense: true }), '匯款記錄');
    writeFileSync(args[1], XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }));
    break;
  }
  default:
    throw new Error(`unknown mode ${mode}`);
}
