/**
 * The reconciliation scenario of `npm run bench`: the sweep of months (bench/reconcile-sweep.ts:
 * five draws of every setting by three generators), thresholds chosen on its calibration half and
 * every goal judged on each held-out month against the month's bound, what the matcher could do
 * knowing the month's habits (bench/reconcile-oracle.ts); then the time for a month, and the time and peak
 * memory for a year in a fresh process (bench/reconcile-child.ts). The floor: indexing the same lines by amount and
 * sorting them by time, the least any matcher must do.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS, matchReconcile } from '../core/reconcile/match.js';
import { generate } from './reconcile-data.js';
import { formatRow, GENERATOR_LABEL, missedGoals, runSweep, type MonthReport } from './reconcile-sweep.js';

export interface ReconcileRow {
  scenario: string;
  measured: string;
  floor: string;
  ratio: number | null;
  goal: string;
  met: boolean | null;
}

const pc = (x: number) => `${(x * 100).toFixed(1)}%`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
/** draws of every setting by each generator: the goals hold in every one */
const DRAWS = 5;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;
const spread = (rs: MonthReport[], f: (r: MonthReport) => number) => {
  const xs = rs.map(f);
  return `${pc(Math.min(...xs))}–${pc(Math.max(...xs))}`;
};
const found = (x: number, of: number) => (of ? x / of : 1);

/** The worst of each goal over some months: precision, and each figure's distance from its bound in points. */
function distances(rs: MonthReport[]): string {
  const worst = (f: (r: MonthReport) => number) => Math.min(...rs.map(f));
  const most = (f: (r: MonthReport) => number) => Math.max(...rs.map(f));
  return [
    `precision ≥ ${pc(worst((r) => r.matcher.precision))}`,
    `recall − bound ≥ ${points(worst((r) => r.matcher.recall - r.bound.recall))}`,
    `top 3 − bound ≥ ${points(worst((r) => r.matcher.reviewTop3 - r.bound.reviewTop3))}`,
    `unpaid − bound ≥ ${points(worst((r) => found(r.matcher.unpaidFound, r.matcher.unpaidTrue) - r.bound.unpaid))}, false ≤ ${pc(most((r) => r.matcher.falseUnpaid))}`,
    `unreported ≥ ${pc(worst((r) => found(r.matcher.unreportedFound, r.matcher.unreportedTrue)))} (− bound ≥ ${points(worst((r) => found(r.matcher.unreportedFound, r.matcher.unreportedTrue) - r.bound.unreported))}), list ≤ ${most((r) => r.matcher.unreportedListed / Math.max(1, r.matcher.unreportedTrue)).toFixed(2)}x`,
  ].join('; ');
}

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

function yearChild(
  months: number,
): Promise<{ ms: number; floor: number; maxRSS: number; reports: number; precision: number; recall: number }> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [join(import.meta.dirname, 'reconcile-child.js'), String(months)], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH },
    });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => {
      const m = /BENCH (\{.*\})/.exec(err);
      if (code !== 0 || !m) rej(new Error(`reconcile year failed (${code}): ${err}`));
      else res(JSON.parse(m[1]));
    });
  });
}

export async function benchReconcile(
  record: (r: ReconcileRow, data: Record<string, unknown>) => void,
  quick: boolean,
  runs: number,
) {
  const judgeIt = (ok: boolean) => (quick ? null : ok);
  // 7a–7c: the sweep (five draws of every setting by each generator), thresholds chosen on the
  // calibration half, every held-out month judged against its bound
  const { th, reports: heldOut } = runSweep({ quick, draws: quick ? 1 : DRAWS }, (r) => console.error(formatRow(r)));
  const same = JSON.stringify(th) === JSON.stringify(DEFAULT_THRESHOLDS);
  record(
    {
      scenario: '7a. reconcile: thresholds chosen on the calibration half',
      measured: `auto ${th.auto} (no digits ${th.autoNoDigits}), unpaid ${th.unpaid}, unreported ${th.unreported}`,
      floor: `the calibration half of the first draws`,
      ratio: null,
      goal: 'the product defaults (core/reconcile/match.ts DEFAULT_THRESHOLDS)',
      met: judgeIt(same),
    },
    { chosen: th, defaults: DEFAULT_THRESHOLDS },
  );
  const groups = new Map<string, MonthReport[]>();
  for (const r of heldOut)
    groups.set(`${r.name}|${r.generator}`, [...(groups.get(`${r.name}|${r.generator}`) ?? []), r]);
  for (const draws of groups.values()) {
    const { name, generator } = draws[0];
    const missed = [...new Set(draws.flatMap(missedGoals))];
    record(
      {
        scenario: `7b. reconcile held-out: ${name} (${GENERATOR_LABEL[generator]}, ${draws.length} draws)`,
        measured: distances(draws),
        floor: `the bound (knowing the month's habits): recall ${spread(draws, (r) => r.bound.recall)}, top 3 ${spread(draws, (r) => r.bound.reviewTop3)}, unpaid ${spread(draws, (r) => r.bound.unpaid)}, unreported ${spread(draws, (r) => r.bound.unreported)}`,
        ratio: null,
        goal: 'precision ≥ 99.5%; recall ≥ bound − 4; top 3 ≥ bound − 3; unpaid ≥ bound − 10, false ≤ 0.5%; unreported ≥ 80% or bound − 5, list ≤ 1.5x',
        met: judgeIt(missed.length === 0),
      },
      {
        draws: draws.map((r) => {
          const m = r.matcher;
          const matcher = {
            precision: m.precision,
            recall: m.recall,
            reviewTop3: m.reviewTop3,
            unpaid: [m.unpaidFound, m.unpaidTrue],
            falseUnpaid: m.falseUnpaid,
            unreported: [m.unreportedFound, m.unreportedTrue, m.unreportedListed],
          };
          return { draw: r.draw, matcher, bound: r.bound, ms: r.ms, missed: missedGoals(r) };
        }),
      },
    );
  }
  record(
    {
      scenario: '7c. reconcile held-out: every month of every draw',
      measured: `${heldOut.filter((r) => missedGoals(r).length === 0).length} of ${heldOut.length} months meet every goal; ${distances(heldOut)}`,
      floor: '-',
      ratio: null,
      goal: 'every held-out month of the three generators, in every draw',
      met: judgeIt(heldOut.every((r) => missedGoals(r).length === 0)),
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
    {
      scenario: '7e. reconcile a month',
      measured: `${t.toFixed(0)} ms`,
      floor: `${f.toFixed(1)} ms (index by amount)`,
      ratio: t / f,
      goal: '< 2 s',
      met: judgeIt(t < 2000),
    },
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
