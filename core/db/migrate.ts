/**
 * Migrations are listed here rather than found on disk, so the same list runs from the
 * TypeScript sources (tests) and from the compiled package (`remit migrate`, `remit serve`).
 */
import type { Knex } from 'knex';
import * as init from '../../migrations/20261121000000_init.js';
import * as listIndexes from '../../migrations/20261121000001_list_indexes_and_daily_stats.js';
import * as loginAttempts from '../../migrations/20261121000002_login_attempts.js';
import * as reconciliation from '../../migrations/20261123000300_reconciliation.js';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121000000_init': init,
  '20261121000001_list_indexes_and_daily_stats': listIndexes,
  '20261121000002_login_attempts': loginAttempts,
  '20261123000300_reconciliation': reconciliation,
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

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(options())) as [number, string[]];
  return applied;
}

/** Applies the next pending migration only (tests use it to check what a later one does to existing data). */
export async function migrateNext(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.up(options())) as [number, string[]];
  return applied;
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
