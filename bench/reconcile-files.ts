/**
 * The months of the generators written apart from the matcher (bench/reconcile-gen-b.ts and
 * bench/reconcile-gen-c.ts: statement files as the banks write them, with the truth named by file
 * and row) in the sweep's shape: each file is read by the
 * product's own statement reader, so accounts in 備註, summary rows and the banks' date shapes are
 * part of what is measured. A file the reader refuses fails the bench loudly.
 */
import { readStatement } from '../core/reconcile/statement.js';
import type { ReconcileLine } from '../core/reconcile/types.js';
import type { Truth } from './reconcile-data.js';
import { generateMonth, type FileMonth } from './reconcile-gen-b.js';
import { generateMonthC, type FileMonthC } from './reconcile-gen-c.js';
import type { MonthKnobs } from './reconcile-knobs.js';

/** `writer`: generator B (the default) or C */
export function fileMonth(knobs: Partial<MonthKnobs>, seed: number, writer: 'b' | 'c' = 'b'): Truth {
  return readMonth(writer === 'b' ? generateMonth(knobs, seed) : generateMonthC(knobs, seed));
}

function readMonth(m: FileMonth | FileMonthC): Truth {
  const lines: ReconcileLine[] = [];
  const idOf = new Map<string, number>();
  for (const f of m.files) {
    const read = readStatement(f.bytes, f.name);
    for (const l of read.lines) {
      if (l.amount <= 0) continue;
      const id = lines.length + 1;
      idOf.set(`${f.name}#${l.row}`, id);
      lines.push({
        id,
        at: l.at,
        hasTime: l.hasTime,
        amount: l.amount,
        digits: l.digits,
        summary: l.summary,
        note: l.note,
        payer: l.payer,
        store_id: f.store_id,
        source: `account:${f.account}`,
      });
    }
  }
  const id = (key: string) => {
    const found = idOf.get(key);
    if (found === undefined) throw new Error(`the generator names ${key}, which the reader did not give as a credit`);
    return found;
  };
  return {
    reports: m.reports,
    lines,
    period: m.period,
    reportsCover: { from: m.reportsFrom, to: m.reportsTo },
    coverage: m.coverage,
    pair: new Map([...m.pair].map(([u, key]) => [u, id(key)])),
    paid: m.paid,
    unpaid: m.unpaidReports,
    unreported: new Set([...m.unreportedLines].map(id)),
    groups: m.groups.map((g) => ({ payments: g.payments, lines: g.lines.map(id) })),
    ...('amountTypos' in m ? { amountTypos: new Set(m.amountTypos.keys()) } : {}),
  };
}
