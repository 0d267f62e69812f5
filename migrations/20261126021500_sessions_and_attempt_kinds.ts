import type { Knex } from 'knex';

/**
 * - revoked_sessions: a session token signed out (登出) before it expires, by its id (`jti`), so
 *   every instance sharing the database refuses it at once; a row is pruned once the token
 *   would have expired anyway.
 * - login_attempts.kind: 'signin' or 'password' (a wrong current password on the change-password
 *   form), so the form's own per-account limit does not count strangers' sign-in failures.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('revoked_sessions', (t) => {
    t.string('jti', 64).primary();
    /** when the token expires (ms): the row is useless after it */
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at'], 'revoked_sessions_expires_idx');
  });
  await knex.schema.alterTable('login_attempts', (t) => {
    t.string('kind', 16).notNullable().defaultTo('signin');
  });
  await knex.schema.alterTable('login_attempts', (t) => {
    t.index(['ip', 'username', 'at'], 'login_attempts_pair_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('login_attempts', (t) => {
    t.dropIndex(['ip', 'username', 'at'], 'login_attempts_pair_idx');
  });
  await knex.schema.alterTable('login_attempts', (t) => {
    t.dropColumn('kind');
  });
  await knex.schema.dropTableIfExists('revoked_sessions');
}
