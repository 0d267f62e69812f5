/** Study only (h21b): what keeps true pairs from going automatic, and which wrong pairs bind the margins. `node build/bench/reconcile-auto-why.js` */
import { analyse, DEFAULT_THRESHOLDS } from '../core/reconcile/match.js';
import { sweepMonths } from './reconcile-sweep.js';

for (const m of sweepMonths()) {
  const t = m.truth;
  const a = analyse(t.reports, t.lines, { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover });
  const kinds = new Map<string, number>();
  const wrongHigh: string[] = [];
  a.reports.forEach((r, ri) => {
    if (!a.asked[ri]) return;
    const id = t.pair.get(r.uuid);
    const li = a.partner[ri];
    const c = li >= 0 ? a.ofReport[ri].find((x) => x.line === li)! : undefined;
    const right = li >= 0 && a.lines[li].id === id;
    if (li >= 0 && !right && c && (c.facts.digits === 'equal' || c.facts.digits === 'unknown') && a.regret[ri] >= 2)
      wrongHigh.push(
        `${c.facts.digits}/${c.facts.visible} regret ${a.regret[ri].toFixed(2)} ${t.unpaid.has(r.uuid) ? 'unpaid' : id === undefined ? 'group' : 'other line'}`,
      );
    if (id === undefined) return;
    const tl = a.lines.findIndex((l) => l.id === id);
    const ct = a.ofReport[ri].find((x) => x.line === tl);
    let k: string;
    if (!ct) k = 'not a candidate';
    else if (ct.facts.digits === 'typo' || ct.facts.digits === 'different') k = `digits ${ct.facts.digits}`;
    else if (!right) k = `${ct.facts.digits}: assignment gave ${li < 0 ? 'nothing' : 'another line'}`;
    else {
      const th = ct.facts.digits === 'equal' ? DEFAULT_THRESHOLDS.auto : DEFAULT_THRESHOLDS.autoNoDigits;
      if (a.regret[ri] >= th) k = 'auto';
      else
        k = `${ct.facts.digits}${ct.facts.digits === 'equal' ? '/' + ct.facts.visible : ''}: regret ${a.regret[ri] < th - 2 ? '< th-2' : '< th'}`;
    }
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  });
  console.log(`\n== ${m.half} ${m.generator} ${m.name}`);
  for (const [k, n] of [...kinds].sort((x, y) => y[1] - x[1])) console.log(`  ${String(n).padStart(5)} ${k}`);
  wrongHigh.sort((x, y) => Number(y.split('regret ')[1].split(' ')[0]) - Number(x.split('regret ')[1].split(' ')[0]));
  console.log(
    `  wrong assigned pairs with regret ≥ 2: ${wrongHigh.length}; highest: ${wrongHigh.slice(0, 6).join('; ')}`,
  );
}
