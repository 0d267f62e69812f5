/**
 * Backups and restores through the core services, on SQLite and on PostgreSQL: what goes in comes back
 * (counts, rows, ids that keep working), across databases and from an older schema; every wrong or hostile
 * file is refused with a sentence and changes nothing; the data a restore replaces is kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateSession,
  createPayment,
  createStore,
  createUser,
  DomainError,
  importPayments,
  lastBackup,
  listAudit,
  listFolder,
  listPayments,
  openDatabase,
  runNightlyBackup,
  setKeepDays,
  systemActor,
  taipeiDayStart,
  type ServiceContext,
} from '../core/index.js';
import { backupForDownload, inspectBackup, restoreBackup, takeManualBackup } from '../core/backups/service.js';
import { backupName } from '../core/backups/folder.js';
import { writeWrapped } from '../core/backups/format.js';
import { knownMigrationNames, migrateTo } from '../core/db/migrate.js';
import { signToken } from '../core/users/auth.js';
import type { UserRow } from '../core/users/rows.js';
import { createTestDb, DB_KINDS, PG_URL, TEST_SECURITY, type TestDb } from './helpers/db.js';
import { seed, type Fixture } from './helpers/fixtures.js';

/** The refusal a person reads: its first field message, or the error's own. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError)
      return (err as { errors?: Array<{ message: string }> }).errors?.[0]?.message ?? err.message;
    throw err;
  }
  throw new Error('expected a refusal');
}

async function count(db: TestDb['db'], table: string): Promise<number> {
  return Number(((await db(table).count({ n: '*' }).first()) as { n: number | string }).n);
}

/** What a person checks after a restore: how many of each, and a few rows as they read them. */
async function snapshot(t: TestDb) {
  const payments = (await t
    .db('payments')
    .orderBy('uuid')
    .select('uuid', 'store_id', 'last_five', 'amount', 'note')) as Array<{
    uuid: string;
    store_id: number;
    last_five: string;
    amount: number;
    note: string;
  }>;
  return {
    stores: ((await t.db('stores').orderBy('id').select('id', 'code', 'name')) as unknown[]).map((r) => ({
      ...(r as object),
    })),
    users: ((await t.db('users').orderBy('id').select('id', 'username', 'role')) as unknown[]).map((r) => ({
      ...(r as object),
    })),
    payments: payments.map((p) => ({ ...p, amount: Number(p.amount), store_id: Number(p.store_id) })),
    audit: await count(t.db, 'audit_log'),
    daily: Number(((await t.db('payment_daily').sum({ n: 'n' }).first()) as { n: number | string | null }).n ?? 0),
  };
}

