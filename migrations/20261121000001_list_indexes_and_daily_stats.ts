import type { Knex } from 'knex';

/**
 * Made for a million payments:
 * - List indexes that end in the sort's tie-breaker (paid_at, uuid), so a filtered page is read
 *   in order from the index instead of sorting every match, and the count is index-only.
 * - payment_daily: counts and sums per store, Taiwan day and status, kept by triggers in the
 *   same transaction as every insert, update and delete of a payment, so the dashboard sums a
 *   few thousand rows instead of scanning all payments.
 */
// The Taiwan day as this migration wrote it, kept as written: a migration is history. The live
// definition is core/time.ts's taipeiDayNumberSql; test/taipei-day-sql.test.ts checks that the
// triggers in force compute it. A change of the day would be a new migration redefining them.
const DAY = '86400000';
const TAIPEI = '28800000';
const dayOf = (col: string) => `((${col} + ${TAIPEI}) / ${DAY})`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex([], 'payments_paid_at_idx');
    t.dropIndex([], 'payments_store_paid_at_idx');
    t.dropIndex([], 'payments_status_paid_at_idx');
    t.dropIndex([], 'payments_store_status_amount_idx');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['paid_at', 'uuid'], 'payments_paid_at_idx');
    t.index(['store_id', 'paid_at', 'uuid'], 'payments_store_paid_at_idx');
    t.index(['status', 'paid_at', 'uuid'], 'payments_status_paid_at_idx');
    t.index(['store_id', 'status', 'paid_at', 'uuid'], 'payments_store_status_paid_at_idx');
  });

  await knex.schema.createTable('payment_daily', (t) => {
    t.integer('store_id').notNullable();
    /** days since 1970-01-01 in Taiwan time */
    t.integer('day').notNullable();
    t.string('status', 3).notNullable();
    t.bigInteger('n').notNullable().defaultTo(0);
    t.bigInteger('amount').notNullable().defaultTo(0);
    t.primary(['store_id', 'day', 'status']);
  });

  const add = (p: string) =>
    `insert into payment_daily (store_id, day, status, n, amount) values (${p}.store_id, ${dayOf(`${p}.paid_at`)}, ${p}.status, 1, ${p}.amount)
     on conflict (store_id, day, status) do update set n = payment_daily.n + 1, amount = payment_daily.amount + excluded.amount`;
  const remove = (p: string) =>
    `update payment_daily set n = n - 1, amount = amount - ${p}.amount
     where store_id = ${p}.store_id and day = ${dayOf(`${p}.paid_at`)} and status = ${p}.status`;

  if (knex.client.config.client === 'pg') {
    await knex.raw(`create function payments_daily_apply() returns trigger as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${remove('old')}; end if;
        if tg_op in ('UPDATE', 'INSERT') then ${add('new')}; end if;
        return null;
      end $$ language plpgsql`);
    await knex.raw(
      'create trigger payments_daily after insert or update or delete on payments for each row execute function payments_daily_apply()',
    );
  } else {
    await knex.raw(`create trigger payments_daily_ins after insert on payments begin ${add('new')}; end`);
    await knex.raw(`create trigger payments_daily_del after delete on payments begin ${remove('old')}; end`);
    await knex.raw(
      `create trigger payments_daily_upd after update of store_id, paid_at, amount, status on payments begin ${remove('old')}; ${add('new')}; end`,
    );
  }
  await knex.raw(
    `insert into payment_daily (store_id, day, status, n, amount)
     select store_id, ${dayOf('paid_at')}, status, count(*), sum(amount) from payments group by store_id, ${dayOf('paid_at')}, status`,
  );
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('drop trigger if exists payments_daily on payments');
    await knex.raw('drop function if exists payments_daily_apply()');
  } else {
    for (const t of ['payments_daily_ins', 'payments_daily_del', 'payments_daily_upd'])
      await knex.raw(`drop trigger if exists ${t}`);
  }
  await knex.schema.dropTableIfExists('payment_daily');
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex([], 'payments_paid_at_idx');
    t.dropIndex([], 'payments_store_paid_at_idx');
    t.dropIndex([], 'payments_status_paid_at_idx');
    t.dropIndex([], 'payments_store_status_paid_at_idx');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['paid_at'], 'payments_paid_at_idx');
    t.index(['store_id', 'paid_at'], 'payments_store_paid_at_idx');
    t.index(['status', 'paid_at'], 'payments_status_paid_at_idx');
    t.index(['store_id', 'status', 'amount'], 'payments_store_status_amount_idx');
  });
}
