/** the SQLite database, its WAL and every backup are readable by their owner only. */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBackup } from '../backups/take.js';
import { openDatabase } from './connect.js';
import { migrateLatest } from './migrate.js';

const mode = (f: string) => statSync(f).mode & 0o777;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('file modes', () => {
  it('a new database, its -wal file and a backup are 0600; an existing 0644 database is narrowed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-modes-'));
    dirs.push(dir);
    const file = join(dir, 'remit.sqlite');
    const db = openDatabase({ client: 'sqlite', filename: file });
    try {
      await migrateLatest(db);
      expect(mode(file)).toBe(0o600);
      if (existsSync(`${file}-wal`)) expect(mode(`${file}-wal`)).toBe(0o600);
      const backup = join(dir, 'backup.backup.gz');
      await writeBackup(db, backup);
      expect(mode(backup)).toBe(0o600);
    } finally {
      await db.destroy();
    }
    const old = join(dir, 'old.sqlite');
    writeFileSync(old, '');
    chmodSync(old, 0o644);
    const db2 = openDatabase({ client: 'sqlite', filename: old });
    await db2.raw('select 1');
    await db2.destroy();
    expect(mode(old)).toBe(0o600);
  });

  it('a backup’s unpacked copy is 0600 before SQLite writes the first byte into it, not only once written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-modes-'));
    dirs.push(dir);
    const db = openDatabase({ client: 'sqlite', filename: join(dir, 'remit.sqlite') });
    try {
      await migrateLatest(db);
      const seen: Array<number | null> = [];
      // what the file is when VACUUM INTO starts writing it
      // seen as a database without a file, the copy is made on its own connection, where the proxy sees it
      const asIfInMemory = { config: { ...db.client.config, connection: { filename: ':memory:' } } };
      const watched = new Proxy(db, {
        get(target, key, receiver) {
          if (key === 'client') return asIfInMemory;
          if (key !== 'raw') return Reflect.get(target, key, receiver);
          return (sql: string, bindings?: unknown[]) => {
            if (/VACUUM INTO/i.test(sql) && bindings)
              seen.push(existsSync(String(bindings[0])) ? statSync(String(bindings[0])).mode & 0o777 : null);
            return target.raw(sql, bindings as never);
          };
        },
      });
      await writeBackup(watched, join(dir, 'backup.backup.gz'));
      expect(seen).toEqual([0o600]);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
