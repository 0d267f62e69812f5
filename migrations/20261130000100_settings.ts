import type { Knex } from 'knex';

/**
 * The installation's own settings, shared by every instance on one database: how many days automatic
 * backups are kept, and which Taiwan day the nightly backup was last taken (so two instances take it once).
 * A restore leaves this table as it is: it describes the installation, not the data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 64).primary();
    t.text('value').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('settings');
}
