/** Study: the credits the unreported list holds that belong to a split or combined payment, and where their reports stand. */
import { decide, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { analyseMonth, sweepMonths } from './reconcile-sweep.js';

const only = process.argv.includes('--ours') ? 'ours' : process.argv.includes('--other') ? 'other' : undefined;
for (const m of sweepMonths({ only })) {
  const a = analyseMonth(m);
  const t = m.truth;
  const res = decide(a.analysis, DEFAULT_THRESHOLDS);
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
      return a.analysis.groupable.has(i) ? `grouped:${a.analysis.groupable.get(i)}` : 'left';
    });
    const key = `${kind} [${states.join(',')}]`;
    kinds[key] = (kinds[key] ?? 0) + 1;
  }
  const right = res.suggestions.filter((s) => t.groups.some((g) => g.payments.length === s.payments.length && g.payments.every((u) => s.payments.includes(u)) && g.lines.length === s.lines.length && g.lines.every((l) => s.lines.includes(l)))).length;
  console.log(`${m.half} ${m.generator} ${m.name}: listed ${listed.length}, of groups ${inGroup.length}; suggestions ${res.suggestions.length} (${right} right) of ${t.groups.length} groups`);
  for (const [k, n] of Object.entries(kinds).sort((x, y) => y[1] - x[1])) console.log(`   ${n} ${k}`);
}
