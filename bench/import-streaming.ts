/**
 * `remit import` of our own streamed .xlsx export at 100 000
 * and 1 000 000 rows into an empty database, against a floor measured in the same run: the same
 * streamed parse (zip inflated and sheet XML scanned as it comes) plus a raw batched insert in one
 * transaction, without the row rules, the duplicate checks or the audit. Peak memory is the child
 * process's high-water RSS as the kernel counts it (getrusage), which no sampling can miss.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { migrateLatest, openDatabase } from '../core/index.js';
import { serialToInstant } from '../core/spreadsheets/serial.js';
import { insertRows } from '../core/db/batch.js';
import { openXlsxStream } from '../core/spreadsheets/xlsxRead.js';
import { SHEET_NAME } from '../core/payments/sheetFile.js';
import { seedDatabase, seedDatabaseFast } from './data.js';
import type { BenchKit } from './streaming.js';

const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

async function emptyDb(file: string): Promise<string> {
  const k = openDatabase({ client: 'sqlite', filename: file });
  try {
    await migrateLatest(k);
    await k('payments').del();
    await seedDatabase(k, 0); // the stores
  } finally {
    await k.destroy();
  }
  return file;
}

export async function benchStreamingImport(kit: BenchKit, sizes: number[]): Promise<void> {
  const source = join(kit.work, 'stream-import-source.sqlite');
  const k = openDatabase({ client: 'sqlite', filename: source });
  await migrateLatest(k);
  const peaks: number[] = [];
  let have = 0;
  try {
    for (const n of sizes) {
      await seedDatabaseFast(k, n - have, `i${n}`);
      have = n;
      await k.raw('pragma wal_checkpoint(truncate)');
      const file = join(kit.work, `stream-import-${n}.xlsx`);
      await kit.child('export-cli', [source, file]);
      const ours: Array<{ ms: number; maxRSS: number }> = [];
      const floor: Array<{ ms: number; maxRSS: number }> = [];
      // a million rows takes minutes a run on a shared machine: one run there
      const runs = n >= 1_000_000 ? 1 : kit.runs;
      for (let i = 0; i < runs; i++) {
        ours.push(await kit.child('import-cli', [file, await emptyDb(join(kit.work, `stream-import-a-${n}.sqlite`))]));
        floor.push(
          await kit.child('import-stream-floor', [file, await emptyDb(join(kit.work, `stream-import-b-${n}.sqlite`))]),
        );
      }
      const t = median(ours.map((r) => r.ms));
      const f = median(floor.map((r) => r.ms));
      const rss = Math.max(...ours.map((r) => r.maxRSS));
      peaks.push(rss);
      const judged = !kit.quick && n >= 100_000;
      kit.record(
        {
          scenario: `10. import ${n.toLocaleString('en')} rows from our .xlsx (streamed)`,
          measured: `${fmt(t)}, peak ${(rss / MB).toFixed(0)} MB${peaks.length > 1 ? ` (at ${sizes[0].toLocaleString('en')}: ${(peaks[0] / MB).toFixed(0)} MB)` : ''}`,
          floor: `${fmt(f)} (same parse + raw batched insert, peak ${(Math.max(...floor.map((r) => r.maxRSS)) / MB).toFixed(0)} MB)`,
          ratio: t / f,
          goal: '≤ 1.5x, < 1 GB',
          met: judged ? t / f <= 1.5 && rss < 1024 * MB : null,
        },
        { rows: n, ours, floor },
      );
    }
  } finally {
    await k.destroy();
  }
}

/** The floor (run in bench/child.js): the streamed parse of the file, then a raw batched insert in one transaction. */
export async function importStreamFloor(file: string, dbFile: string): Promise<void> {
  const db = openDatabase({ client: 'sqlite', filename: dbFile });
  try {
    const stores = new Map(
      ((await db('stores').select('id', 'name')) as Array<{ id: number; name: string }>).map((s) => [
        s.name,
        Number(s.id),
      ]),
    );
    const book = await openXlsxStream(file, SHEET_NAME);
    const now = Date.now();
    await db.transaction(async (trx) => {
      let batch: Array<Record<string, unknown>> = [];
      for await (const rows of book.rows()) {
        for (const { row, cells } of rows) {
          if (row === 1) continue;
          batch.push({
            // the rows as stored: a random tracking number each (its index costs what the product's does)
            uuid: randomUUID(),
            store_id: stores.get(String(cells[5]?.v ?? '')) ?? 1,
            last_five: String(cells[1]?.v ?? ''),
            paid_at: serialToInstant(Number(cells[2]?.v)) ?? 0,
            amount: Number(cells[3]?.v),
            status: cells[6]?.v === '已點收' ? '已入帳' : '未確認',
            note: String(cells[4]?.v ?? ''),
            created_by: null,
            created_at: now,
            updated_at: now,
          });
          if (batch.length >= 5_000) {
            await insertRows(trx, 'payments', batch);
            batch = [];
          }
        }
      }
      await insertRows(trx, 'payments', batch);
    });
  } finally {
    await db.destroy();
  }
}
