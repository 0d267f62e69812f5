/**
 * Scenario 11 of `npm run bench`: an ordinary request (a page of the payment
 * list) while two year-long reconciliations run, as two people asking for a year's proposals at
 * once. Before, the matcher ran on the event loop and a health check waited 3.4 s; now it runs on
 * the worker pool (core/reconcile/matchPool.ts, the server's default settings) and the goal is
 * p99 < 100 ms. The floor: the same page's p99 with nothing else running, in the same run.
 */
import { join } from 'node:path';
import { migrateLatest, openDatabase, taipeiDate } from '../core/index.js';
import { seedDatabase } from './data.js';
import { seedReconcile } from './reconcile-seed.js';
import type { BenchKit } from './streaming.js';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);

export async function benchListBesideReconcile(kit: BenchKit, months: number): Promise<void> {
  const db = join(kit.work, 'reconcile-beside.sqlite');
  const k = openDatabase({ client: 'sqlite', filename: db });
  await migrateLatest(k);
  const [store] = await seedDatabase(k, kit.quick ? 2_000 : 20_000, 11);
  const seeded = await seedReconcile(k, { storeId: store, months });
  await k.destroy();
  const server = await kit.serve({}, ['--db', db]);
  const auth = { authorization: `Bearer ${server.token}` };
  const timedFetch = async (path: string) => {
    const t = performance.now();
    const res = await fetch(`${server.url}/api${path}`, { headers: auth });
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path} ${res.status}: ${Buffer.from(body).toString()}`);
    return performance.now() - t;
  };
  const page = () =>
    timedFetch(`/payments?range=${encodeURIComponent('[0,24]')}&sort=${encodeURIComponent('["paid_at","DESC"]')}`);
  // a year of the statement, as a person asks for it (the first 365 days it lists)
  const year = `from=${taipeiDate(seeded.from)}&to=${taipeiDate(seeded.from + 364 * 86_400_000)}`;
  const proposals = () => timedFetch(`/reconcile/proposals?${year}`);
  try {
    for (let i = 0; i < 20; i++) await page();
    const rest: number[] = [];
    for (let i = 0; i < (kit.quick ? 30 : 300); i++) rest.push(await page());
    // two people asking for the year's proposals, each asking again as soon as answered
    const pages = kit.quick ? 30 : 300;
    const during: number[] = [];
    const reconciles: number[] = [];
    let stop = false;
    const person = async () => {
      while (!stop) reconciles.push(await proposals());
    };
    const people = [person(), person()];
    // pages from the moment both have asked, until both have been answered at least once
    while (during.length < pages || reconciles.length < 2) during.push(await page());
    stop = true;
    await Promise.all(people);
    const p99 = pct(during, 99);
    kit.record(
      {
        scenario: `11. list page while two ${months}-month reconciliations run (${seeded.reports.toLocaleString('en')} payments, ${seeded.lines.toLocaleString('en')} lines, SQLite)`,
        measured: `p99 ${fmt(p99)}, p50 ${fmt(pct(during, 50))} over ${during.length} pages; ${reconciles.length} reconciliations, median ${fmt(pct(reconciles, 50))}`,
        floor: `p99 ${fmt(pct(rest, 99))} alone`,
        ratio: p99 / pct(rest, 99),
        goal: 'p99 < 100 ms',
        met: kit.quick ? null : p99 < 100,
      },
      {
        months,
        seeded,
        rest: { p50: pct(rest, 50), p99: pct(rest, 99) },
        during: { p50: pct(during, 50), p99, pages: during.length },
        reconciles,
      },
    );
  } finally {
    await server.stop();
  }
}
