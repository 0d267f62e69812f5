import type { Knex } from 'knex';

/**
 * Failed sign-ins, kept in the database so the limit per username and per client address holds
 * across every API instance sharing it. One row per attempt being checked or failed; rows older
 * than the window are pruned as new attempts arrive.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_attempts', (t) => {
    t.bigIncrements('id').primary();
    /** the attempted username, lower-cased */
    t.string('username', 128).notNullable();
    /** the client address, '' when unknown */
    t.string('ip', 64).notNullable();
    t.bigInteger('at').notNullable();
    t.index(['username', 'at'], 'login_attempts_username_idx');
    t.index(['ip', 'at'], 'login_attempts_ip_idx');
    t.index(['at'], 'login_attempts_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_attempts');
}
