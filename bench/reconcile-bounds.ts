/**
 * How far better scoring could take review and unpaid on the sweep's held-out months.
 * `node build/bench/reconcile-bounds.js [--months N] [--sweeps N]` prints, per month:
 *
 * - **Exact marginals.** The matcher's weights read as a probability over whole assignments
 *   (a report paid by a line with odds e^weight, one line per report and one report per line):
 *   sampled (Metropolis over assignments, `--sweeps` passes over the reports after a fifth
 *   discarded) instead of read off the single best assignment. A report's chance of being unpaid
 *   and a candidate's chance of being the report's line are then averages over every assignment,
 *   not the best one's margins. Measured with the habits learned and knowing them (the weights
 *   learned from every true pair, bench/reconcile-oracle.ts), with the unpaid threshold the best for
 *   that very month (chosen knowing the truth, false unpaid ≤ 0.5% of reports): the most any
 *   threshold could give with these scores.
 * - **The other reports known** (a genie): every other report's true line known, so a report's
 *   remaining candidates are its own line (if paid) or credits nobody reported. Booking times and
 *   digits are weighed by densities counted on `--months` further months of the same setting and
 *   generator (each report's own line, against the credits nobody reported that fall in its
 *   window), at the month's best threshold. No matcher knows the other reports' lines; the gap
 *   between this and the exact marginals is what telling which of two reports a credit pays
 *   costs, where the files show nothing that tells.
 */
import { analyse, decide, DEFAULT_THRESHOLDS, type Analysis } from '../core/reconcile/match.js';
import { FINDABLE, generate, rng, type Truth } from './reconcile-data.js';
import { fileMonth } from './reconcile-files.js';
import { SETTINGS, sweepMonths, type SweepMonth } from './reconcile-sweep.js';
import { analyseTruth } from './reconcile-oracle.js';

const HOUR = 3600e3;
const MIN = 60e3;

/** Chance each report is left unpaid, and each of its candidates is its line, over all assignments (Metropolis). */
export function exactMarginals(a: Analysis, sweeps: number, seed = 1): { unpaid: Float64Array; line: Float64Array[] } {
  const R = a.reports.length;
  const cand = a.ofReport.map((list) => list.map((c) => c.line));
  const weight = a.ofReport.map((list) => new Map(list.map((c) => [c.line, c.weight])));
  const at = Int32Array.from(a.partner);
  const owner = new Int32Array(a.lines.length).fill(-1);
  at.forEach((l, r) => l >= 0 && (owner[l] = r));
  const w = (r: number, l: number) => (l < 0 ? 0 : weight[r].get(l)!);
  const unpaid = new Float64Array(R);
  const line = a.ofReport.map((list) => new Float64Array(list.length));
  const rand = rng(seed);
  const active = cand.map((c, r) => (c.length ? r : -1)).filter((r) => r >= 0);
  const burn = Math.floor(sweeps / 5);
  let samples = 0;
  for (let s = 0; s < sweeps; s++) {
    for (let k = 0; k < active.length; k++) {
      // a report proposes one of its candidates or none, uniformly; a line held by another report
      // is swapped with the proposer's own (or leaves the holder unpaid, with the Hastings ratio)
      const r = active[Math.floor(rand() * active.length)];
      const d = cand[r].length;
      const o = Math.floor(rand() * (d + 1));
      const x = o === d ? -1 : cand[r][o];
      const cur = at[r];
      if (x === cur) continue;
      const r2 = x >= 0 ? owner[x] : -1;
      if (r2 < 0) {
        const delta = w(r, x) - w(r, cur);
        if (delta >= 0 || rand() < Math.exp(delta)) {
          if (cur >= 0) owner[cur] = -1;
          at[r] = x;
          if (x >= 0) owner[x] = r;
        }
        continue;
      }
      let back = 0;
      if (cur >= 0) {
        const wb = weight[r2].get(cur);
        if (wb === undefined) continue;
        back = wb;
      }
      let delta = w(r, x) + back - w(r, cur) - w(r2, x);
      if (cur < 0) delta += Math.log((d + 1) / (cand[r2].length + 1));
      if (delta >= 0 || rand() < Math.exp(delta)) {
        at[r] = x;
        owner[x] = r;
        at[r2] = cur;
        if (cur >= 0) owner[cur] = r2;
      }
    }
    if (s < burn) continue;
    samples++;
    for (let r = 0; r < R; r++) {
      if (at[r] < 0) unpaid[r]++;
      else line[r][cand[r].indexOf(at[r])]++;
    }
  }
  for (let r = 0; r < R; r++) {
    unpaid[r] /= samples;
    for (let i = 0; i < line[r].length; i++) line[r][i] /= samples;
  }
  return { unpaid, line };
}

