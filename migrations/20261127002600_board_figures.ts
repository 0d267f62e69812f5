import type { Knex } from 'knex';
import { dailyFiguresSql, dialectOf, type DailyFigures } from './support/dailyFigures.js';

/**
 * The payments' figures per run of 32 Taiwan days as well as per day, by
 * store, status and method, kept by triggers from the same generator as payment_daily. A sum over
 * a range (the dashboard's figures and takings by method, the 日結總覽 board's takings by method)
 * reads the whole runs inside it here and only the days at its two ends from payment_daily: a year
 * of 50 stores is some 13 000 rows to add instead of 91 000. A run is the day number divided by
 * 32, so it needs no calendar in SQL; core/db/paymentSums.ts splits a range the same way.
 *
 * And for the board's days: cash out summed per store and Taiwan day (cash_out_daily, kept by the
 * same generator's triggers), so a year's cash out is one row a store and day, read in order, not
 * every entry grouped by a day worked out per row; and payment_daily indexed by method, store and
 * day, so a store's 現金 days are read in order without the other methods' rows, and by day, so
 * the days at a range's ends are found without reading every day.
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

export const CASH_OUT_DAILY: DailyFigures = {
  table: 'cash_out_daily',
  source: 'cash_out',
  time: 'at',
  keys: ['store_id'],
  sums: ['amount'],
  trigger: 'cash_out_daily',
};

export async function up(knex: Knex): Promise<void> {
  const sql = dailyFiguresSql(PAYMENT_BLOCKS, dialectOf(knex));
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

  const cash = dailyFiguresSql(CASH_OUT_DAILY, dialectOf(knex));
  await knex.schema.createTable('cash_out_daily', (t) => {
    t.integer('store_id').notNullable();
    /** days since 1970-01-01 in Taiwan time */
    t.integer('day').notNullable();
    t.bigInteger('n').notNullable().defaultTo(0);
    t.bigInteger('amount').notNullable().defaultTo(0);
    t.primary(['store_id', 'day']);
  });
  await knex.raw(cash.backfill);
  for (const s of cash.create) await knex.raw(s);
  await knex.schema.alterTable('payment_daily', (t) => {
    t.index(['method', 'store_id', 'day', 'amount'], 'payment_daily_method_store_day_idx');
    // the days at a range's two ends (core/db/paymentSums.ts): without it PostgreSQL reads the whole table for each end
    t.index(['day'], 'payment_daily_day_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  const dialect = dialectOf(knex);
  await knex.schema.alterTable('payment_daily', (t) => {
    t.dropIndex(['method', 'store_id', 'day', 'amount'], 'payment_daily_method_store_day_idx');
    t.dropIndex(['day'], 'payment_daily_day_idx');
  });
  for (const s of dailyFiguresSql(CASH_OUT_DAILY, dialect).drop) await knex.raw(s);
  await knex.schema.dropTableIfExists('cash_out_daily');
  for (const s of dailyFiguresSql(PAYMENT_BLOCKS, dialect).drop) await knex.raw(s);
  await knex.schema.dropTableIfExists('payment_block');
}
