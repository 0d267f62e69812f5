/**
 * Prints each review miss of the reconciliation scenario: a report whose true line review does not
 * rank first, with the true line, the line ranked above it, their scores and reasons. For studying
 * the scoring, never for tuning to one seed: `node build/bench/reconcile-misses.js [seed…]`.
 */
import { matchReconcile } from '../core/reconcile/match.js';
import { reasonText } from '../core/reconcile/reasons.js';
import { generate, score } from './reconcile-data.js';

const seeds = process.argv.slice(2).map(Number);
const verbose = process.env.MISSES !== '0';
const fmt = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(5, 16).replace('T', ' ');
for (const seed of seeds.length ? seeds : [20261123]) {
  const t = generate({ months: 1, seed });
  const t0 = performance.now();
  const res = matchReconcile(t.reports, t.lines, { coverage: t.coverage });
  const ms = performance.now() - t0;
  const s = score(t, res);
  const reports = new Map(t.reports.map((r) => [r.uuid, r]));
  const lines = new Map(t.lines.map((l) => [l.id, l]));
  const auto = new Set(res.auto.map((a) => a.payment));
  const review = new Map(res.review.map((r) => [r.payment, r.candidates]));
  const kinds = new Map<string, number>();
  for (const [u, id] of t.pair) {
    if (auto.has(u)) continue;
    const cands = review.get(u);
    if (cands?.[0]?.line === id) continue;
    const r = reports.get(u)!;
    const l = lines.get(id)!;
    const trueC = cands?.find((c) => c.line === id);
    const top = cands?.[0];
    const autoLine = res.auto.find((a) => a.line === id);
    const kind = !cands
      ? 'not in review'
      : !trueC
        ? autoLine
          ? 'true line taken by auto'
          : 'true line not a candidate'
        : 'ranked below';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    if (!verbose) continue;
    console.log(`\n${u} ${kind}: report ${r.last_five} ${fmt(r.paid_at)} NT$${r.amount} note=${r.note}`);
    console.log(
      `  true  #${id} ${l.digits || '-'} ${fmt(l.at)}${l.hasTime ? '' : ' (date)'} score ${trueC?.score ?? '-'} ${trueC?.reasons.map(reasonText).join('、') ?? ''}`,
    );
    if (autoLine)
      console.log(
        `  auto took it for ${autoLine.payment} (${reports.get(autoLine.payment)!.last_five} ${fmt(reports.get(autoLine.payment)!.paid_at)}) ${autoLine.reasons.map(reasonText).join('、')}`,
      );
    if (top && top.line !== id) {
      const tl = lines.get(top.line)!;
      const owner = [...t.pair].find(([, x]) => x === top.line)?.[0];
      const where = !owner
        ? ''
        : auto.has(owner)
          ? ', auto elsewhere'
          : review.get(owner)
            ? `, its review's first is #${review.get(owner)![0].line}`
            : ', not in review';
      console.log(
        `  above #${top.line} ${tl.digits || '-'} ${fmt(tl.at)} score ${top.score} ${top.reasons.map(reasonText).join('、')} (truly ${owner ? `pays ${owner} ${reports.get(owner)!.last_five} ${fmt(reports.get(owner)!.paid_at)}${where}` : 'nobody’s plain pair'})`,
      );
    }
  }
  console.log(
    `\nseed ${seed}: precision ${(s.precision * 100).toFixed(2)}% recall ${(s.recall * 100).toFixed(1)}% reviewFirst ${(s.reviewFirst * 100).toFixed(1)}% falseUnpaid ${(s.falseUnpaid * 100).toFixed(2)}% auto ${s.auto} ${ms.toFixed(0)} ms; misses ${JSON.stringify(Object.fromEntries(kinds))}`,
  );
}
