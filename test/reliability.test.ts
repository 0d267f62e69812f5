/**
 * Nothing lost, nothing twice (issue "Reliability and security", points 1 and 2): concurrent
 * submissions during an import, a CLI killed in the middle of an import, a server stopped while
 * answering.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, formatTaipei, MSG } from '../core/index.js';
import { HEADERS } from '../core/payments/sheetFile.js';
import { assertBuilt, BIN, remit, serve } from './helpers/cli.js';
import { DB_KINDS, PG_URL } from './helpers/db.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** n rows for store code TPE, distinct times, as an .xlsx file */
function workbook(n: number, startMinute = 0): Buffer {
  const rows: unknown[][] = [HEADERS];
  const base = Date.UTC(2026, 0, 1) - 8 * 3600_000;
  for (let i = 0; i < n; i++) {
    const t = formatTaipei(base + (startMinute + i) * 60_000);
    rows.push([t.slice(0, 10), String(i % 100000).padStart(5, '0'), t, 100 + (i % 1000), '', 'TPE', '']);
  }
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows, { dense: true }), '匯款記錄');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

const countRows = async (s: TestServer) =>
  Number(((await s.t.db('payments').count({ n: '*' }).first()) as { n: number | string }).n);

describe.each(DB_KINDS)('concurrent submissions during an import on %s', (kind) => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    assertBuilt();
    s = await startTestServer(kind);
    dir = mkdtempSync(join(tmpdir(), 'remit-rel-'));
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every one of 500 submissions exactly once or refuses it with its reason (invalid; busy, nothing stored), never an error, while a 10 000-row import runs in another process', async () => {
    writeFileSync(join(dir, 'import.xlsx'), workbook(10_000));
    // The CLI works on the same database as the server, from its own process.
    const env: Record<string, string> =
      s.t.config.client === 'pg'
        ? {
            DATABASE_URL: `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${s.t.where}`)}`,
            REMIT_JWT_SECRET: 'r7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru',
          }
        : {};
    const args =
      s.t.config.client === 'pg'
        ? ['import', join(dir, 'import.xlsx'), '--json']
        : ['--db', s.t.where, 'import', join(dir, 'import.xlsx'), '--json'];
    const before = await countRows(s);
    const importing = remit(args, { env, timeoutMs: 120_000 });

    const users = ['admin', 'branchA', 'branchB', 'hq_none'];
    const storeOf: Record<string, number> = {
      admin: s.stores.C.id,
      branchA: s.stores.A.id,
      branchB: s.stores.B.id,
      hq_none: s.stores.A.id,
    };
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) => {
        const as = users[i % users.length];
        // every 10th is invalid on purpose (amount 0): refused, not stored
        const amount = i % 10 === 9 ? 0 : 1000 + i;
        return s.api('POST', '/payments', {
          as,
          body: {
            last_five: String(50000 + i),
            paid_at: '2026-11-18T10:00',
            amount,
            store_id: storeOf[as],
            note: `並發${i}`,
          },
        });
      }),
    );
    const imported = await importing;
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).imported).toBe(10_000);

    // No failure: each is stored (201), refused as invalid (400), or, when the import held the
    // database past the 10 s a payment waits (a loaded machine), refused as busy (503 saying
    // nothing was stored, as the README says); the count below proves the busy ones were not.
    const busy = answers.filter((a) => a.status === 503 && a.body?.message === MSG.databaseBusy);
    expect(answers.filter((a) => a.status >= 500 && !busy.includes(a))).toEqual([]);
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 400);
    expect(created.length + refused.length + busy.length).toBe(500);
    expect(refused).toHaveLength(50);
    // each accepted submission is stored exactly once, under the uuid it was answered with
    const uuids = created.map((a) => a.body.uuid as string);
    expect(new Set(uuids).size).toBe(created.length);
    const stored = await s.t.db('payments').whereIn('uuid', uuids).count({ n: '*' }).first();
    expect(Number((stored as { n: number }).n)).toBe(created.length);
    const notes = await s.t.db('payments').where('note', 'like', '並發%').count({ n: '*' }).first();
    expect(Number((notes as { n: number }).n)).toBe(created.length);
    expect(await countRows(s)).toBe(before + 10_000 + created.length);
    expect(s.errors).toEqual([]);
  });
});

describe('crashes', () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-crash-'));
    db = join(dir, 'remit.sqlite');
    expect((await remit(['--db', db, 'migrate'])).code).toBe(0); // only migrate creates a database
    expect((await remit(['--db', db, 'stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const count = async () => {
    const k = openDatabase({ client: 'sqlite', filename: db });
    try {
      return Number(((await k('payments').count({ n: '*' }).first()) as { n: number }).n);
    } finally {
      await k.destroy();
    }
  };

  it('SIGKILL in the middle of a 100 000-row import leaves none of its rows; the rerun stores each exactly once', async () => {
    const file = join(dir, 'big.xlsx');
    writeFileSync(file, workbook(100_000));
    // How long a whole import takes here, on a throw-away copy: the kills land at fractions of it.
    await remit(['--db', join(dir, 'timing.sqlite'), 'migrate']);
    const timing = await remit([
      '--db',
      join(dir, 'timing.sqlite'),
      'stores',
      'add',
      '--name',
      '台北店',
      '--code',
      'TPE',
    ]).then(async () => {
      const t = performance.now();
      await remit(['--db', join(dir, 'timing.sqlite'), 'import', file], { timeoutMs: 120_000 });
      return performance.now() - t;
    });
    const left: number[] = [];
    for (const fraction of [0.35, 0.7, 0.9]) {
      const child = spawn(process.execPath, [BIN, '--db', db, 'import', file], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { PATH: process.env.PATH ?? '' },
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const early = await Promise.race([
        exited,
        new Promise<'running'>((r) => setTimeout(() => r('running'), timing * fraction)),
      ]);
      child.kill('SIGKILL');
      await exited;
      const n = await count();
      // all of the file or none of it, never part; a kill that came after the commit leaves all
      expect([0, 100_000], `killed at ${Math.round(fraction * 100)}% (${early}): ${stderr}`).toContain(n);
      left.push(n);
      if (n) break;
    }
    expect(left[0], 'the first kill lands before the commit').toBe(0);
    const rerun = await remit(['--db', db, 'import', file, '--json'], { timeoutMs: 120_000 });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout).imported).toBe(100_000 - left[left.length - 1]);
    expect(await count()).toBe(100_000);
    const again = await remit(['--db', db, 'import', file, '--json'], { timeoutMs: 120_000 });
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, skipped: 100_000 });
    expect(await count()).toBe(100_000);
  }, 300_000);

  it('SIGTERM lets a request in flight finish, then closes the database cleanly', async () => {
    const srv = serve(['--db', db], { REMIT_ADMIN_PASSWORD: 'unused-here' });
    const { url } = await srv.ready;
    await remit(['--db', db, 'users', 'add', '--username', 'ops', '--password', 'ops-pass-1', '--role', 'admin']);
    const login = await fetch(`${url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ops', password: 'ops-pass-1' }),
    });
    const { token } = (await login.json()) as { token: string };
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      last_five: '77777',
      paid_at: new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString(),
      amount: 10 + i,
      store_id: 1,
    }));
    // The body as a stream read only on demand: its second read comes once the whole request is
    // on the socket, so the stop below lands while the server holds the request, not before it.
    const payload = new TextEncoder().encode(JSON.stringify({ payments: rows }));
    let sent!: () => void;
    const requestSent = new Promise<void>((r) => (sent = r));
    let reads = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          if (reads++ === 0) return c.enqueue(payload);
          c.close();
          sent();
        },
      },
      { highWaterMark: 0 },
    );
    const inFlight = fetch(`${url}/api/payments/bulk-import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
      duplex: 'half',
    } as RequestInit);
    await requestSent;
    srv.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { imported: number }).imported).toBe(20_000);
    expect(await srv.exited).toBe(0);
    // a clean close checkpoints the write-ahead log and removes it
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(await count()).toBe(120_000);
  }, 120_000);
});
