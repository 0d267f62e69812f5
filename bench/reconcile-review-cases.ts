/** Study only (h21b): review misses of one sweep month, with both reports of a swapped pair. `node dist/bench/reconcile-review-cases.js NAME ours|other [N]` */
import { analyse, decide, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { sweepMonths } from './reconcile-sweep.js';

const [name, gen, nStr] = process.argv.slice(2);
const N = Number(nStr ?? 30);
const m = sweepMonths({ only: gen as 'ours' | 'other' }).find((x) => x.name.startsWith(name))!;
const t = m.truth;
const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
const res = decide(a, DEFAULT_THRESHOLDS);
const rIdx = new Map(a.reports.map((r, i) => [r.uuid, i]));
const lIdx = new Map(a.lines.map((l, i) => [l.id, i]));
const ownerOf = new Map<number, string>();
for (const [u, id] of t.pair) ownerOf.set(id, u);
const fmt = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(5, 16).replace('T', ' ');
const h = (ms: number) => `${(ms / 3_600_000).toFixed(2)}h`;
let shown = 0;
const autoSet = new Set(res.auto.map((x) => x.payment));
for (const rv of res.review) {
  const id = t.pair.get(rv.payment);
  if (id === undefined || autoSet.has(rv.payment) || rv.candidates[0]?.line === id) continue;
  if (shown++ >= N) break;
  const ri = rIdx.get(rv.payment)!;
  const r = a.reports[ri];
  const lr = (rj: number, li: number) => a.ofReport[rj].find((c) => c.line === li)?.lr.toFixed(2) ?? 'n/a';
  const tl = lIdx.get(id)!;
  const fl = lIdx.get(rv.candidates[0].line)!;
  console.log(`R ${r.last_five} ${fmt(r.paid_at)} $${r.amount} store ${r.store_id} cands ${a.ofReport[ri].length}`);
  console.log(`  true  #${id} ${a.lines[tl].hasTime ? '' : '(date) '}${a.lines[tl].digits || '-'} Δ${h(a.lines[tl].at - r.paid_at)} lr ${lr(ri, tl)}`);
  console.log(`  first #${a.lines[fl].id} ${a.lines[fl].hasTime ? '' : '(date) '}${a.lines[fl].digits || '-'} Δ${h(a.lines[fl].at - r.paid_at)} lr ${lr(ri, fl)}`);
  const o = ownerOf.get(a.lines[fl].id);
  if (o && rIdx.has(o)) {
    const oj = rIdx.get(o)!;
    const or = a.reports[oj];
    const ofirst = res.review.find((x) => x.payment === o)?.candidates[0]?.line;
    console.log(`  first's owner ${or.last_five} ${fmt(or.paid_at)}: to first Δ${h(a.lines[fl].at - or.paid_at)} lr ${lr(oj, fl)}; to our true Δ${h(a.lines[tl].at - or.paid_at)} lr ${lr(oj, tl)}; its review first: ${ofirst === a.lines[fl].id ? 'its true' : ofirst === id ? 'OUR TRUE' : ofirst ?? (autoSet.has(o) ? 'auto' : 'none')}`);
  }
  const others = a.ofReport[ri].filter((c) => c.line !== tl && c.line !== fl).map((c) => `${a.lines[c.line].digits ? 'd' : '-'}Δ${h(a.lines[c.line].at - r.paid_at)} lr ${c.lr.toFixed(1)}`);
  console.log(`  others: ${others.slice(0, 6).join('; ')}`);
}
