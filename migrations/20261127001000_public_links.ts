import type { Knex } from 'knex';

/**
 * Customers report their own transfers through a store's public link.
 * - store_links: one per store. `token` is the random part of the link (at least 128 bits, url
 *   safe), unique; rotating writes a new one in place, so the old link stops working at once on
 *   every instance. It is kept as it is, not hashed: the link is printed on a poster by the till
 *   and 分店管理 shows it again to copy, so it is no secret from whoever reads the database.
 *   `active` false is 停用.
 * - payments.source: 'staff' (the form, an import) or 'customer' (a store's link); link_id the
 *   link it came through. No foreign key: a payment outlives whatever happens to the link.
 * - public_limits: counters of the abuse limits (per address a minute and a day, per link a day),
 *   one row per bucket and fixed window, incremented in one statement so that every instance
 *   sharing the database counts together.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_links', (t) => {
    t.increments('id').primary();
    t.integer('store_id').unsigned().notNullable().references('id').inTable('stores').onDelete('CASCADE');
    t.string('token', 64).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['store_id'], { indexName: 'store_links_store_unique' });
    t.unique(['token'], { indexName: 'store_links_token_unique' });
  });
  await knex.schema.alterTable('payments', (t) => {
    t.string('source', 16).notNullable().defaultTo('staff');
    t.integer('link_id').unsigned().nullable();
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['source', 'paid_at'], 'payments_source_paid_at_idx');
  });
  await knex.schema.createTable('public_limits', (t) => {
    t.string('bucket', 120).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('n').notNullable().defaultTo(0);
    t.primary(['bucket', 'window_start']);
    t.index(['window_start'], 'public_limits_window_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('public_limits');
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['source', 'paid_at'], 'payments_source_paid_at_idx');
  });
  // SQLite's own DROP COLUMN, not knex's copy of the table, which would lose payment_daily's triggers.
  for (const column of ['link_id', 'source']) {
    if (knex.client.config.client === 'pg') await knex.schema.alterTable('payments', (t) => t.dropColumn(column));
    else await knex.raw('alter table ?? drop column ??', ['payments', column]);
  }
  await knex.schema.dropTableIfExists('store_links');
}
