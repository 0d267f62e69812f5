import type { Knex } from 'knex';

/**
 * Two things the accountant needs for the credits a report does not explain:
 * - bank_statement_lines: the lines a store's statement held that were stored already (a
 *   statement for every store imported them first). The import skipped them as duplicates, and
 *   the store's users, who see only the store's statements, saw none of them: every queue empty,
 *   no word why. Now each is remembered against the store's statement and shown to its users.
 * - payments.source 'bank' (來源 銀行對帳): a payment made in 對帳 from such a credit. The column is
 *   a string already, so up has nothing to change; down turns them into staff's, the only other
 *   source an earlier program knows for what a person entered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bank_statement_lines', (t) => {
    t.bigInteger('statement_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('bank_statements')
      .onDelete('CASCADE');
    t.bigInteger('line_id').unsigned().notNullable().references('id').inTable('bank_lines').onDelete('CASCADE');
    t.primary(['statement_id', 'line_id']);
    t.index(['line_id'], 'bank_statement_lines_line_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('payments').where({ source: 'bank' }).update({ source: 'staff' });
  await knex.schema.dropTableIfExists('bank_statement_lines');
}
