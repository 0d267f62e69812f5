/**
 * The reconciliation scenario of `npm run bench`: the sweep of months (bench/reconcile-sweep.ts),
 * thresholds chosen on its calibration half and every goal judged on each held-out month against
 * the fixed-weight greedy of the same month; then the time for a month, and the time and peak
 * memory for a year in a fresh process (bench/reconcile-child.ts). The floor: indexing the same lines by amount and
 * sorting them by time, the least any matcher must do.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { DEFAULT_THRESHOLDS, matchReconcile } from '../core/reconcile/match.js';
import { generate } from './reconcile-data.js';
import { analyseMonth, chooseThresholds, formatRow, judge, sweepMonths, type MonthReport } from './reconcile-sweep.js';

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
  const judgeIt = (ok: boolean) => (quick ? null : ok);
  // 7a–7d: the sweep, thresholds chosen on the calibration half, goals judged on the held-out half
  const analysed = sweepMonths({ quick }).map(analyseMonth);
  const th = chooseThresholds(analysed.filter((a) => a.month.half === 'calibration'));
  const reports = analysed.map((a) => judge(a, th));
  for (const r of reports) console.error(formatRow(r));
  const heldOut = reports.filter((r) => r.half === 'held-out');
  const same = JSON.stringify(th.matcher) === JSON.stringify(DEFAULT_THRESHOLDS);
  record(
    {
      scenario: '7a. reconcile: thresholds chosen on the calibration half',
      measured: `auto ${th.matcher.auto} (no digits ${th.matcher.autoNoDigits}), unpaid ${th.matcher.unpaid}, unreported ${th.matcher.unreported}; greedy ${th.greedy}`,
      floor: `${analysed.length - heldOut.length} calibration months`,
      ratio: null,
      goal: 'the product defaults (core/reconcile/match.ts DEFAULT_THRESHOLDS)',
      met: judgeIt(same),
    },
    { chosen: th, defaults: DEFAULT_THRESHOLDS },
  );
  for (const r of heldOut) {
    const m = r.matcher;
    const missed = Object.entries(r.goals).filter(([, ok]) => !ok).map(([g]) => g);
    record(
      {
        scenario: `7b. reconcile held-out: ${r.name} (${r.generator === 'ours' ? 'our generator' : 'the other generator'})`,
        measured: `auto ${pc(m.precision)} / recall ${pc(m.recall)}; review first ${pc(m.reviewFirst)}, top 3 ${pc(m.reviewTop3)}; unpaid ${m.unpaidFound}/${m.unpaidTrue}, false ${pc(m.falseUnpaid)}; unreported ${m.unreportedFound}/${m.unreportedTrue} in ${m.unreportedListed}`,
        floor: `greedy recall ${pc(r.greedy.recall)} at ${pc(r.greedy.precision)} (at its best for the month ${pc(r.greedyBest.recall)}); ceilings given the files: automatic ${pc(r.ceiling)}, review first ${pc(r.reviewCeiling)}, unpaid ${pc(r.unpaidCeiling)}`,
        ratio: null,
        goal: 'every goal of issue 21',
        met: judgeIt(missed.length === 0),
      },
      { ...r, missed },
    );
  }
  const worst = (f: (r: MonthReport) => number) => Math.min(...heldOut.map(f));
  const most = (f: (r: MonthReport) => number) => Math.max(...heldOut.map(f));
  record(
    {
      scenario: '7c. reconcile held-out: worst month',
      measured: `precision ${pc(worst((r) => r.matcher.precision))}, recall over greedy ${(100 * worst((r) => r.matcher.recall - r.greedy.recall)).toFixed(1)} points, review first ${pc(worst((r) => r.matcher.reviewFirst))}, unpaid found ${pc(worst((r) => (r.matcher.unpaidTrue ? r.matcher.unpaidFound / r.matcher.unpaidTrue : 1)))}, false unpaid ${pc(most((r) => r.matcher.falseUnpaid))}, unreported found ${pc(worst((r) => (r.matcher.unreportedTrue ? r.matcher.unreportedFound / r.matcher.unreportedTrue : 1)))}, list ${most((r) => r.matcher.unreportedListed / Math.max(1, r.matcher.unreportedTrue)).toFixed(2)}x, digits disagreeing in auto ${most((r) => r.matcher.autoDigitsDisagree)}`,
      floor: '-',
      ratio: null,
      goal: '≥ 99.5%, ≥ 5 points, ≥ 95%, ≥ 80%, ≤ 0.5%, ≥ 80%, ≤ 1.5x, 0',
      met: judgeIt(heldOut.every((r) => Object.values(r.goals).every(Boolean))),
    },
    {},
  );

  // 7e–7f: time for a month like the default, and for a year in a fresh process
  const month = generate({ months: 1, perDay: quick ? 10 : 50 });
  const opts = { coverage: month.coverage, period: month.period, reportsCover: month.reportsCover };
  const times: number[] = [];
  const floors: number[] = [];
  matchReconcile(month.reports, month.lines, opts);
  for (let k = 0; k < runs; k++) {
    floors.push(floorIndex(month.lines));
    const t0 = performance.now();
    matchReconcile(month.reports, month.lines, opts);
    times.push(performance.now() - t0);
  }
  const t = median(times);
  const f = median(floors);
  record(
    { scenario: '7e. reconcile a month', measured: `${t.toFixed(0)} ms`, floor: `${f.toFixed(1)} ms (index by amount)`, ratio: t / f, goal: '< 2 s', met: judgeIt(t < 2000) },
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
      met: judgeIt(year.ms < 20_000 && mb < 500),
    },
    year,
  );
}
