import type { Knex } from 'knex';

/**
 * A bot that fills the form's hidden field gets a report that is no payment: a decoy. Its tracking
 * number answers the status page as a real report's would (未確認, its amount, time and store),
 * and the same report sent again is asked about as a real one is, so the trap cannot be told
 * apart by its answers. Nothing of it reaches the payments or any figure.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('public_decoys', (t) => {
    t.string('uuid', 36).primary();
    t.integer('store_id').notNullable();
    t.string('last_five', 5).notNullable();
    t.bigInteger('paid_at').notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['store_id', 'last_five', 'amount'], 'public_decoys_near_idx');
    t.index(['created_at'], 'public_decoys_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('public_decoys');
}
