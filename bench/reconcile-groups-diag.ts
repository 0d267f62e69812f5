/**
 * Study: split and combined payments against the unreported list, for study only.
 * `node build/bench/reconcile-groups-diag.js [--ours|--other]`: per month, the credits the
 * unreported list holds that belong to a true split or combined payment, and where their reports
 * stand (in a suggestion, paired by the assignment, kept off the unpaid list by a group, or left).
 * `--hidden`: the groups suggested, by their reasons and half, whether each is exactly a true group,
 * and how many credits nobody reported they hide (how suggestible() in groups.ts was chosen, on the
 * calibration half).
 */
import { decide, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { reasonText } from '../core/reconcile/reasons.js';
import { analyseMonth, sweepMonths } from './reconcile-sweep.js';

const only = process.argv.includes('--ours') ? 'ours' : process.argv.includes('--other') ? 'other' : undefined;
const same = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x) => b.includes(x));
const tally = new Map<string, { groups: number; hiding: number }>();
for (const m of sweepMonths({ only })) {
  const a = analyseMonth(m);
  const t = m.truth;
  const res = decide(a.analysis, DEFAULT_THRESHOLDS);
  const exact = (s: { payments: string[]; lines: number[] }) =>
    t.groups.some((g) => same(g.payments, s.payments) && same(g.lines, s.lines));
  if (process.argv.includes('--hidden')) {
    for (const s of res.suggestions) {
      const key = `${m.half} | ${s.reasons.map(reasonText).join('、')} | ${exact(s) ? 'right' : 'wrong'} | ${s.payments.length} reports, ${s.lines.length} credits`;
      const v = tally.get(key) ?? { groups: 0, hiding: 0 };
      v.groups++;
      v.hiding += s.lines.filter((id) => t.unreported.has(id)).length;
      tally.set(key, v);
    }
    continue;
  }
  const groupOfLine = new Map<number, { payments: string[]; lines: number[] }>();
  for (const g of t.groups) for (const id of g.lines) groupOfLine.set(id, g);
  const ri = new Map(a.analysis.reports.map((r, i) => [r.uuid, i]));
  const listed = res.unreported.map((u) => u.line);
  const inGroup = listed.filter((id) => groupOfLine.has(id));
  const kinds: Record<string, number> = {};
  for (const id of inGroup) {
    const g = groupOfLine.get(id)!;
    const kind = g.lines.length > 1 ? 'split' : 'combined';
    const states = g.payments.map((u) => {
      const i = ri.get(u);
      if (i === undefined) return 'absent';
      if (a.analysis.suggested.reports.has(i)) return 'suggested';
      if (a.analysis.partner[i] >= 0) return 'paired';
      return a.analysis.groupable.has(i) ? `grouped: ${a.analysis.groupable.get(i)}` : 'left';
    });
    const key = `${kind} [${states.join(', ')}]`;
    kinds[key] = (kinds[key] ?? 0) + 1;
  }
  console.log(
    `${m.half} ${m.generator} ${m.name}: listed ${listed.length}, of true groups ${inGroup.length}; suggestions ${res.suggestions.length} (${res.suggestions.filter(exact).length} exactly right) of ${t.groups.length} groups`,
  );
  for (const [k, n] of Object.entries(kinds).sort((x, y) => y[1] - x[1])) console.log(`   ${n} ${k}`);
}
for (const [k, v] of [...tally].sort())
  console.log(`${v.groups} groups, hiding ${v.hiding} credits nobody reported: ${k}`);
