/**
 * Scenario 14 of `npm run bench`: an ordinary request (a page of the payment list) while a
 * 12 MB CSV statement of 99 000 rows is imported, again and again (each upload names another
 * account, so every one reads, fingerprints and stores all its lines). Read on the event loop,
 * such a file held every request for up to 4 s; now it is read on the matcher's threads and
 * stored in chunks. The floor: the same page's p99 with nothing else running, in the same run.
 */
import { join } from 'node:path';
import { migrateLatest, openDatabase } from '../core/index.js';
import { seedDatabase } from './data.js';
import { alone, timedListPage, type BenchKit } from './streaming.js';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);

/** A bank's CSV export of `rows` credits, about 125 bytes a row as banks write them. */
export function bigStatement(rows: number): Buffer {
  const out = ['交易日期,交易時間,摘要,支出,存入,餘額,轉出入帳號,備註'];
  const start = Date.UTC(2026, 0, 1);
  let balance = 1_000_000;
  for (let i = 0; i < rows; i++) {
    const at = new Date(start + i * 317_000 + 8 * 3_600_000);
    const amount = 300 + ((i * 7_919) % 40_000);
    balance += amount;
    const day = at.toISOString().slice(0, 10).replace(/-/g, '/');
    const time = at.toISOString().slice(11, 19);
    out.push(
      `${day},${time},跨行轉入,,${amount},${balance},0130000${String(100_000_000 + ((i * 104_729) % 900_000_000))},轉帳留言 訂單${String(i).padStart(6, '0')} 煙具 匯款人 王小明 謝謝`,
    );
  }
  return Buffer.from(out.join('\r\n') + '\r\n', 'utf8');
}

export async function benchListBesideStatement(kit: BenchKit): Promise<void> {
  const db = join(kit.work, 'statement-beside.sqlite');
  const k = openDatabase({ client: 'sqlite', filename: db });
  await migrateLatest(k);
  await seedDatabase(k, kit.quick ? 2_000 : 20_000, 14);
  await k.destroy();
  const rows = kit.quick ? 5_000 : 99_000;
  const file = bigStatement(rows);
  const server = await kit.serve({}, ['--db', db]);
  const auth = { authorization: `Bearer ${server.token}` };
  const page = timedListPage(server, `sort=${encodeURIComponent('["paid_at","DESC"]')}`);
  let uploads = 0;
  const upload = async () => {
    const t = performance.now();
    const account = `0123-456-${String(100_000 + ++uploads)}`;
    const res = await fetch(`${server.url}/api/reconcile/statements?filename=big.csv&account=${account}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(file),
    });
    const body = (await res.json()) as { statement?: { new: number } };
    if (res.status !== 201 || body.statement?.new !== rows)
      throw new Error(`upload ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return performance.now() - t;
  };
  try {
    const rest = await alone(page, kit.quick ? 30 : 300);
    const during: number[] = [];
    const imports: number[] = [];
    let stop = false;
    const importer = (async () => {
      while (!stop) imports.push(await upload());
    })();
    // pages from the moment the first upload is sent, until two imports have finished and enough pages were read
    while (during.length < (kit.quick ? 30 : 300) || imports.length < 2) during.push(await page());
    stop = true;
    await importer;
    const p99 = pct(during, 99);
    kit.record(
      {
        scenario: `14. list page while a ${(file.length / 1024 / 1024).toFixed(1)} MB statement of ${rows.toLocaleString('en')} rows is imported (SQLite)`,
        measured: `p99 ${fmt(p99)}, p50 ${fmt(pct(during, 50))}, max ${fmt(Math.max(...during))} over ${during.length} pages; ${imports.length} imports, median ${fmt(pct(imports, 50))}`,
        floor: `p99 ${fmt(pct(rest, 99))} alone`,
        ratio: p99 / pct(rest, 99),
        goal: 'p99 < 100 ms',
        met: kit.quick ? null : p99 < 100,
      },
      {
        rows,
        bytes: file.length,
        rest: { p50: pct(rest, 50), p99: pct(rest, 99) },
        during: { p50: pct(during, 50), p99, max: Math.max(...during), pages: during.length },
        imports,
      },
    );
  } finally {
    await server.stop();
  }
}
