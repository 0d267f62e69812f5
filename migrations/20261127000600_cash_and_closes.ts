import type { Knex } from 'knex';

/**
 * Cash leaving a store's drawer, and the daily close (日結).
 *
 * cash_out: one row per 店內支出 (with its category) or 提領, at an instant (epoch ms, as paid_at),
 * so its Taiwan day comes from core/time.ts like a payment's. `after_close` marks an entry added
 * while its day was closed (only manage_payments may).
 *
 * day_closes: one row per store and Taiwan day (`date`, YYYY-MM-DD), unique, so two closes of one
 * day at once store one. `state` is 'closed' or 'reopened'; a reopened day keeps its last figures
 * until it is closed again (the same row, updated). The figures are those the person closing saw:
 * opening (carried from the previous close's counted cash, or stated on a store's first close),
 * cash in (現金 takings), cash out, expected, counted and the difference; `by_method` the day's
 * takings per method (JSON) and `denominations` the counted notes and coins (JSON, optional).
 * `late_changes` counts the cash entries changed after the close (each also in the audit).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cash_out', (t) => {
    t.increments('id').primary();
    t.integer('store_id').notNullable().references('id').inTable('stores');
    t.bigInteger('at').notNullable();
    t.string('kind', 4).notNullable();
    t.string('category', 30).notNullable().defaultTo('');
    t.integer('amount').notNullable();
    t.string('note', 1000).notNullable().defaultTo('');
    t.boolean('after_close').notNullable().defaultTo(false);
    t.integer('created_by').nullable();
    t.string('created_by_username', 40).notNullable().defaultTo('');
    t.bigInteger('created_at').notNullable();
    t.index(['store_id', 'at', 'id'], 'cash_out_store_at_idx');
    t.index(['at', 'id'], 'cash_out_at_idx');
  });
  await knex.schema.createTable('day_closes', (t) => {
    t.increments('id').primary();
    t.integer('store_id').notNullable().references('id').inTable('stores');
    t.string('date', 10).notNullable();
    t.string('state', 8).notNullable();
    t.bigInteger('opening').notNullable();
    t.boolean('opening_stated').notNullable().defaultTo(false);
    t.bigInteger('cash_in').notNullable();
    t.bigInteger('cash_out').notNullable();
    t.bigInteger('expected').notNullable();
    t.bigInteger('counted').notNullable();
    t.bigInteger('difference').notNullable();
    t.text('by_method').notNullable();
    t.text('denominations').nullable();
    t.string('note', 1000).notNullable().defaultTo('');
    t.integer('closed_by').nullable();
    t.string('closed_by_username', 40).notNullable();
    t.bigInteger('closed_at').notNullable();
    t.integer('reopened_by').nullable();
    t.string('reopened_by_username', 40).nullable();
    t.bigInteger('reopened_at').nullable();
    t.integer('late_changes').notNullable().defaultTo(0);
    t.unique(['store_id', 'date'], { indexName: 'day_closes_store_date_key' });
    t.index(['date', 'store_id'], 'day_closes_date_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('day_closes');
  await knex.schema.dropTableIfExists('cash_out');
}
