import type { Knex } from 'knex';

/**
 * A customer's report sent again (the page waited 15 s with no answer, or the answer was lost)
 * is answered with the first one's tracking number instead of being stored twice or asked
 * 您可能已經回報過. The page makes a random key for each report attempt (client_key) and sends it
 * with the report; the key is kept here with the payment it stored.
 * - public_report_keys: one row per link and key (the primary key: a key only means something
 *   through the link it came with), the payment's uuid, a fingerprint of the fields it carried
 *   (a key sent again with other fields is refused, not answered with another report's number),
 *   and when. Rows older than a day are ignored and cleared (core/links/reportKeys.ts).
 *   No foreign key, as payments.link_id: a payment outlives its link, and a key the payment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('public_report_keys', (t) => {
    t.integer('link_id').notNullable();
    t.string('client_key', 64).notNullable();
    t.string('payment_uuid', 36).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['link_id', 'client_key']);
    t.index(['created_at'], 'public_report_keys_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('public_report_keys');
}
