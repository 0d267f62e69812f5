/**
 * The 備份 API as a caller meets it: only an admin of every store (401 unsigned, 403 for staff and a
 * store-scoped system_admin, before any body is read), a download that streams the file, uploads held to
 * their limit, the typed confirmation, another site refused; and a restore while submissions keep coming, on
 * two instances: each submission lands before (kept in the 還原前 backup), after, or is refused with the
 * restore's sentence, never lost half-way.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment, openDatabase } from '../../core/index.js';
import { lockForTransaction, LOCKS } from '../../core/db/locks.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';
import { listenApi, type Listening } from '../helpers/server.js';

const UPLOAD_LIMIT = 2 * 1024 * 1024;

describe.each(DB_KINDS)('the 備份 API on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let dir: string;
  let nodes: Listening[];
  let second: ReturnType<typeof openDatabase>;
  const errors: unknown[] = [];

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    dir = mkdtempSync(join(tmpdir(), 'remit-http-backups-'));
    const backups = { dir, maxUploadBytes: UPLOAD_LIMIT };
    // a second instance with its own connections, as a second machine behind a load balancer
    second = openDatabase(t.config);
    nodes = [await listenApi({ db: t.db, errors, backups }), await listenApi({ db: second, errors, backups })];
    const ctx = { db: t.db, security: TEST_SECURITY, actor: f.users.admin, ip: null };
    for (let i = 0; i < 300; i++)
      await createPayment(ctx, {
        last_five: String(40000 + i),
        paid_at: '2026-11-17T09:00',
        amount: 10 + i,
        store_id: f.stores.A.id,
      });
  }, 120_000);
  afterAll(async () => {
    for (const n of nodes ?? []) await n.close();
    await second?.destroy();
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(
    method: string,
    path: string,
    opts: { as?: string; body?: unknown; raw?: Buffer; headers?: Record<string, string>; node?: number } = {},
  ): Promise<{ status: number; body: any; headers: Headers; bytes: Buffer }> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.as) headers.authorization = `Bearer ${f.tokens[opts.as]}`;
    let body: BodyInit | undefined;
    if (opts.raw) {
      body = new Uint8Array(opts.raw);
      headers['content-type'] ??= 'application/octet-stream';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${nodes[opts.node ?? 0].url}/api${path}`, { method, headers, body });
    const bytes = Buffer.from(await res.arrayBuffer());
    let parsed: any = undefined;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      /* a file */
    }
    return { status: res.status, body: parsed, headers: res.headers, bytes };
  }

  it('answers only an admin of every store: 401 unsigned, 403 for staff and a store-scoped system_admin', async () => {
    const taken = await call('POST', '/backups', { as: 'admin' });
    expect(taken.status).toBe(201);
    const name = taken.body.name as string;
    const file = readFileSync(join(dir, name));
    const calls: Array<[string, string, { body?: unknown; raw?: Buffer }]> = [
      ['GET', '/backups', {}],
      ['POST', '/backups', {}],
      ['PUT', '/backups/settings', { body: { keep_days: 10 } }],
      ['POST', '/backups/check?filename=x', { raw: file }],
      ['POST', `/backups/restore?filename=x&confirm=${encodeURIComponent('還原')}`, { raw: file }],
      ['GET', `/backups/${name}`, {}],
    ];
    for (const [method, path, opts] of calls) {
      expect((await call(method, path, opts)).status, `${method} ${path} unsigned`).toBe(401);
      for (const who of ['branchA', 'hq_none', 'hq_manage_users']) {
        const r = await call(method, path, { ...opts, as: who });
        expect(r.status, `${method} ${path} ${who}`).toBe(403);
        expect(r.body.message).toBe('權限不足：需要「系統管理」權限');
      }
      const scoped = await call(method, path, { ...opts, as: 'hq_system_admin' });
      expect(scoped.status).toBe(403);
      expect(scoped.body.message).toBe('權限不足：備份含所有分店的資料，只有可存取所有分店的管理員可以備份或還原');
    }
    const list = await call('GET', '/backups', { as: 'admin' });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ dir, keep_days: 14, keep_days_from_env: false });
    expect(list.body.backups[0]).toMatchObject({ name, reason: 'manual', bytes: file.length });
    expect(Date.parse(list.body.last_backup_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a download streams the file itself, named, and is audited', async () => {
    const name = (await call('POST', '/backups', { as: 'admin' })).body.name as string;
    const r = await call('GET', `/backups/${name}`, { as: 'admin' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.bytes.equals(readFileSync(join(dir, name)))).toBe(true);
    expect(gunzipSync(r.bytes).subarray(0, 15).toString()).toBe('remit-backup 1\n');
    const audit = await call('GET', `/audit?filter=${encodeURIComponent(JSON.stringify({ entity: 'backup' }))}`, {
      as: 'admin',
    });
    expect(audit.body.find((e: any) => e.action === 'download')).toMatchObject({
      entity_id: name,
      actor_username: 'admin',
    });
    // only the folder's backups, by name
    expect((await call('GET', '/backups/remit.sqlite', { as: 'admin' })).status).toBe(400);
    expect(
      (await call('GET', '/backups/remit-20200101-000000-000-manual.backup.gz', { as: 'admin' })).body.message,
    ).toBe('找不到備份「remit-20200101-000000-000-manual.backup.gz」（可能已超過保留天數而刪除）');
  });

  it('uploads are held to their limit and type; a restore needs the typed word; another site is refused', async () => {
    const big = Buffer.alloc(UPLOAD_LIMIT + 1);
    const over = await call('POST', '/backups/check?filename=big', { as: 'admin', raw: big });
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('請求內容過大');
    const json = await call('POST', '/backups/check', { as: 'admin', body: { file: 'x' } });
    expect(json.status).toBe(415);
    const name = (await call('POST', '/backups', { as: 'admin' })).body.name as string;
    const file = readFileSync(join(dir, name));
    const unconfirmed = await call('POST', '/backups/restore?filename=x&confirm=yes', { as: 'admin', raw: file });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.message).toBe('請輸入「還原」確認要用備份取代目前的資料');
    const foreign = await call('POST', '/backups', {
      as: 'admin',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('這個要求來自其他網站，已拒絕；請從本系統的頁面操作');

    const check = await call('POST', `/backups/check?filename=${name}`, { as: 'admin', raw: file });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ format: 'remit-backup', counts: { payments: 300, stores: 3 } });
    const wrong = await call('POST', '/backups/check?filename=notes.txt', { as: 'admin', raw: Buffer.from('hello') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('不是 remit 的備份檔，也不是 SQLite 資料庫檔案：notes.txt');
    const keep = await call('PUT', '/backups/settings', { as: 'admin', body: { keep_days: 30 } });
    expect(keep.body).toEqual({ keep_days: 30 });
    expect((await call('PUT', '/backups/settings', { as: 'admin', body: { keep_days: 'x' } })).status).toBe(400);
  });

  it.skipIf(kind !== 'postgres')(
    'a submission on another instance that waits past its limit for a restore is told why, and nothing is written',
    async () => {
      const before = Number(((await t.db('payments').count({ n: '*' }).first()) as { n: number }).n);
      // what a restore holds on the first instance: its lock, and the tables against writing
      const trx = await t.db.transaction();
      try {
        await lockForTransaction(trx, LOCKS.restore);
        await trx.raw('lock table payments in exclusive mode');
        const r = await call('POST', '/payments', {
          as: 'admin',
          node: 1,
          body: { last_five: '77777', paid_at: '2026-11-19T11:00', amount: 5, store_id: f.stores.C.id },
        });
        expect(r.status).toBe(503);
        expect(r.body.message).toBe('系統正在還原備份，請稍後再試');
        expect(r.headers.get('retry-after')).toBe('30');
      } finally {
        await trx.rollback();
      }
      expect(Number(((await t.db('payments').count({ n: '*' }).first()) as { n: number }).n)).toBe(before);
    },
    60_000,
  );

  it('a restore while submissions keep coming on two instances: each lands before, after, or is refused with the restore’s sentence', async () => {
    const name = (await call('POST', '/backups', { as: 'admin' })).body.name as string;
    const file = readFileSync(join(dir, name));
    const outcomes: Array<{ status: number; uuid?: string; message?: string }> = [];
    let restoring = true;
    let n = 0;
    const submit = async (node: number) => {
      while (restoring) {
        const i = n++;
        const r = await call('POST', '/payments', {
          as: 'admin',
          node,
          body: { last_five: String(60000 + i), paid_at: '2026-11-19T10:00', amount: 1 + i, store_id: f.stores.B.id },
        });
        outcomes.push({ status: r.status, uuid: r.body?.uuid, message: r.body?.message });
      }
    };
    const writers = [submit(0), submit(1), submit(1)];
    while (outcomes.length < 5) await new Promise((res) => setImmediate(res));
    const restored = await call('POST', `/backups/restore?filename=${name}&confirm=${encodeURIComponent('還原')}`, {
      as: 'admin',
      raw: file,
    });
    const afterRestore = outcomes.length;
    while (outcomes.length < afterRestore + 5) await new Promise((res) => setImmediate(res));
    restoring = false;
    await Promise.all(writers);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);

    // what the restore replaced, as its 還原前 backup holds it
    const raw = gunzipSync(readFileSync(join(dir, restored.body.pre_restore)));
    const kept = join(dir, 'pre.sqlite');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(kept, raw.subarray(raw.indexOf(10, raw.indexOf(10) + 1) + 1));
    const db = knexFactory({ client: 'sqlite3', connection: { filename: kept }, useNullAsDefault: true });
    const before = new Set(((await db('payments').select('uuid')) as Array<{ uuid: string }>).map((r) => r.uuid));
    await db.destroy();
    const now = new Set(((await t.db('payments').select('uuid')) as Array<{ uuid: string }>).map((r) => r.uuid));

    const refused = outcomes.filter((o) => o.status !== 201);
    for (const o of refused) {
      expect(o.status).toBe(503);
      expect(o.message).toBe('系統正在還原備份，請稍後再試');
    }
    for (const o of outcomes.filter((x) => x.status === 201))
      expect(before.has(o.uuid!) || now.has(o.uuid!)).toBe(true);
    // some landed after the restore, on the restored data
    expect(outcomes.slice(afterRestore).some((o) => o.status === 201 && now.has(o.uuid!))).toBe(true);
    expect(now.size).toBeGreaterThanOrEqual(300);
    expect(errors).toEqual([]);
  }, 120_000);
});
