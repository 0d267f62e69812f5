/**
 * Test databases: every database test runs on SQLite, and again on PostgreSQL when
 * REMIT_TEST_PG_URL is set. Each test database is private (its own SQLite file, or its own
 * PostgreSQL schema), so runs and files never collide.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrateLatest, openDatabase } from '../../core/index.js';
import { type DbConfig } from '../../core/db/connect.js';
import { type SecuritySettings } from '../../core/context.js';

export type DbKind = 'sqlite' | 'postgres';

export const PG_URL = process.env.REMIT_TEST_PG_URL;
export const DB_KINDS: DbKind[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const TEST_SECURITY: SecuritySettings = {
  jwtSecret: randomBytes(32).toString('hex'),
  tokenTtlSeconds: 3600,
  bcryptCost: 10,
};

export interface TestDb {
  kind: DbKind;
  db: Knex;
  config: DbConfig;
  /** a SQLite file, or a PostgreSQL schema */
  where: string;
  cleanup(): Promise<void>;
}

/** A fresh, empty database of the given kind (not migrated unless asked). */
export async function createTestDb(kind: DbKind, opts: { migrate?: boolean } = { migrate: true }): Promise<TestDb> {
  if (kind === 'postgres') {
    if (!PG_URL) throw new Error('REMIT_TEST_PG_URL is not set');
    const schema = `remit_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = knexFactory({ client: 'pg', connection: PG_URL, pool: { min: 0, max: 1 } });
    await admin.raw('create schema ??', [schema]);
    await admin.destroy();
    const config: DbConfig = { client: 'pg', connectionString: PG_URL, searchPath: schema };
    const db = openDatabase(config);
    if (opts.migrate !== false) await migrateLatest(db);
    return {
      kind,
      db,
      config,
      where: schema,
      async cleanup() {
        await db.destroy();
        const a = knexFactory({ client: 'pg', connection: PG_URL, pool: { min: 0, max: 1 } });
        await a.raw('drop schema if exists ?? cascade', [schema]);
        await a.destroy();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'remit-test-'));
  const filename = join(dir, 'remit.sqlite');
  const config: DbConfig = { client: 'sqlite', filename };
  const db = openDatabase(config);
  if (opts.migrate !== false) await migrateLatest(db);
  return {
    kind,
    db,
    config,
    where: filename,
    async cleanup() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