const findableIn = (t: Truth) => (at: number) =>
  at - FINDABLE.before >= t.coverage.from && at + FINDABLE.after <= t.coverage.to;

/** Unpaid found at the month's best threshold (false unpaid ≤ 0.5% of the period's reports), lower `score` listed first, among the reports decide() may list. */
export function unpaidAtBest(a: Analysis, t: Truth, score: (ri: number) => number): { found: number; of: number } {
  const findable = findableIn(t);
  const period = a.reports.filter((_, ri) => a.asked[ri]).length;
  const unpaid: number[] = [];
  const paid: number[] = [];
  let of = 0;
  a.reports.forEach((r, ri) => {
    if (!a.asked[ri]) return;
    const u = t.unpaid.has(r.uuid) && findable(r.paid_at);
    if (u) of++;
    if (!a.coverable[ri] || a.suggested.reports.has(ri) || a.groupable.has(ri)) return;
    if (u) unpaid.push(score(ri));
    else if (t.paid.has(r.uuid)) paid.push(score(ri));
  });
  paid.sort((x, y) => x - y);
  const allowed = Math.floor(0.005 * period);
  const cut = paid.length > allowed ? paid[allowed] : Infinity;
  return { found: unpaid.filter((s) => s < cut).length, of };
}

/** Review first when each report's candidates are ordered by their exact marginals, over decide()'s review list, against the product's order. */
export function reviewByMarginals(a: Analysis, t: Truth, m: ReturnType<typeof exactMarginals>) {
  const d = decide(a, DEFAULT_THRESHOLDS);
  const ri = new Map(a.reports.map((r, i) => [r.uuid, i]));
  const li = new Map(a.lines.map((l, i) => [l.id, i]));
  let n = 0;
  let marginal = 0;
  let product = 0;
  for (const rv of d.review) {
    const truth = t.pair.get(rv.payment);
    if (truth === undefined || !rv.candidates.some((c) => c.line === truth)) continue;
    n++;
    if (rv.candidates[0].line === truth) product++;
    const r = ri.get(rv.payment)!;
    const chance = (id: number) => {
      const i = a.ofReport[r].findIndex((c) => c.line === li.get(id));
      return m.line[r][i] + 1e-9 * a.ofReport[r][i].lr;
    };
    const best = rv.candidates.reduce((b, c) => (chance(c.line) > chance(b.line) ? c : b));
    if (best.line === truth) marginal++;
  }
  return { marginal: n ? marginal / n : 1, product: n ? product / n : 1 };
}

// the genie's features: booking time bin, what the digits show, the note
const EDGES = [
  -36 * HOUR,
  -12 * HOUR,
  -3 * HOUR,
  -30 * MIN,
  -5 * MIN,
  0,
  5 * MIN,
  30 * MIN,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  36 * HOUR,
  48 * HOUR,
  60 * HOUR,
  72 * HOUR,
  96 * HOUR,
];
const timeBin = (d: number) => EDGES.filter((e) => d >= e).length;

interface GenieReport {
  kind: 'unpaid' | 'paid' | 'group';
  findable: boolean;
  /** credits of the month of its amount no other report's */
  popularity: number;
  candidates: Array<{ key: string; own: boolean }>;
}

