import type { Knex } from 'knex';

/**
 * Usernames and store codes are unique whatever their case (the services compare lower(...)),
 * now held by the database itself: two requests at the same moment can no longer create
 * `Race2x` and `race2X`. A database that already holds such a pair is not
 * changed; the migration stops and names them, for the operator to rename one.
 *
 * login_throttle_notes: one row per refused username+address and window, so refused sign-ins
 * are audited once per window instead of once per request (item 11).
 */
export async function up(knex: Knex): Promise<void> {
  for (const [table, column, label] of [
    ['users', 'username', '用戶名'],
    ['stores', 'code', '分店代碼'],
  ] as const) {
    const clashes = (await knex(table)
      .select(knex.raw(`lower(${column}) as v`))
      .groupByRaw(`lower(${column})`)
      .havingRaw('count(*) > 1')) as Array<{ v: string }>;
    if (clashes.length) {
      throw new Error(
        `${label}只差大小寫的重複資料：${clashes.map((c) => c.v).join('、')}。請先改名其中之一再升級資料庫。`,
      );
    }
    await knex.raw(`create unique index ${table}_${column}_folded_uq on ${table} (lower(${column}))`);
  }
  await knex.schema.createTable('login_throttle_notes', (t) => {
    t.string('note_key', 200).notNullable();
    t.bigInteger('window_start').notNullable();
    t.primary(['note_key', 'window_start']);
    t.index(['window_start'], 'login_throttle_notes_window_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_throttle_notes');
  await knex.raw('drop index if exists users_username_folded_uq');
  await knex.raw('drop index if exists stores_code_folded_uq');
}
