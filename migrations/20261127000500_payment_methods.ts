import type { Knex } from 'knex';

/**
 * A payment's method (how the money came in).
 * - method: '匯款' | '現金' | '刷卡' | '電子支付', stored in Chinese as status is; every payment
 *   stored before is a transfer, so the default '匯款' fills them.
 * - method_detail: the sub-type of an e-payment (LINE Pay, 街口支付 …), null otherwise.
 * - employee: a staff purchase (員工購物).
 * A payment other than a transfer has no last five: `last_five` stays not null and holds ''
 * (every reader keeps reading a string; the rules in core/payments/methods.ts say which need it).
 * Indexes for the list's method filter, ending in the sort's tie-breaker like the others, and
 * for the list's sort by method, alone and within a store, as status has (20261124000600).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.string('method', 4).notNullable().defaultTo('匯款');
    t.string('method_detail', 30).nullable();
    t.boolean('employee').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['method', 'paid_at', 'uuid'], 'payments_method_paid_at_idx');
    t.index(['store_id', 'method', 'paid_at', 'uuid'], 'payments_store_method_paid_at_idx');
    t.index(['method', 'uuid'], 'payments_method_sort_idx');
    t.index(['store_id', 'method', 'uuid'], 'payments_store_method_sort_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex([], 'payments_store_method_sort_idx');
    t.dropIndex([], 'payments_method_sort_idx');
    t.dropIndex([], 'payments_store_method_paid_at_idx');
    t.dropIndex([], 'payments_method_paid_at_idx');
  });
  // Plain ALTER TABLE … DROP COLUMN on both (SQLite 3.35+): knex would rebuild the SQLite table,
  // and with it lose the payment_daily triggers and the indexes.
  for (const col of ['employee', 'method_detail', 'method']) await knex.raw(`alter table payments drop column ${col}`);
}
