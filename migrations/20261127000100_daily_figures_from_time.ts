import type { Knex } from 'knex';
import { dailyFiguresSql, dialectOf, type DailyFigures } from './support/dailyFigures.js';

/**
 * Payment_daily's triggers, written by hand once per database in
 * 20261121000001_list_indexes_and_daily_stats, are redefined from one description
 * (core/db/dailyFigures.ts) with the Taiwan day from core/time.ts. They count what the old ones
 * counted, so the table's rows stay as they are.
 *
 * The description is written here, as this migration's history; test/daily-figures-sql.test.ts pins
 * the SQL it produces on both databases.
 */
export const PAYMENT_DAILY: DailyFigures = {
  table: 'payment_daily',
  source: 'payments',
  time: 'paid_at',
  keys: ['store_id', 'status'],
  sums: ['amount'],
  trigger: 'payments_daily',
};

export async function up(knex: Knex): Promise<void> {
  const sql = dailyFiguresSql(PAYMENT_DAILY, dialectOf(knex));
  for (const s of [...sql.drop, ...sql.create]) await knex.raw(s);
}

/** The triggers before this migration computed the same figures; going down keeps these. */
export async function down(): Promise<void> {}
