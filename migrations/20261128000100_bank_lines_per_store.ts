import type { Knex } from 'knex';

/**
 * A statement line is new or already held per store (a security finding, 2026-11-26): the
 * fingerprint was unique across every store, so a store importing the download another store had
 * imported first got nothing (and learned, from the count of duplicates, that the other store
 * holds those lines); where two stores share a bank account, the second could never reconcile.
 * Now a line is unique per the scope of its statement (`store_scope`: the store, or 0 for a
 * statement for every store). An import for a store still skips what that store's
 * reconciliation already has (its own lines and every store's); one for every store skips what
 * any store holds (core/reconcile/service.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bank_lines', (t) => {
    t.bigInteger('store_scope').notNullable().defaultTo(0);
  });
  await knex('bank_lines').update({
    store_scope: knex.raw(
      'coalesce((select s.store_id from bank_statements s where s.id = bank_lines.statement_id), 0)',
    ),
  });
  await knex.schema.alterTable('bank_lines', (t) => {
    t.dropUnique(['fingerprint'], 'bank_lines_fingerprint_uq');
    t.unique(['fingerprint', 'store_scope'], { indexName: 'bank_lines_fingerprint_scope_uq' });
  });
}

export async function down(knex: Knex): Promise<void> {
  // back to one line for all stores: the later copies of a line go (with their links)
  await knex('bank_lines')
    .whereExists(function () {
      this.select(1)
        .from('bank_lines as o')
        .whereRaw('o.fingerprint = bank_lines.fingerprint')
        .whereRaw('o.id < bank_lines.id');
    })
    .delete();
  await knex.schema.alterTable('bank_lines', (t) => {
    t.dropUnique(['fingerprint', 'store_scope'], 'bank_lines_fingerprint_scope_uq');
    t.unique(['fingerprint'], { indexName: 'bank_lines_fingerprint_uq' });
  });
  // ALTER TABLE … DROP COLUMN in place: knex's dropColumn on SQLite copies the table, and dropping
  // the old one cascades to bank_links (every confirmed link would go)
  await knex.raw('alter table bank_lines drop column store_scope');
}
