import type { Knex } from 'knex';

/**
 * Every sort the payment list offers, alone and within a store, read in order from an index:
 * the earlier migrations served only the default sort (paid_at). Each index
 * ends in the tie-breaker (uuid), so a page stops after its rows instead of sorting every match.
 * A status matches a large share of the payments (a fifth or more), so a status filter needs no
 * index of its own per sort: its page reads the sort's index (or the store's) in order and skips
 * the other statuses, and its count reads (status, paid_at, uuid) or (store, status, paid_at,
 * uuid). Ten indexes, not thirty: every index costs each insert and the file about 30 bytes a row.
 * updated_at is not a column of the back office's list, so only its plain sort has an index.
 *
 * The search box (`q`) looks for a last-five prefix, which core turns into a range on the
 * last-five index, or text inside the note: on PostgreSQL a trigram index (pg_trgm) serves
 * `lower(note) like '%…%'` when the extension can be installed; without it the note stays a scan.
 */
export const SORTED_INDEXES: Array<[string, string[]]> = [];
for (const col of ['amount', 'created_at', 'last_five']) {
  SORTED_INDEXES.push([`payments_${col}_sort_idx`, [col, 'uuid']]);
  SORTED_INDEXES.push([`payments_store_${col}_sort_idx`, ['store_id', col, 'uuid']]);
}
SORTED_INDEXES.push(['payments_updated_at_sort_idx', ['updated_at', 'uuid']]);
SORTED_INDEXES.push(['payments_status_sort_idx', ['status', 'uuid']]);
SORTED_INDEXES.push(['payments_store_status_sort_idx', ['store_id', 'status', 'uuid']]);
SORTED_INDEXES.push(['payments_store_sort_idx', ['store_id', 'uuid']]);

export const NOTE_TRIGRAM_INDEX = 'payments_note_trgm_idx';

/**
 * The schema pg_trgm lives in, installing it when it is missing and this user may (PostgreSQL 13
 * and later trust it to a database owner); null when it cannot be had. Tried under a savepoint,
 * so a refusal leaves the migration's transaction usable. Extensions belong to the whole
 * database, not one schema, so it goes into `public` and is never dropped by `down`.
 */
async function trigramSchema(knex: Knex): Promise<string | null> {
  const find = async () => {
    const r = await knex.raw(
      "select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'",
    );
    return (r.rows[0]?.schema as string | undefined) ?? null;
  };
  const found = await find();
  if (found) return found;
  const available = await knex.raw("select 1 from pg_available_extensions where name = 'pg_trgm'");
  if (available.rows.length === 0) return null;
  try {
    await knex.transaction(async (sp) => {
      await sp.raw('create extension if not exists pg_trgm schema public');
    });
  } catch {
    // Not allowed here, or installed at this moment by another schema's migration: look again.
  }
  return find();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    for (const [name, cols] of SORTED_INDEXES) t.index(cols, name);
  });
  if (knex.client.config.client === 'pg') {
    const schema = await trigramSchema(knex);
    if (schema)
      await knex.raw(`create index ${NOTE_TRIGRAM_INDEX} on payments using gin (lower(note) ??.gin_trgm_ops)`, [
        schema,
      ]);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') await knex.raw(`drop index if exists ${NOTE_TRIGRAM_INDEX}`);
  await knex.schema.alterTable('payments', (t) => {
    for (const [name] of SORTED_INDEXES) t.dropIndex([], name);
  });
}
