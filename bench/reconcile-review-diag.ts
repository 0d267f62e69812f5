/**
 * Why review ranks another credit first, on the calibration half only:
 * `node build/bench/reconcile-review-diag.js [--cases N] [--all-halves]`. For every review miss it
 * prints the numbers the ranking used: both credits' likelihood ratios and weights for the report,
 * their rank class (0 the review assignment's own line, 1 a free line, 2 a line held by another
 * report), and for a held true line, the report holding it with its own alternatives.
 */
import { analyse, decide, DEFAULT_THRESHOLDS, reviewAfterAuto } from '../core/reconcile/match.js';
import { sweepMonths } from './reconcile-sweep.js';

const argv = process.argv.slice(2);
const maxCases = Number(argv[argv.indexOf('--cases') + 1] || 40);
const allHalves = argv.includes('--all-halves');
const fmt = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(5, 16).replace('T', ' ');
const hrs = (ms: number) => `${(ms / 3_600_000).toFixed(1)}h`;
const kinds = new Map<string, number>();
const bump = (k: string) => kinds.set(k, (kinds.get(k) ?? 0) + 1);
let printed = 0;
for (const m of sweepMonths()) {
  if (m.half !== 'calibration' && !allHalves) continue;
  const t = m.truth;
  const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
  const res = decide(a, DEFAULT_THRESHOLDS);
  const rIdx = new Map(a.reports.map((r, i) => [r.uuid, i]));
  const lIdx = new Map(a.lines.map((l, i) => [l.id, i]));
  const autoSet = new Set(res.auto.map((x) => x.payment));
  const reportAuto = Uint8Array.from(a.reports, (r) => (autoSet.has(r.uuid) ? 1 : 0));
  const lineTaken = new Uint8Array(a.lines.length);
  for (const x of res.auto) lineTaken[lIdx.get(x.line)!] = 1;
  const reviewPartner = reviewAfterAuto(
    a,
    reportAuto,
    lineTaken,
    `${DEFAULT_THRESHOLDS.auto}|${DEFAULT_THRESHOLDS.autoNoDigits}`,
  );
  const reviewOwner = new Int32Array(a.lines.length).fill(-1);
  reviewPartner.forEach((li, ri) => li >= 0 && !autoSet.has(a.reports[ri].uuid) && (reviewOwner[li] = ri));
  const trueLineOf = (ri: number) => lIdx.get(t.pair.get(a.reports[ri].uuid) ?? -1);
  console.log(`\n== ${m.half} ${m.generator} ${m.name}`);
  for (const rv of res.review) {
    const ri = rIdx.get(rv.payment)!;
    const tli = trueLineOf(ri);
    if (tli === undefined) continue;
    const top = rv.candidates[0];
    if (top?.line === a.lines[tli].id) continue;
    const r = a.reports[ri];
    const cT = a.ofReport[ri].find((c) => c.line === tli);
    const topLi = top ? lIdx.get(top.line)! : -1;
    const cF = a.ofReport[ri].find((c) => c.line === topLi);
    if (!cT || !cF) {
      bump(!cT ? 'true not a candidate / taken by auto' : 'no top');
      continue;
    }
    const lT = a.lines[tli];
    const lF = a.lines[topLi];
    const bothBlind = cT.facts.digits === 'unknown' && cF.facts.digits === 'unknown';
    const dT = lT.at - r.paid_at;
    const dF = lF.at - r.paid_at;
    const farther = Math.abs(dF) > Math.abs(dT);
    const mine = reviewPartner[ri];
    const cls = (li: number, lr: number) => (li === mine ? 0 : reviewOwner[li] < 0 && lr > 0 ? 1 : 2);
    const kT = cls(tli, cT.lr);
    const kF = cls(topLi, cF.lr);
    const lrWorse = cF.lr > cT.lr;
    const kind = `${bothBlind ? 'both digitless' : 'digits differ'}${lT.hasTime && lF.hasTime ? '' : ' (a date-only line)'}, top ${farther ? 'farther' : 'closer'}, top class ${kF} true class ${kT}, top lr ${lrWorse ? '>' : '<='} true lr`;
    bump(kind);
    if (!bothBlind || !farther || printed >= maxCases) continue;
    printed++;
    console.log(
      `${kind}\n  report ${r.last_five} ${fmt(r.paid_at)} $${r.amount} (partner in review: ${mine < 0 ? 'none' : mine === tli ? 'true' : mine === topLi ? 'top' : 'other'})`,
    );
    console.log(
      `  true #${lT.id} ${lT.hasTime ? '' : '(date) '}${fmt(lT.at)} Δ${hrs(dT)} lr=${cT.lr.toFixed(2)} w=${cT.weight.toFixed(2)}`,
    );
    console.log(
      `  top  #${lF.id} ${lF.hasTime ? '' : '(date) '}${fmt(lF.at)} Δ${hrs(dF)} lr=${cF.lr.toFixed(2)} w=${cF.weight.toFixed(2)} main owner ${a.owner[topLi] === ri ? 'this' : a.owner[topLi]}`,
    );
    const holder = reviewOwner[tli];
    if (holder >= 0) {
      const h = a.reports[holder];
      const hc = a.ofReport[holder].find((c) => c.line === tli)!;
      const htrue = trueLineOf(holder);
      const alts = a.ofReport[holder]
        .filter((c) => c.line !== tli)
        .sort((x, y) => y.lr - x.lr)
        .slice(0, 4)
        .map(
          (c) =>
            `#${a.lines[c.line].id}${c.line === htrue ? '(its true)' : ''} Δ${hrs(a.lines[c.line].at - h.paid_at)} lr=${c.lr.toFixed(2)} held by ${reviewOwner[c.line] === -1 ? 'none' : reviewOwner[c.line] === ri ? 'THIS' : reviewOwner[c.line]}`,
        )
        .join('; ');
      console.log(
        `  true held in review by ${h.last_five} ${fmt(h.paid_at)} Δ${hrs(lT.at - h.paid_at)} lr=${hc.lr.toFixed(2)} (${t.unpaid.has(h.uuid) ? 'truly unpaid' : htrue === undefined ? 'no true line' : 'truly pays #' + a.lines[htrue].id}); its others: ${alts || 'none'}`,
      );
    }
    const others = a.ofReport[ri]
      .filter((c) => c.line !== tli && c.line !== topLi)
      .sort((x, y) => y.lr - x.lr)
      .slice(0, 4)
      .map((c) => `#${a.lines[c.line].id} Δ${hrs(a.lines[c.line].at - r.paid_at)} lr=${c.lr.toFixed(2)}`);
    if (others.length) console.log(`  other candidates: ${others.join('; ')}`);
  }
}
console.log('\nmisses by kind:');
for (const [k, n] of [...kinds].sort((x, y) => y[1] - x[1])) console.log(`  ${n}\t${k}`);
