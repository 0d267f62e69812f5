/** scratch: the reports ranked by paid margin, with truth */
import { analyse } from '../core/reconcile/match.js';
import { sweepMonths } from './reconcile-sweep.js';
const idx = Number(process.argv[2] ?? 0);
const gen = (process.argv[3] ?? 'ours') as 'ours' | 'other';
const m = sweepMonths({ only: gen })[idx];
const t = m.truth;
const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
const fmt = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(5, 16).replace('T', ' ');
const lineIdx = new Map(t.lines.map((l, i) => [l.id, i]));
const rows = a.reports.map((r, ri) => ({ r, ri })).filter(({ ri }) => a.asked[ri] && a.coverable[ri] && !a.suggested.reports.has(ri) && !a.groupable.has(ri));
rows.sort((x, y) => a.paid[x.ri] - a.paid[y.ri]);
for (const { r, ri } of rows.slice(0, Number(process.argv[4] ?? 60))) {
  const truly = t.unpaid.has(r.uuid) ? 'UNPAID' : 'paid  ';
  const tl = t.pair.get(r.uuid);
  const tli = tl !== undefined ? lineIdx.get(tl)! : -1;
  const tc = a.ofReport[ri].find((c) => c.line === tli);
  const part = a.partner[ri];
  const cands = a.ofReport[ri].map((c) => `${t.lines[c.line].digits || '-'}@${fmt(t.lines[c.line].at)}:${c.weight.toFixed(1)}${c.line === part ? '*' : ''}${c.line === tli ? 'T' : ''}${a.owner[c.line] >= 0 && c.line !== part ? 'h' : ''}`).join(' ');
  console.log(`${truly} m=${a.paid[ri].toFixed(1)} ${r.last_five} ${fmt(r.paid_at)} $${r.amount} n=${a.ofReport[ri].length} ${tc ? '' : tl !== undefined ? 'TRUE-NOT-CAND ' : ''}| ${cands.slice(0, 200)}`);
}
