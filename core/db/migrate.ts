// Listed, not found on disk, so the same list runs from the TypeScript sources and the compiled package.
import type { Knex } from 'knex';
import * as init from '../../migrations/20261121000000_init.js';
import * as listIndexes from '../../migrations/20261121000001_list_indexes_and_daily_stats.js';
import * as loginAttempts from '../../migrations/20261121000002_login_attempts.js';
import * as caseFolded from '../../migrations/20261123000100_case_folded_unique_and_throttle_notes.js';
import * as listIndexesLastFive from '../../migrations/20261123000200_list_indexes_last_five.js';
import * as reconciliation from '../../migrations/20261123000300_reconciliation.js';
import * as listIndexesEverySort from '../../migrations/20261124000600_list_indexes_every_sort.js';
import * as statementAccountsAndPayers from '../../migrations/20261125000100_statement_accounts_and_payers.js';
import * as resavedStatementLines from '../../migrations/20261126000100_resaved_statement_lines.js';
import * as sessionsAndAttemptKinds from '../../migrations/20261126021500_sessions_and_attempt_kinds.js';
import * as dailyFiguresFromTime from '../../migrations/20261127000100_daily_figures_from_time.js';
import * as paymentMethods from '../../migrations/20261127000500_payment_methods.js';
import * as cashAndCloses from '../../migrations/20261127000600_cash_and_closes.js';
import * as paymentDailyByMethod from '../../migrations/20261127000700_payment_daily_by_method.js';
import * as publicLinks from '../../migrations/20261127001000_public_links.js';
import * as boardFigures from '../../migrations/20261127002600_board_figures.js';
import * as bankLinesPerStore from '../../migrations/20261128000100_bank_lines_per_store.js';
import * as publicReportKeys from '../../migrations/20261128041500_public_report_keys.js';
import * as publicDecoys from '../../migrations/20261129060000_public_decoys.js';
import * as moneyGrants from '../../migrations/20261129120000_money_grants.js';
import * as statementHeldLines from '../../migrations/20261129140000_statement_held_lines_and_bank_source.js';
import * as settings from '../../migrations/20261130000100_settings.js';
import { lockForTransaction, LOCKS } from './locks.js';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121000000_init': init,
  '20261121000001_list_indexes_and_daily_stats': listIndexes,
  '20261121000002_login_attempts': loginAttempts,
  '20261123000100_case_folded_unique_and_throttle_notes': caseFolded,
  '20261123000200_list_indexes_last_five': listIndexesLastFive,
  '20261123000300_reconciliation': reconciliation,
  '20261124000600_list_indexes_every_sort': listIndexesEverySort,
  '20261125000100_statement_accounts_and_payers': statementAccountsAndPayers,
  '20261126000100_resaved_statement_lines': resavedStatementLines,
  '20261126021500_sessions_and_attempt_kinds': sessionsAndAttemptKinds,
  '20261127000100_daily_figures_from_time': dailyFiguresFromTime,
  '20261127000500_payment_methods': paymentMethods,
  '20261127000600_cash_and_closes': cashAndCloses,
  '20261127000700_payment_daily_by_method': paymentDailyByMethod,
  '20261127001000_public_links': publicLinks,
  '20261127002600_board_figures': boardFigures,
  '20261128000100_bank_lines_per_store': bankLinesPerStore,
  '20261128041500_public_report_keys': publicReportKeys,
  '20261129060000_public_decoys': publicDecoys,
  '20261129120000_money_grants': moneyGrants,
  '20261129140000_statement_held_lines_and_bank_source': statementHeldLines,
  '20261130000100_settings': settings,
};

/** Names of the migrations this program knows, oldest first (a restore refuses a database with others). */
export function knownMigrationNames(): string[] {
  return Object.keys(MIGRATIONS).sort();
}

class ListedMigrations implements Knex.MigrationSource<string> {
  async getMigrations() {
    return Object.keys(MIGRATIONS).sort();
  }
  getMigrationName(name: string) {
    return name;
  }
  async getMigration(name: string) {
    return MIGRATIONS[name];
  }
}

const options = (): Knex.MigratorConfig => ({ migrationSource: new ListedMigrations(), tableName: 'knex_migrations' });

/** On PostgreSQL, instances take turns under an advisory lock: knex's lock table does not exist yet at first start. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  // Only read when up to date: knex's latest() takes SQLite's write lock even with nothing to apply.
  if (!(await migrationsBehind(db))) return [];
  if (db.client.config.client !== 'pg') return ((await db.migrate.latest(options())) as [number, string[]])[1];
  return db.transaction(async (trx) => {
    await lockForTransaction(trx, LOCKS.migration);
    const [, applied] = (await db.migrate.latest(options())) as [number, string[]];
    return applied;
  });
}

/** Reading only: a known migration not applied, or an applied one not known (knex then says so). */
async function migrationsBehind(db: Knex): Promise<boolean> {
  if (!(await db.schema.hasTable('knex_migrations'))) return true;
  const applied = new Set(((await db('knex_migrations').select('name')) as Array<{ name: string }>).map((r) => r.name));
  const known = knownMigrationNames();
  return known.some((n) => !applied.has(n)) || applied.size !== known.length;
}

/** Applies the next pending migration only (tests use it to check what a later one does to existing data). */
export async function migrateNext(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.up(options())) as [number, string[]];
  return applied;
}

/** The migrations applied to a database, in the order they ran. */
export async function appliedMigrations(db: Knex): Promise<string[]> {
  if (!(await db.schema.hasTable('knex_migrations'))) return [];
  return ((await db('knex_migrations').select('name').orderBy('id')) as Array<{ name: string }>).map((r) => r.name);
}

/** Brings a database to exactly `names` applied, a prefix of the known list (a backup's schema, to read it as it was). */
export async function migrateTo(db: Knex, names: readonly string[]): Promise<void> {
  const known = knownMigrationNames();
  if (names.length > known.length || names.some((n, i) => known[i] !== n))
    throw new Error(`not a prefix of the known migrations: ${names.join(', ')}`);
  while ((await appliedMigrations(db)).length < names.length) await migrateNext(db);
}

/** Undoes the last applied migration only (tests use it to prove each `down` keeps what came before). */
export async function migrateDownOne(db: Knex): Promise<string[]> {
  const [, undone] = (await db.migrate.down(options())) as [number, string[]];
  return undone;
}

/** Undoes every migration (tests use it to prove `down` works). */
export async function migrateDownAll(db: Knex): Promise<void> {
  await db.migrate.rollback(options(), true);
}

export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list(options())) as [unknown[], Array<string | { file: string }>];
  return pending.map((p) => (typeof p === 'string' ? p : p.file));
}
