import { afterEach, describe, expect, it } from 'vitest';
import { migrateDownAll, migrateLatest, pendingMigrations } from '../core/index.js';
import { createTestDb, DB_KINDS, type TestDb } from './helpers/db.js';

const TABLES = ['stores', 'users', 'payments', 'audit_log'];

describe.each(DB_KINDS)('migrations on %s', (kind) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('go up on an empty database, down again, and up again', async () => {
    t = await createTestDb(kind, { migrate: false });
    expect(await pendingMigrations(t.db)).toEqual(['20261121000000_init']);
    expect(await migrateLatest(t.db)).toEqual(['20261121000000_init']);
    for (const table of TABLES) expect(await t.db.schema.hasTable(table), table).toBe(true);
    expect(await pendingMigrations(t.db)).toEqual([]);
    expect(await migrateLatest(t.db)).toEqual([]);

    await migrateDownAll(t.db);
    for (const table of TABLES) expect(await t.db.schema.hasTable(table), table).toBe(false);
    expect(await migrateLatest(t.db)).toEqual(['20261121000000_init']);
  });

  it('enforces foreign keys and unique codes in the database itself', async () => {
    t = await createTestDb(kind);
    const now = Date.now();
    await t.db('stores').insert({ name: '台北店', code: 'TPE', created_at: now, updated_at: now });
    await expect(t.db('stores').insert({ name: '另一家', code: 'TPE', created_at: now, updated_at: now })).rejects.toThrow();
    await expect(
      t.db('payments').insert({ uuid: 'x', store_id: 999, last_five: '12345', paid_at: now, amount: 1, status: '未確認', note: '', created_at: now, updated_at: now }),
    ).rejects.toThrow();
  });
});
