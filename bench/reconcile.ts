/**
 * The reconciliation scenario of `npm run bench`: a synthetic month with its ground truth
 * (bench/reconcile-data.ts) through `matchReconcile`, scored for precision, recall, review ranking
 * and false unpaid; then the time for the month, and the time and peak memory for a year in a
 * fresh process (bench/reconcile-child.ts). The floor: indexing the same lines by amount and
 * sorting them by time, the least any matcher must do.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { matchReconcile } from '../core/reconcile/match.js';
import { generate, score } from './reconcile-data.js';

export interface ReconcileRow {
  scenario: string;
  measured: string;
  floor: string;
  ratio: number | null;
  goal: string;
  met: boolean | null;
}

const DIST = resolve(import.meta.dirname, '..');
const pc = (x: number) => `${(x * 100).toFixed(1)}%`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export function floorIndex(lines: { amount: number; at: number }[]): number {
  const t0 = performance.now();
  const by = new Map<number, { amount: number; at: number }[]>();
  for (const l of lines) {
    const g = by.get(l.amount);
    if (g) g.push(l);
    else by.set(l.amount, [l]);
  }
  for (const g of by.values()) g.sort((a, b) => a.at - b.at);
  return performance.now() - t0;
}

function yearChild(months: number): Promise<{ ms: number; floor: number; maxRSS: number; reports: number; precision: number; recall: number }> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [join(DIST, 'bench', 'reconcile-child.js'), String(months)], { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH } });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => {
      const m = /BENCH (\{.*\})/.exec(err);
      if (code !== 0 || !m) rej(new Error(`reconcile year failed (${code}): ${err}`));
      else res(JSON.parse(m[1]));
    });
  });
}

export async function benchReconcile(record: (r: ReconcileRow, data: Record<string, unknown>) => void, quick: boolean, runs: number) {
  const month = generate({ months: 1, perDay: quick ? 10 : 50 });
  const times: number[] = [];
  const floors: number[] = [];
  let res = matchReconcile(month.reports, month.lines, { coverage: month.coverage });
  for (let k = 0; k < runs; k++) {
    floors.push(floorIndex(month.lines));
    const t0 = performance.now();
    res = matchReconcile(month.reports, month.lines, { coverage: month.coverage });
    times.push(performance.now() - t0);
  }
  const s = score(month, res);
  const judge = (ok: boolean) => (quick ? null : ok);
  const size = `${s.reports} reports, ${s.lines} credits`;
  record({ scenario: '7a. reconcile: precision of auto', measured: `${pc(s.precision)} of ${s.auto} auto pairs`, floor: size, ratio: null, goal: '≥ 99.5%', met: judge(s.precision >= 0.995) }, { ...s });
  record({ scenario: '7b. reconcile: recall of auto', measured: pc(s.recall), floor: `${month.pair.size} true pairs`, ratio: null, goal: '≥ 85%', met: judge(s.recall >= 0.85) }, { recall: s.recall });
  record({ scenario: '7c. reconcile: review ranks the true line first', measured: pc(s.reviewFirst), floor: '-', ratio: null, goal: '≥ 95%', met: judge(s.reviewFirst >= 0.95) }, { reviewFirst: s.reviewFirst });
  record({ scenario: '7d. reconcile: false unpaid candidates', measured: `${pc(s.falseUnpaid)} of reports`, floor: '-', ratio: null, goal: '≤ 0.5%', met: judge(s.falseUnpaid <= 0.005) }, { falseUnpaid: s.falseUnpaid });
  record(
    {
      scenario: '7g. reconcile: split and combined payments suggested',
      measured: `${s.suggestionsRight} of ${s.groups} found, ${s.suggestions - s.suggestionsRight} wrong suggestions`,
      floor: '-',
      ratio: null,
      goal: 'context (suggestions are never confirmed)',
      met: null,
    },
    { suggestions: s.suggestions, right: s.suggestionsRight, groups: s.groups },
  );
  const t = median(times);
  const f = median(floors);
  record(
    { scenario: '7e. reconcile a month', measured: `${t.toFixed(0)} ms`, floor: `${f.toFixed(1)} ms (index by amount)`, ratio: t / f, goal: '< 2 s', met: judge(t < 2000) },
    { ms: times, floor: floors },
  );
  const year = await yearChild(quick ? 2 : 12);
  const mb = year.maxRSS / 1024 / 1024;
  record(
    {
      scenario: '7f. reconcile a year',
      measured: `${(year.ms / 1000).toFixed(1)} s, ${mb.toFixed(0)} MB peak, ${year.reports} reports (auto precision ${pc(year.precision)}, recall ${pc(year.recall)})`,
      floor: `${year.floor.toFixed(0)} ms (index by amount)`,
      ratio: year.ms / year.floor,
      goal: '< 20 s, < 500 MB',
      met: judge(year.ms < 20_000 && mb < 500),
    },
    year,
  );
}
