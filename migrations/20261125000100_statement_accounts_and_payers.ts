import type { Knex } from 'knex';

/**
 * Several bank accounts per store, and payer memory.
 *
 * - bank_statements.account: the bank account a statement records (its title row's 帳號, or the
 *   one chosen on upload); null when neither says. A line's fingerprint includes it, so two
 *   accounts with an identical line both keep it.
 * - bank_lines.payer: who paid, as the statement shows them (the reader's StatementLine.payer).
 * - reconcile_payers: what a confirmed link taught about a payer on one store's statements (this
 *   payer reported this last five), with the link it came from. One row per store, payer and last
 *   five; it goes with its payment or line (cascade), is forgotten by a person (audited) or by
 *   unlinking the link that taught it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bank_statements', (t) => {
    t.string('account', 64).nullable();
  });
  await knex.schema.alterTable('bank_lines', (t) => {
    t.string('payer', 255).notNullable().defaultTo('');
  });
  await knex.schema.createTable('reconcile_payers', (t) => {
    t.bigIncrements('id').primary();
    t.integer('store_id').unsigned().notNullable().references('id').inTable('stores').onDelete('CASCADE');
    t.string('payer', 255).notNullable();
    t.string('last_five', 5).notNullable();
    /** the link it was learned from: its payment and line */
    t.string('payment_uuid', 36).notNullable().references('uuid').inTable('payments').onDelete('CASCADE');
    t.bigInteger('line_id').unsigned().notNullable().references('id').inTable('bank_lines').onDelete('CASCADE');
    /** 'person' or 'auto', as the link was decided */
    t.string('learned_by', 8).notNullable();
    t.integer('actor_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('actor_username', 40).notNullable();
    t.bigInteger('learned_at').notNullable();
    t.unique(['store_id', 'payer', 'last_five'], { indexName: 'reconcile_payers_fact_uq' });
    t.index(['payment_uuid'], 'reconcile_payers_payment_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('reconcile_payers');
  // SQLite: its own ALTER TABLE … DROP COLUMN (3.35+), not knex's copy of the table, which drops
  // bank_lines inside the migration's transaction where foreign keys cannot be switched off, and
  // would take every bank_links row with it (ON DELETE CASCADE).
  for (const [table, column] of [
    ['bank_lines', 'payer'],
    ['bank_statements', 'account'],
  ] as const) {
    if (knex.client.config.client === 'pg') await knex.schema.alterTable(table, (t) => t.dropColumn(column));
    else await knex.raw('alter table ?? drop column ??', [table, column]);
  }
}
