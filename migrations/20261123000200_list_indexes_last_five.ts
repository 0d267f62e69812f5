import type { Knex } from 'knex';

/**
 * The last filter the payment list offers without an index that serves its sort: 後五碼
 * (last_five), alone or with a store. Its index ends in the sort's tie-breaker (paid_at, uuid),
 * like the status, store and status + store indexes, so a page is read in order from the index.
 * The search box (q: a last-five prefix or a word in the note) matches inside text, which no
 * B-tree serves; it stays a scan of the rows the other filters leave.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex([], 'payments_last_five_idx');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['last_five', 'paid_at', 'uuid'], 'payments_last_five_idx');
    t.index(['store_id', 'last_five', 'paid_at', 'uuid'], 'payments_store_last_five_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex([], 'payments_store_last_five_idx');
    t.dropIndex([], 'payments_last_five_idx');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['last_five', 'paid_at'], 'payments_last_five_idx');
  });
}
