/**
 * The payments' counts and sums per store, status and method over whole Taiwan days, from the
 * per-day figures: whole runs of BLOCK_DAYS days from payment_block, the days at either end of
 * the range from payment_daily (both kept by triggers in every write's transaction). A year of 50
 * stores adds some 13 000 rows instead of 91 000. The dashboard's figures and the 日結總覽 board's
 * takings by method read this one function.
 */
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

/**
 * `first` and `last`: Taiwan day numbers, inclusive (absent: unbounded on that side). `stores`:
 * the stores in scope, or 'all'.
 */
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
  // the whole runs inside the range: from the first run that starts on or after `first` to the last that ends on or before `last`
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
  // the parts' rows of one store, status and method added up
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
