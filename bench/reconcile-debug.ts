/** Prints why review or unpaid missed, for studying the model on one month of the sweep: `node build/bench/reconcile-debug.js [setting index] [ours|other]`. */
import { analyse } from '../core/reconcile/match.js';
import { reasonText } from '../core/reconcile/reasons.js';
import { sweepMonths } from './reconcile-sweep.js';

const idx = Number(process.argv[2] ?? 0);
const gen = (process.argv[3] ?? 'ours') as 'ours' | 'other';
const m = sweepMonths({ only: gen })[idx];
const t = m.truth;
const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
console.log(m.name, a.model);
const fmt = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(5, 16).replace('T', ' ');
const lineIdx = new Map(t.lines.map((l, i) => [l.id, i]));
const rIdx = new Map(a.reports.map((r, i) => [r.uuid, i]));
let shown = 0;
const kinds = new Map<string, number>();
for (const [u, id] of t.pair) {
  const ri = rIdx.get(u);
  if (ri === undefined || !a.asked[ri]) continue;
  const li = lineIdx.get(id)!;
  if (a.partner[ri] === li) continue;
  const r = a.reports[ri];
  const c = a.ofReport[ri].find((x) => x.line === li);
  const other = a.partner[ri] >= 0 ? a.ofReport[ri].find((x) => x.line === a.partner[ri]) : undefined;
  const thief = a.owner[li];
  const kind = !c
    ? 'not candidate'
    : a.partner[ri] < 0
      ? thief >= 0
        ? 'unassigned, line taken'
        : 'unassigned, line free'
      : thief >= 0
        ? 'swapped'
        : 'other line';
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  if (shown++ > 25) continue;
  const l = t.lines[li];
  console.log(
    `${kind}: ${r.last_five} ${fmt(r.paid_at)} $${r.amount} | true ${l.digits || '-'} ${fmt(l.at)} w=${c?.weight.toFixed(1)} ${(c ? a.explain(c).reasons : []).map(reasonText).join(',')}`,
  );
  if (other)
    console.log(
      `   got ${t.lines[other.line].digits || '-'} ${fmt(t.lines[other.line].at)} w=${other.weight.toFixed(1)} ${a.explain(other).reasons.map(reasonText).join(',')} (truly ${[...t.pair].find(([, x]) => x === t.lines[other.line].id)?.[0] ?? 'nobody'})`,
    );
  if (thief >= 0) {
    const tc = a.ofReport[thief].find((x) => x.line === li)!;
    console.log(
      `   line held by ${a.reports[thief].uuid} ${a.reports[thief].last_five} ${fmt(a.reports[thief].paid_at)} w=${tc.weight.toFixed(1)} ${a.explain(tc).reasons.map(reasonText).join(',')} (unpaid truly: ${t.unpaid.has(a.reports[thief].uuid)})`,
    );
  }
}
console.log(Object.fromEntries(kinds));
// unpaid
let up = 0;
const upk = new Map<string, number>();
for (const u of t.unpaid) {
  const ri = rIdx.get(u);
  if (ri === undefined || !a.asked[ri] || !a.coverable[ri]) continue;
  const k = a.partner[ri] >= 0 ? 'assigned' : a.suggested.reports.has(ri) ? 'suggested' : 'left';
  upk.set(k, (upk.get(k) ?? 0) + 1);
  if (up++ < 8 && a.partner[ri] >= 0) {
    const c = a.ofReport[ri].find((x) => x.line === a.partner[ri])!;
    const id = t.lines[c.line].id;
    console.log(
      `unpaid assigned: ${a.reports[ri].last_five} ${fmt(a.reports[ri].paid_at)} $${a.reports[ri].amount} → ${t.lines[c.line].digits || '-'} ${fmt(t.lines[c.line].at)} w=${c.weight.toFixed(1)} regret=${a.regret[ri].toFixed(1)} ${a.explain(c).reasons.map(reasonText).join(',')} line truly ${t.unreported.has(id) ? 'unreported' : 'someone’s'}`,
    );
  }
}
console.log('unpaid', Object.fromEntries(upk));
