import type { Knex } from 'knex';
import { isPostgres } from '../core/db/connect.js';
import { dailyFiguresSql, type DailyFigures } from '../core/db/dailyFigures.js';

/**
 * Issue 26 (bench 13): the payments' figures per run of 32 Taiwan days as well as per day, by
 * store, status and method, kept by triggers from the same generator as payment_daily. A sum over
 * a range (the dashboard's figures and takings by method, the 日結總覽 board's takings by method)
 * reads the whole runs inside it here and only the days at its two ends from payment_daily: a year
 * of 50 stores is some 13 000 rows to add instead of 91 000. A run is the day number divided by
 * 32, so it needs no calendar in SQL; core/db/paymentSums.ts splits a range the same way.
 */
export const PAYMENT_BLOCKS: DailyFigures = {
  table: 'payment_block',
  source: 'payments',
  time: 'paid_at',
  keys: ['store_id', 'status', 'method'],
  sums: ['amount'],
  trigger: 'payments_block',
  period: { column: 'block', days: 32 },
};

export async function up(knex: Knex): Promise<void> {
  const sql = dailyFiguresSql(PAYMENT_BLOCKS, isPostgres(knex) ? 'pg' : 'sqlite');
  await knex.schema.createTable('payment_block', (t) => {
    t.integer('store_id').notNullable();
    /** the Taiwan day number divided by 32 */
    t.integer('block').notNullable();
    t.string('status', 3).notNullable();
    t.string('method', 4).notNullable();
    t.bigInteger('n').notNullable().defaultTo(0);
    t.bigInteger('amount').notNullable().defaultTo(0);
    t.primary(['store_id', 'block', 'status', 'method']);
  });
  await knex.raw(sql.backfill);
  for (const s of sql.create) await knex.raw(s);
}

export async function down(knex: Knex): Promise<void> {
  for (const s of dailyFiguresSql(PAYMENT_BLOCKS, isPostgres(knex) ? 'pg' : 'sqlite').drop) await knex.raw(s);
  await knex.schema.dropTableIfExists('payment_block');
}
