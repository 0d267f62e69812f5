import type { Knex } from 'knex';
import { dailyFiguresSql, dialectOf, type DailyFigures } from './support/dailyFigures.js';
import { PAYMENT_DAILY as BY_STATUS } from './20261127000100_daily_figures_from_time.js';

/**
 * The per-day figures are kept by payment method too (匯款, 現金, 刷卡, 電子支付), so the
 * dashboard's takings by method and the daily close's board are sums over payment_daily, not
 * scans of the payments. The table gains `method` in its key: it is made again (a primary key
 * cannot change in place on SQLite) and filled from the payments as they stand, and the triggers
 * are the generator's (core/db/dailyFigures.ts) for the description below, pinned by
 * test/daily-figures-sql.test.ts. Going down puts back the figures by store, day and status.
 */
export const PAYMENT_DAILY: DailyFigures = {
  table: 'payment_daily',
  source: 'payments',
  time: 'paid_at',
  keys: ['store_id', 'status', 'method'],
  sums: ['amount'],
  trigger: 'payments_daily',
};

async function remake(knex: Knex, figures: DailyFigures, withMethod: boolean): Promise<void> {
  const dialect = dialectOf(knex);
  // the triggers of either description drop alike (same names)
  for (const s of dailyFiguresSql(figures, dialect).drop) await knex.raw(s);
  await knex.schema.dropTableIfExists('payment_daily');
  await knex.schema.createTable('payment_daily', (t) => {
    t.integer('store_id').notNullable();
    /** days since 1970-01-01 in Taiwan time */
    t.integer('day').notNullable();
    t.string('status', 3).notNullable();
    if (withMethod) t.string('method', 4).notNullable();
    t.bigInteger('n').notNullable().defaultTo(0);
    t.bigInteger('amount').notNullable().defaultTo(0);
    t.primary(withMethod ? ['store_id', 'day', 'status', 'method'] : ['store_id', 'day', 'status']);
  });
  const sql = dailyFiguresSql(figures, dialect);
  await knex.raw(sql.backfill);
  for (const s of sql.create) await knex.raw(s);
}

export async function up(knex: Knex): Promise<void> {
  await remake(knex, PAYMENT_DAILY, true);
}

export async function down(knex: Knex): Promise<void> {
  await remake(knex, BY_STATUS, false);
}
