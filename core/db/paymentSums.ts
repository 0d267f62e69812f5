// Payment counts and sums per store, status and method over whole Taiwan days: whole runs of BLOCK_DAYS
// from payment_block, the ends from payment_daily (both kept by triggers in every write's transaction).
import type { Knex } from 'knex';
import { PAYMENT_BLOCKS } from '../../migrations/20261127002600_board_figures.js';

export const BLOCK_DAYS = PAYMENT_BLOCKS.period!.days;

interface PaymentSum {
  store_id: number;
  status: string;
  method: string;
  n: number;
  amount: number;
}

/** `first` and `last`: inclusive Taiwan day numbers, absent for unbounded. */
export async function paymentSums(
  db: Knex,
  stores: number[] | 'all',
  first?: number,
  last?: number,
): Promise<PaymentSum[]> {
  const parts: Array<{
    table: 'payment_block' | 'payment_daily';
    column: 'block' | 'day';
    from?: number;
    to?: number;
  }> = [];
  // the whole runs inside the range
  const firstBlock = first === undefined ? undefined : Math.ceil(first / BLOCK_DAYS);
  const lastBlock = last === undefined ? undefined : Math.floor((last + 1) / BLOCK_DAYS) - 1;
  if (firstBlock !== undefined && lastBlock !== undefined && firstBlock > lastBlock) {
    parts.push({ table: 'payment_daily', column: 'day', from: first, to: last });
  } else {
    parts.push({ table: 'payment_block', column: 'block', from: firstBlock, to: lastBlock });
    if (firstBlock !== undefined && first! < firstBlock * BLOCK_DAYS)
      parts.push({ table: 'payment_daily', column: 'day', from: first, to: firstBlock * BLOCK_DAYS - 1 });
    if (lastBlock !== undefined && (lastBlock + 1) * BLOCK_DAYS <= last!)
      parts.push({ table: 'payment_daily', column: 'day', from: (lastBlock + 1) * BLOCK_DAYS, to: last });
  }
  const selects = parts.map((p) =>
    db(p.table)
      .select('store_id', 'status', 'method')
      .sum({ n: 'n', amount: 'amount' })
      .modify((q) => {
        if (p.from !== undefined) q.where(p.column, '>=', p.from);
        if (p.to !== undefined) q.where(p.column, '<=', p.to);
        if (stores !== 'all') q.whereIn('store_id', stores);
      })
      .groupBy('store_id', 'status', 'method'),
  );
  const rows = (await Promise.all(selects)).flat() as Array<{
    store_id: number | string;
    status: string;
    method: string;
    n: number | string | null;
    amount: number | string | null;
  }>;
  const out = new Map<string, PaymentSum>();
  for (const r of rows) {
    const key = `${r.store_id}|${r.status}|${r.method}`;
    const s = out.get(key) ?? { store_id: Number(r.store_id), status: r.status, method: r.method, n: 0, amount: 0 };
    s.n += Number(r.n ?? 0);
    s.amount += Number(r.amount ?? 0);
    out.set(key, s);
  }
  return [...out.values()];
}
