import type { Knex } from 'knex';

/**
 * The first schema. Times are UTC instants in epoch milliseconds (bigint), identical on SQLite
 * and PostgreSQL; money is whole NT$ (bigint); JSON lists are text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stores', (t) => {
    t.increments('id').primary();
    t.string('name', 50).notNullable();
    t.string('code', 20).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('username', 20).notNullable().unique();
    t.string('password_hash', 100).notNullable();
    t.string('role', 10).notNullable();
    t.text('permissions').notNullable().defaultTo('[]');
    t.integer('store_id').unsigned().nullable().references('id').inTable('stores').onDelete('RESTRICT');
    t.text('accessible_stores').notNullable().defaultTo('[]');
    t.boolean('is_active').notNullable().defaultTo(true);
    // Bumped by a password change or deactivation: tokens carrying an older value stop working.
    t.integer('token_version').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('payments', (t) => {
    t.string('uuid', 36).primary();
    t.integer('store_id').unsigned().notNullable().references('id').inTable('stores').onDelete('RESTRICT');
    t.string('last_five', 5).notNullable();
    t.bigInteger('paid_at').notNullable();
    t.bigInteger('amount').notNullable();
    t.string('status', 3).notNullable().defaultTo('未確認');
    t.text('note').notNullable().defaultTo('');
    t.integer('created_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // The list: newest paid_at first, optionally within stores, statuses and a date range.
    t.index(['paid_at'], 'payments_paid_at_idx');
    t.index(['store_id', 'paid_at'], 'payments_store_paid_at_idx');
    t.index(['status', 'paid_at'], 'payments_status_paid_at_idx');
    // Statistics per store and status; duplicate detection on import.
    t.index(['store_id', 'status', 'amount'], 'payments_store_status_amount_idx');
    t.index(['last_five', 'paid_at'], 'payments_last_five_idx');
  });

  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id').primary();
    t.integer('actor_id').nullable();
    t.string('actor_username', 40).notNullable();
    t.string('action', 20).notNullable();
    t.string('entity', 20).notNullable();
    t.string('entity_id', 64).nullable();
    t.text('before').nullable();
    t.text('after').nullable();
    t.string('ip', 64).nullable();
    t.bigInteger('at').notNullable();
    t.index(['at'], 'audit_log_at_idx');
    t.index(['entity', 'entity_id'], 'audit_log_entity_idx');
    t.index(['actor_id', 'at'], 'audit_log_actor_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_log');
  await knex.schema.dropTableIfExists('payments');
  await knex.schema.dropTableIfExists('users');
  await knex.schema.dropTableIfExists('stores');
}
