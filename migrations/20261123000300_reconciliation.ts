import type { Knex } from 'knex';

/**
 * Bank reconciliation: the statements imported, their lines, and the links between a payment
 * and the statement line that paid it. A line's fingerprint is unique, so importing the same or
 * an overlapping download again adds nothing; a link is unique on each side, so two people
 * confirming the same payment or the same line at the same moment cannot both win.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bank_statements', (t) => {
    t.bigIncrements('id').primary();
    t.string('file', 255).notNullable();
    t.integer('imported_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    /** the store it was imported for; null = for all stores */
    t.integer('store_id').unsigned().nullable().references('id').inTable('stores').onDelete('RESTRICT');
    t.string('encoding', 16).notNullable();
    /** role → header text, JSON */
    t.text('columns').notNullable();
    t.string('period_from', 10).nullable();
    t.string('period_to', 10).nullable();
    t.integer('lines').notNullable();
    t.integer('new_lines').notNullable();
    t.integer('balance_breaks').notNullable();
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('bank_lines', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('statement_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('bank_statements')
      .onDelete('CASCADE');
    /** the row as a spreadsheet program numbers it */
    t.integer('row').notNullable();
    t.bigInteger('at').notNullable();
    t.boolean('has_time').notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('balance').nullable();
    t.text('summary').notNullable();
    t.text('note').notNullable();
    t.string('counterparty', 255).notNullable();
    t.string('digits', 8).notNullable();
    t.string('fingerprint', 64).notNullable().unique('bank_lines_fingerprint_uq');
    t.index(['at'], 'bank_lines_at_idx');
    t.index(['statement_id', 'row'], 'bank_lines_statement_idx');
  });
  await knex.schema.createTable('bank_links', (t) => {
    t.bigIncrements('id').primary();
    t.string('payment_uuid', 36)
      .notNullable()
      .unique('bank_links_payment_uq')
      .references('uuid')
      .inTable('payments')
      .onDelete('CASCADE');
    t.bigInteger('line_id')
      .unsigned()
      .notNullable()
      .unique('bank_links_line_uq')
      .references('id')
      .inTable('bank_lines')
      .onDelete('CASCADE');
    /** the payment's status before the link, restored by unlinking */
    t.string('status_before', 16).notNullable();
    /** 'person' or 'auto' */
    t.string('decided_by', 8).notNullable();
    t.integer('actor_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.float('score').nullable();
    /** JSON array of the reasons a person can read */
    t.text('reasons').notNullable();
    t.bigInteger('at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('bank_links');
  await knex.schema.dropTableIfExists('bank_lines');
  await knex.schema.dropTableIfExists('bank_statements');
}