/** Each report of the period with the candidates left once every other report's true line is known. */
function genieReports(t: Truth): GenieReport[] {
  const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
  const taken = new Map<number, string>();
  for (const [u, id] of t.pair) taken.set(id, u);
  for (const g of t.groups) for (const id of g.lines) taken.set(id, g.payments.join(','));
  const left = new Map<number, number>();
  for (const l of t.lines) if (!taken.has(l.id)) left.set(l.amount, (left.get(l.amount) ?? 0) + 1);
  const findable = findableIn(t);
  const out: GenieReport[] = [];
  a.reports.forEach((r, ri) => {
    if (!a.asked[ri]) return;
    const own = t.pair.get(r.uuid);
    const kind = t.unpaid.has(r.uuid) ? 'unpaid' : own !== undefined ? 'paid' : 'group';
    const candidates =
      kind === 'group'
        ? []
        : a.ofReport[ri].flatMap((c) => {
            const l = a.lines[c.line];
            const holder = taken.get(l.id);
            if (holder !== undefined && holder !== r.uuid) return [];
            const digits = c.facts.digits === 'unknown' ? (c.facts.visible === 0 ? 'none' : 'few') : c.facts.digits;
            return [{ key: `${timeBin(l.at - r.paid_at)}|${digits}|${c.facts.note ? 'note' : ''}`, own: l.id === own }];
          });
    out.push({ kind, findable: findable(r.paid_at), popularity: Math.max(1, left.get(r.amount) ?? 1), candidates });
  });
  return out;
}

/** Unpaid found by the genie at the month's best threshold, its densities counted on `months` further months like this one. */
export function genieUnpaid(month: SweepMonth, months: number): { found: number; of: number } {
  const setting = SETTINGS.find((s) => s.name === month.name)!;
  const own = new Map<string, number>();
  const stranger = new Map<string, number>();
  let paid = 0;
  let popularity = 0;
  for (let k = 0; k < months; k++) {
    const seed = 100003 + 7 * k + (month.generator === 'ours' ? 0 : 1);
    const t =
      month.generator === 'ours' ? generate({ months: 1, seed, knobs: setting.knobs }) : fileMonth(setting.knobs, seed);
    for (const x of genieReports(t)) {
      if (x.kind === 'group') continue;
      if (x.kind === 'paid') paid++;
      popularity += x.popularity;
      for (const c of x.candidates) (c.own ? own : stranger).set(c.key, ((c.own ? own : stranger).get(c.key) ?? 0) + 1);
    }
  }
  // the odds that one of its candidates is the report's own line rather than a credit nobody reported
  const odds = (x: GenieReport) =>
    x.candidates.reduce(
      (s, c) => s + (own.get(c.key) ?? 0.5) / paid / ((x.popularity * (stranger.get(c.key) ?? 0.5)) / popularity),
      0,
    );
  const test = genieReports(month.truth);
  const period = test.length;
  const unpaid = test.filter((x) => x.kind === 'unpaid' && x.findable).map(odds);
  const paidOdds = test
    .filter((x) => x.kind === 'paid')
    .map(odds)
    .sort((x, y) => x - y);
  const allowed = Math.floor(0.005 * period);
  const cut = paidOdds.length > allowed ? paidOdds[allowed] : Infinity;
  return { found: unpaid.filter((s) => s < cut).length, of: unpaid.length };
}

if (process.argv[1]?.endsWith('reconcile-bounds.js')) {
  const arg = (name: string, dflt: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : dflt;
  };
  const months = arg('--months', 10);
  const sweeps = arg('--sweeps', 2000);
  const pc = (x: number) => `${(x * 100).toFixed(1)}%`;
  const frac = (x: { found: number; of: number }) => `${x.found}/${x.of}`;
  for (const m of sweepMonths()) {
    if (m.half !== 'held-out' && !process.argv.includes('--all')) continue;
    const t = m.truth;
    const row = [`${m.half === 'held-out' ? 'H' : 'C'} ${m.generator.padEnd(5)} ${m.name}`];
    for (const known of [false, true]) {
      const a = analyseTruth(t, known);
      const mc = exactMarginals(a, sweeps);
      const best = unpaidAtBest(a, t, (ri) => a.paid[ri]);
      const exact = unpaidAtBest(a, t, (ri) => -mc.unpaid[ri] - (a.ofReport[ri].length === 0 ? 1 : 0));
      const review = reviewByMarginals(a, t, mc);
      row.push(
        `${known ? 'habits known' : 'learned'}: unpaid at best threshold ${frac(best)}, by exact marginals ${frac(exact)}; review first ${pc(review.product)}, by exact marginals ${pc(review.marginal)}`,
      );
    }
    row.push(`other reports known: unpaid ${frac(genieUnpaid(m, months))}`);
    console.log(row.join(' | '));
  }
}