describe.each(DB_KINDS)('backups on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let dir: string;
  let admin: ServiceContext;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    dir = mkdtempSync(join(tmpdir(), 'remit-backups-'));
    admin = { db: t.db, security: TEST_SECURITY, actor: f.users.admin, ip: '192.0.2.7', backups: { dir } };
    adminToken = f.tokens.admin;
    for (let i = 0; i < 30; i++)
      await createPayment(admin, {
        last_five: String(10000 + i),
        paid_at: `2026-11-${String(10 + (i % 9)).padStart(2, '0')}T10:00`,
        amount: 100 + i,
        store_id: [f.stores.A.id, f.stores.B.id][i % 2],
        note: i === 3 ? '備註「三」' : '',
      });
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a backup restored brings back the counts and the rows; ids go on; what it replaced is kept as 還原前', async () => {
    const before = await snapshot(t);
    const taken = await takeManualBackup(admin);
    expect(taken.reason).toBe('manual');
    const file = join(dir, taken.name);

    // changes after the backup: a payment, a store, a user, and one payment deleted
    await createPayment(admin, {
      last_five: '99999',
      paid_at: '2026-11-20T10:00',
      amount: 5000,
      store_id: f.stores.C.id,
    });
    const later = await createStore(admin, { name: '新竹店', code: 'HSZ' });
    await createUser(admin, { username: 'later_user', password: 'shop-key-4821', role: 'user', permissions: [] });
    await t.db('payments').where({ uuid: before.payments[0].uuid }).delete();
    expect((await snapshot(t)).payments.length).toBe(before.payments.length);

    const info = await inspectBackup(admin, file, taken.name);
    expect(info).toMatchObject({
      format: 'remit-backup',
      database: kind === 'postgres' ? 'postgres' : 'sqlite',
      counts: { payments: 30, stores: 3, users: before.users.length },
      schema: knownMigrationNames().at(-1),
      upgraded: false,
    });

    const restored = await restoreBackup(admin, file, { shownAs: taken.name, confirm: '還原' });
    const after = await snapshot(t);
    expect(after.stores).toEqual(before.stores);
    expect(after.users).toEqual(before.users);
    expect(after.payments).toEqual(before.payments);
    // the per-day figures the triggers keep come back as they were, not counted twice
    expect(after.daily).toBe(before.daily);
    expect(after.payments.find((p) => p.note === '備註「三」')).toBeTruthy();

    // ids go on past every id there was: a new store gets one above the store made after the backup
    const fresh = await createStore(admin, { name: '嘉義店', code: 'CYI' });
    expect(fresh.id).toBeGreaterThan(later.id);
    const payment = await createPayment(admin, {
      last_five: '24680',
      paid_at: '2026-11-21T09:00',
      amount: 77,
      store_id: fresh.id,
    });
    expect(payment.uuid).toBeTruthy();
    expect(await count(t.db, 'payment_daily')).toBeGreaterThan(0);

    // the data it replaced is a backup of its own, which holds the later store
    expect(restored.pre_restore).toMatch(/-restore\.backup\.gz$/);
    const kept = await inspectBackup(admin, join(dir, restored.pre_restore), restored.pre_restore);
    expect(kept.counts.stores).toBe(4);

    // audited: the backup, and the restore with what it brought and where the old data went
    const audit = await listAudit(admin, { filter: { entity: 'backup' } });
    const actions = audit.rows.map((r) => r.action);
    expect(actions).toContain('restore');
    const entry = audit.rows.find((r) => r.action === 'restore')!;
    expect(entry.actor_username).toBe('admin');
    expect(entry.after).toMatchObject({ file: taken.name, payment_count: 30, pre_restore: restored.pre_restore });
  });

  it('sessions of users the backup does not hold end; the others go on', async () => {
    const taken = await takeManualBackup(admin);
    const u = await createUser(admin, {
      username: 'temp_clerk',
      password: 'shop-key-4821',
      role: 'user',
      permissions: ['view_payments'],
    });
    const row = (await t.db<UserRow>('users').where({ id: u.id }).first())!;
    const token = signToken(TEST_SECURITY, row);
    expect((await authenticateSession(admin, token)).actor.username).toBe('temp_clerk');
    await restoreBackup(admin, join(dir, taken.name), { shownAs: taken.name, confirm: '還原' });
    expect(await refusal(authenticateSession(admin, token))).toBe('登入已失效，請重新登入');
    expect((await authenticateSession(admin, adminToken)).actor.username).toBe('admin');
  });

  it('refuses without the typed word, and for anyone but an admin of every store', async () => {
    const taken = await takeManualBackup(admin);
    const file = join(dir, taken.name);
    expect(await refusal(restoreBackup(admin, file, { shownAs: taken.name, confirm: '是' }))).toBe(
      '請輸入「還原」確認要用備份取代目前的資料',
    );
    const scoped = { ...admin, actor: f.users.hq_system_admin };
    expect(await refusal(takeManualBackup(scoped))).toBe(
      '權限不足：備份含所有分店的資料，只有可存取所有分店的管理員可以備份或還原',
    );
    expect(await refusal(backupForDownload({ ...admin, actor: f.users.branchA }, taken.name))).toBe(
      '權限不足：需要「系統管理」權限',
    );
    // a name is only ever one of the folder's
    expect(await refusal(backupForDownload(admin, '../remit.sqlite'))).toBe('不是備份檔的名稱：../remit.sqlite');
  });

  describe('wrong and hostile files change nothing', () => {
    let good: string;
    let whole: Buffer;
    let state: Awaited<ReturnType<typeof snapshot>>;
    let work: string;
    beforeAll(async () => {
      const taken = await takeManualBackup(admin);
      good = join(dir, taken.name);
      whole = readFileSync(good);
      state = await snapshot(t);
      work = mkdtempSync(join(tmpdir(), 'remit-hostile-'));
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    const file = (name: string, bytes: Buffer | string) => {
      const p = join(work, name);
      writeFileSync(p, bytes);
      return p;
    };
    /** the backup's payload and header, to build files that are wrong on purpose */
    const parts = () => {
      const raw = gunzipSync(whole);
      const first = raw.indexOf(10);
      const second = raw.indexOf(10, first + 1);
      return {
        header: JSON.parse(raw.subarray(first + 1, second).toString('utf8')),
        payload: raw.subarray(second + 1),
      };
    };
    const wrap = (header: unknown, payload: Buffer) =>
      gzipSync(Buffer.concat([Buffer.from(`remit-backup 1\n${JSON.stringify(header)}\n`), payload]));

    it.each([
      ['not a backup (text)', () => file('notes.txt', 'hello\n'), '不是 remit 的備份檔'],
      ['random bytes', () => file('random.bin', randomBytes(64 * 1024)), '不是 remit 的備份檔'],
      ['truncated', () => file('cut.backup.gz', whole.subarray(0, Math.floor(whole.length / 2))), '備份檔不完整'],
      [
        'one byte changed (tampered)',
        () => {
          const b = Buffer.from(whole);
          b[Math.floor(b.length * 0.6)] ^= 0xff;
          return file('flipped.backup.gz', b);
        },
        /備份檔已損壞|檢查碼不符/,
      ],
      [
        'payload changed, checksum kept',
        () => {
          const { header, payload } = parts();
          const p = Buffer.from(payload);
          p[p.length - 100] ^= 0x01;
          return file('edited.backup.gz', wrap(header, p));
        },
        '檢查碼不符',
      ],
      [
        'a gzip bomb: far more inside than the header says',
        () => {
          const { header } = parts();
          return file('bomb.backup.gz', wrap({ ...header, payload_bytes: 1024 }, Buffer.alloc(64 * 1024 * 1024)));
        },
        '與標頭記載的不符',
      ],
      [
        'a gzip bomb: declares more than the limit',
        () => {
          const { header } = parts();
          return file('huge.backup.gz', wrap({ ...header, payload_bytes: 5 * 1024 ** 3 }, Buffer.alloc(1024)));
        },
        '解壓縮後超過上限',
      ],
      [
        'a gzip bomb without a header',
        () => file('zeros.gz', gzipSync(Buffer.alloc(32 * 1024 * 1024))),
        '不是 remit 的備份檔',
      ],
      ['a newer format', () => file('v9.backup.gz', gzipSync(Buffer.from('remit-backup 9\n{}\n'))), '較新的格式'],
    ])('%s', async (_what, make, message) => {
      const path = make();
      const said = await refusal(restoreBackup(admin, path, { shownAs: 'x', confirm: '還原' }));
      if (typeof message === 'string') expect(said).toContain(message);
      else expect(said).toMatch(message);
      expect(await snapshot(t)).toEqual(state);
    });

    /** A copy of the backup's database, changed by `change`, wrapped as a backup with a right checksum. */
    async function doctored(name: string, change: (db: ReturnType<typeof knexFactory>) => Promise<unknown>) {
      const { payload } = parts();
      const sqlite = file(`${name}.sqlite`, payload);
      const db = knexFactory({ client: 'sqlite3', connection: { filename: sqlite }, useNullAsDefault: true });
      try {
        await change(db);
        const migrations = ((await db('knex_migrations').select('name').orderBy('id')) as Array<{ name: string }>).map(
          (r) => r.name,
        );
        const counts = {
          payments: await count(db as never, 'payments'),
          stores: await count(db as never, 'stores'),
          users: await count(db as never, 'users'),
          audit_log: await count(db as never, 'audit_log'),
        };
        await db.destroy();
        const out = join(work, `${name}.backup.gz`);
        await writeWrapped(sqlite, { taken_at: new Date().toISOString(), database: 'sqlite', migrations, counts }, out);
        return out;
      } finally {
        await db.destroy();
      }
    }

    it('too little disk: refused before writing, a backup and an unpacked upload alike', async () => {
      const full = { ...admin, backups: { dir, keepFree: 1e15 } };
      expect(await refusal(takeManualBackup(full))).toMatch(/^磁碟空間不足：.* 需要約 \d+ MB，只剩 \d+ MB$/);
      expect(await refusal(restoreBackup(full, good, { shownAs: 'x', confirm: '還原' }))).toContain('磁碟空間不足');
      expect(await snapshot(t)).toEqual(state);
    });

    it('a newer schema than the program: refused, 較新版本', async () => {
      const path = await doctored('newer', (db) =>
        db('knex_migrations').insert({ name: '29991231000000_from_the_future', batch: 99, migration_time: new Date() }),
      );
      expect(await refusal(restoreBackup(admin, path, { shownAs: 'newer', confirm: '還原' }))).toContain('較新版本');
      expect(await snapshot(t)).toEqual(state);
    });

    it('a view in place of a table, a virtual table, a computed column: refused as not this product’s', async () => {
      const view = await doctored('view', async (db) => {
        await db.raw('drop table bank_statement_lines');
        await db.raw('create view bank_statement_lines as select 1 as statement_id, 2 as line_id');
      });
      expect(await refusal(restoreBackup(admin, view, { shownAs: 'view', confirm: '還原' }))).toContain(
        '資料表結構不是 remit 的（bank_statement_lines）',
      );
      const computed = await doctored('computed', async (db) => {
        await db.raw('drop table public_decoys');
        await db.raw(
          `create table public_decoys (uuid varchar(36) primary key, store_id integer, last_five varchar(5),
             paid_at bigint, amount bigint as (length(zeroblob(1000000000))), created_at bigint)`,
        );
      });
      expect(await refusal(restoreBackup(admin, computed, { shownAs: 'computed', confirm: '還原' }))).toContain(
        '資料表結構不是 remit 的（public_decoys）',
      );
      expect(await snapshot(t)).toEqual(state);
    });

    it('rows that do not fit their columns, or break a key: refused whole', async () => {
      const text = await doctored('text-amount', (db) => db('payments').limit(1).update({ amount: 'a lot' }));
      expect(await refusal(restoreBackup(admin, text, { shownAs: 't', confirm: '還原' }))).toBe(
        '備份檔的資料不正確（資料表 payments 欄位 amount），未還原任何資料',
      );
      const orphan = await doctored('orphan', (db) => db('payments').limit(1).update({ store_id: 999_999 }));
      expect(await refusal(restoreBackup(admin, orphan, { shownAs: 'o', confirm: '還原' }))).toContain(
        '備份檔的資料不正確（資料表 payments',
      );
      expect(await snapshot(t)).toEqual(state);
    });

    it('extra tables, views and triggers of the file are never copied nor run', async () => {
      const path = await doctored('extras', async (db) => {
        await db.raw('create table evil (x text)');
        await db.raw("create view evil_view as select 'x' as x");
        // would empty the stores on any insert into payments, if it ever ran
        await db.raw('create trigger evil_trigger after insert on payments begin delete from stores; end');
      });
      await restoreBackup(admin, path, { shownAs: 'extras', confirm: '還原' });
      expect(await snapshot(t)).toEqual(state);
      const names =
        kind === 'postgres'
          ? (
              (await t.db.raw(
                'select table_name as name from information_schema.tables where table_schema = current_schema()',
              )) as {
                rows: Array<{ name: string }>;
              }
            ).rows.map((r) => r.name)
          : ((await t.db.raw('select name from sqlite_master')) as Array<{ name: string }>).map((r) => r.name);
      expect(names).not.toContain('evil');
      expect(names).not.toContain('evil_view');
      expect(names).not.toContain('evil_trigger');
      // the database's own triggers are back: a new payment counts in the day's figures
      const daily = state.daily;
      await createPayment(admin, {
        last_five: '13579',
        paid_at: '2026-11-22T09:00',
        amount: 10,
        store_id: f.stores.A.id,
      });
      expect((await snapshot(t)).daily).toBe(daily + 1);
    });
  });

  it('a backup of an older schema is brought forward and restored', async () => {
    const older = knownMigrationNames().filter((n) => n < '20261127000500_payment_methods');
    const work = mkdtempSync(join(tmpdir(), 'remit-older-'));
    try {
      const old = knexFactory({
        client: 'sqlite3',
        connection: { filename: join(work, 'old.sqlite') },
        useNullAsDefault: true,
      });
      await migrateTo(old, older);
      await old('stores').insert({ id: 1, name: '老店', code: 'OLD', created_at: 1, updated_at: 1 });
      await old('users').insert({
        id: 1,
        username: 'admin',
        password_hash: 'x',
        role: 'admin',
        permissions: '[]',
        accessible_stores: '[]',
        created_at: 1,
        updated_at: 1,
      });
      await old('payments').insert({
        uuid: '00000000-0000-4000-8000-000000000001',
        store_id: 1,
        last_five: '11111',
        paid_at: Date.UTC(2025, 0, 2),
        amount: 321,
        status: '已入帳',
        note: '舊的',
        created_at: 1,
        updated_at: 1,
      });
      await old.raw('VACUUM');
      await old.destroy();
      // a raw database file, as `remit backup` wrote them before this format
      const legacy = join(work, 'old.sqlite');
      const info = await inspectBackup(admin, legacy, 'old.sqlite');
      expect(info).toMatchObject({ format: 'sqlite', upgraded: true, counts: { payments: 1, stores: 1, users: 1 } });
      await restoreBackup(admin, legacy, { shownAs: 'old.sqlite', confirm: '還原' });
      const payments = await listPayments(admin, { filter: {} });
      expect(payments.total).toBe(1);
      expect(payments.rows[0]).toMatchObject({ last_five: '11111', amount: 321, method: '匯款', note: '舊的' });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('leaves no unpacked copy behind in the folder', () => {
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe.each(DB_KINDS)('automatic backups on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let dir: string;
  let admin: ServiceContext;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    dir = mkdtempSync(join(tmpdir(), 'remit-auto-'));
    admin = { db: t.db, security: TEST_SECURITY, actor: f.users.admin, ip: null, backups: { dir } };
  });
  afterAll(async () => {
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = () => readdirSync(dir).filter((n) => n.endsWith('.backup.gz'));

  it('an import takes a 匯入前 backup first (a check writes nothing and takes none); audited, and its time is the last backup’s', async () => {
    const rows = [{ last_five: '11111', paid_at: '2026-11-18T10:00', amount: 100, store_id: f.stores.A.id }];
    await importPayments(admin, rows, { dryRun: true });
    expect(names()).toEqual([]);
    const started = Date.now();
    await importPayments(admin, rows);
    expect(names().filter((n) => n.endsWith('-import.backup.gz'))).toHaveLength(1);
    const audit = await listAudit(admin, { filter: { entity: 'backup', action: 'backup' } });
    expect(audit.rows[0].after).toMatchObject({ reason: 'import', payment_count: 0 });
    expect(await lastBackup(admin)).toBeGreaterThanOrEqual(started);
    // without a folder (a program using the library) there is no automatic backup
    await importPayments({ ...admin, backups: undefined }, [{ ...rows[0], last_five: '22222' }]);
    expect(names()).toHaveLength(1);
  });

  it('retention removes automatic backups older than the days set, never a manual one', async () => {
    const copy = readFileSync(join(dir, names()[0]));
    const at = (days: number) => Date.now() - days * 86_400_000;
    for (const [reason, days] of [
      ['daily', 20],
      ['import', 9],
      ['restore', 6],
      ['manual', 30],
      ['daily', 1],
    ] as const)
      writeFileSync(join(dir, backupName(reason, at(days))), copy);
    expect(await setKeepDays(admin, 7)).toBe(7);
    const left = (await listFolder(dir)).map((b) => `${b.reason}`);
    expect(left.sort()).toEqual(['daily', 'import', 'manual', 'restore'].sort());
    expect((await listFolder(dir)).every((b) => b.reason === 'manual' || b.at > at(7))).toBe(true);
    expect(await refusal(setKeepDays(admin, 0))).toBe('保留天數必須是 1 到 3650 之間的整數');
    expect(await refusal(setKeepDays({ ...admin, backups: { dir, keepDays: 30 } }, 5))).toContain(
      'REMIT_BACKUP_KEEP_DAYS',
    );
    const entry = (await listAudit(admin, { filter: { entity: 'backup', action: 'update' } })).rows[0];
    expect(entry.before).toEqual({ keep_days: 14 });
    expect(entry.after).toEqual({ keep_days: 7 });
  });

  it('the nightly backup is taken once a day from 03:00, by one of two instances sharing the database', async () => {
    const other = openDatabase(t.config);
    try {
      const a = { db: t.db, security: TEST_SECURITY, backups: { dir } };
      const b = { db: other, security: TEST_SECURITY, backups: { dir } };
      const day = taipeiDayStart('2026-12-01')!;
      expect(await runNightlyBackup(a, day + 2 * 3_600_000)).toBe('early');
      const before = names().filter((n) => n.endsWith('-daily.backup.gz')).length;
      const at4 = day + 4 * 3_600_000;
      const outcomes = await Promise.all([
        runNightlyBackup(a, at4),
        runNightlyBackup(b, at4),
        runNightlyBackup(b, at4),
      ]);
      expect(outcomes.sort()).toEqual(['already', 'already', 'taken']);
      expect(names().filter((n) => n.endsWith('-daily.backup.gz')).length).toBe(before + 1);
      expect(await runNightlyBackup(b, day + 23 * 3_600_000)).toBe('already');
      expect(await runNightlyBackup(b, day + 28 * 3_600_000)).toBe('taken');
      const entries = (await listAudit(admin, { filter: { entity: 'backup', action: 'backup' } })).rows.filter(
        (r) => (r.after as { reason?: string }).reason === 'daily',
      );
      expect(entries.map((e) => e.actor_username)).toEqual(['system', 'system']);
    } finally {
      await other.destroy();
    }
  });
});

describe.skipIf(!PG_URL)('across databases', () => {
  let lite: TestDb;
  let pg: TestDb;
  let dir: string;
  let f: Fixture;
  beforeAll(async () => {
    [lite, pg] = await Promise.all([createTestDb('sqlite'), createTestDb('postgres')]);
    f = await seed(lite.db);
    dir = mkdtempSync(join(tmpdir(), 'remit-across-'));
    const ctx = { db: lite.db, security: TEST_SECURITY, actor: f.users.admin, ip: null, backups: { dir } };
    for (let i = 0; i < 12; i++)
      await createPayment(ctx, {
        last_five: String(30000 + i),
        paid_at: '2026-11-15T08:00',
        amount: 50 + i,
        store_id: f.stores.C.id,
      });
  });
  afterAll(async () => {
    await Promise.all([lite?.cleanup(), pg?.cleanup()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a SQLite backup restores on PostgreSQL, and that one back on SQLite, the same', async () => {
    const on = (t: TestDb): ServiceContext => ({
      db: t.db,
      security: TEST_SECURITY,
      actor: systemActor('test'),
      ip: null,
      backups: { dir },
    });
    const original = await snapshot(lite);
    const fromLite = await takeManualBackup(on(lite));
    await restoreBackup(on(pg), join(dir, fromLite.name), { shownAs: fromLite.name, confirm: '還原' });
    const onPg = await snapshot(pg);
    expect({ ...onPg, audit: 0 }).toEqual({ ...original, audit: 0 });
    // sequences on PostgreSQL go on from the rows brought in
    const store = await createStore(on(pg), { name: '屏東店', code: 'PIF' });
    expect(store.id).toBeGreaterThan(Math.max(...original.stores.map((s) => Number((s as { id: number }).id))));

    await createPayment(on(lite), {
      last_five: '55555',
      paid_at: '2026-11-16T08:00',
      amount: 9,
      store_id: f.stores.A.id,
    });
    const fromPg = await takeManualBackup(on(pg));
    await restoreBackup(on(lite), join(dir, fromPg.name), { shownAs: fromPg.name, confirm: '還原' });
    const back = await snapshot(lite);
    expect(back.payments).toEqual(original.payments);
    expect(back.stores.map((s) => (s as { code: string }).code)).toEqual([
      ...original.stores.map((s) => (s as { code: string }).code),
      'PIF',
    ]);
  });
});
