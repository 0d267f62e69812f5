/**
 * a request body is read only for a caller allowed to send it, and no body,
 * however hostile, holds up other requests: nesting is refused as it arrives, size is bounded
 * after inflation, and a large body is parsed without blocking.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import { type UserRow } from '../../core/users/rows.js';
import { DB_KINDS, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { importBody } from '../../http/middleware/body.js';
import { listen, secondInstance, startTestServer, type TestServer } from '../helpers/server.js';

interface Answer {
  status: number;
  text: string;
  /** true when the answer came while the request body was still unsent */
  early: boolean;
}

/**
 * Declares a body of `declared` bytes, sends the first KB of it, and waits for an answer, which
 * must come before `deadlineMs` (the rest of the body is never sent).
 */
function sendPartly(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  declared: number,
  first: Buffer = Buffer.alloc(1024, 0x20),
  deadlineMs = 15_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { ...headers, 'content-length': String(declared) } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer within ${deadlineMs} ms while the body was being sent`));
    }, deadlineMs);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text, early: !req.writableEnded });
        req.destroy();
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.write(first); // by default spaces: the start of any JSON body
  });
}

/** Sends a whole body and answers the status and how long it took. */
async function post(base: string, path: string, token: string, body: Buffer, headers: Record<string, string> = {}) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body as unknown as BodyInit,
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}

/** Calls /api/health one after another until `work` settles; answers the slowest. */
async function healthDuring<T>(base: string, work: Promise<T>): Promise<{ result: T; slowest: number; calls: number }> {
  let done = false;
  const settled = work.finally(() => (done = true));
  let slowest = 0;
  let calls = 0;
  while (!done) {
    const t0 = performance.now();
    const res = await fetch(`${base}/health`);
    await res.text();
    slowest = Math.max(slowest, performance.now() - t0);
    calls++;
  }
  return { result: await settled, slowest, calls };
}

describe.each(DB_KINDS)('request bodies on %s', (kind) => {
  let s: TestServer;
  let other: { url: string; close(): Promise<void> };
  let nobody: string; // signed in, no store at all, no permission
  beforeAll(async () => {
    s = await startTestServer(kind);
    other = await secondInstance(s);
    const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const u = await createUser(ctx, { username: 'nobody5', password: PASSWORD, role: 'user', permissions: [] });
    nobody = signToken(TEST_SECURITY, (await s.t.db<UserRow>('users').where({ id: u.id }).first())!);
  });
  afterAll(async () => {
    await other?.close();
    await s?.close();
  });

  it('refuses a caller without the permission while the body is still being sent, on every route with a body', async () => {
    const json = { 'content-type': 'application/json' };
    const MB = 1024 * 1024;
    const probes: Array<[string, string, Record<string, string>, number, string]> = [
      // the import bodies: 24 MB declared, 1 KB sent
      ['POST', '/payments/bulk-import', json, 24 * MB, 'hq_none'],
      ['POST', '/payments/bulk-import/check', json, 24 * MB, 'hq_view_payments'],
      [
        'POST',
        `/reconcile/statements?filename=a.csv&store_id=${1}`,
        { 'content-type': 'application/octet-stream' },
        24 * MB,
        'hq_edit_payments',
      ],
      ['POST', '/payments/import-file?filename=a.csv', { 'content-type': 'text/csv' }, 24 * MB, 'hq_none'],
      // the small ones: 90 KB declared (under their 100 KB limit), 1 KB sent
      ['POST', '/users', json, 90 * 1024, 'hq_none'],
      ['PUT', '/users/1', json, 90 * 1024, 'branchA'],
      ['POST', '/stores', json, 90 * 1024, 'hq_manage_users'],
      ['PUT', '/stores/1', json, 90 * 1024, 'hq_none'],
      ['PUT', '/payments/00000000-0000-4000-8000-000000000000', json, 90 * 1024, 'hq_view_payments'],
      ['DELETE', '/payments', json, 90 * 1024, 'hq_edit_payments'],
      ['POST', '/payments/export-ticket', json, 90 * 1024, 'hq_none'],
      ['POST', '/reconcile/confirm', json, 90 * 1024, 'hq_view_payments'],
      ['POST', '/reconcile/unpaid', json, 90 * 1024, 'hq_none'],
      ['POST', '/reconcile/unlink', json, 90 * 1024, 'hq_manage_payments'],
      ['POST', '/payments', json, 90 * 1024, 'nobody'],
      // cash out needs what a payment needs, a close edit_payments, reopening manage_payments
      ['POST', '/cash-out', json, 90 * 1024, 'nobody'],
      ['POST', '/closes', json, 90 * 1024, 'hq_view_payments'],
      ['POST', '/closes/reopen', json, 90 * 1024, 'hq_edit_payments'],
    ];
    for (const base of [`${s.url}/api`, other.url]) {
      for (const [method, path, headers, declared, who] of probes) {
        const token = who === 'nobody' ? nobody : s.tokens[who];
        const r = await sendPartly(base, method, path, { ...headers, authorization: `Bearer ${token}` }, declared);
        expect(r.status, `${method} ${path} as ${who}: ${r.text}`).toBe(403);
        expect(JSON.parse(r.text).message).toMatch(/權限不足/);
        expect(r.early, `${method} ${path}: answered only after the whole body`).toBe(true);
      }
      // anonymous callers are refused before their body too, change-password included
      for (const path of ['/users/change-password', '/payments/bulk-import', '/users']) {
        const r = await sendPartly(base, 'POST', path, json, 90 * 1024);
        expect(r.status, path).toBe(401);
        expect(r.early).toBe(true);
      }
    }
    expect(s.errors).toEqual([]);
  });

  it('refuses deep nesting while it is still arriving, plain or gzipped, and keeps /api/health fast during hostile bodies', async () => {
    const token = s.tokens.hq_manage_payments;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const deep = Buffer.from('['.repeat(10_000_000));
    const deepZipped = gzipSync(deep);
    // 10 MB of [ declared, the first KB sent (of the plain text, and of its gzip): refused at once
    for (const base of [`${s.url}/api`, other.url]) {
      const plain = await sendPartly(base, 'POST', '/payments/bulk-import', auth, deep.length, deep.subarray(0, 1024));
      expect(plain.status, plain.text).toBe(400);
      expect(JSON.parse(plain.text).message).toBe('請求內容的巢狀層數過多（最多 32 層）');
      expect(plain.early).toBe(true);
      const zipped = await sendPartly(
        base,
        'POST',
        '/payments/bulk-import',
        { ...auth, 'content-encoding': 'gzip' },
        deepZipped.length,
        deepZipped.subarray(0, 1024),
      );
      expect(zipped.status, zipped.text).toBe(400);
      expect(zipped.early).toBe(true);
    }
    // whole hostile bodies: each answered as it should be while /api/health keeps answering
    const hostile: Array<[string, Buffer, Record<string, string>, number]> = [
      ['10 MB of [', deep, {}, 400],
      ['10 MB of [ gzipped', deepZipped, { 'content-encoding': 'gzip' }, 400],
      ['40 MB of spaces gzipped', gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20)), { 'content-encoding': 'gzip' }, 413],
      ['8 MB of 0,', Buffer.from(`{"payments":[${'0,'.repeat(4_000_000)}0]}`), {}, 413],
      [
        'a broken gzip stream',
        Buffer.concat([gzipSync(Buffer.from('{"payments":[]}')).subarray(0, 10), Buffer.alloc(100, 7)]),
        { 'content-encoding': 'gzip' },
        400,
      ],
      ['an unknown content encoding', Buffer.from('{}'), { 'content-encoding': 'zstd' }, 415],
    ];
    for (const [name, body, headers, status] of hostile) {
      const base = name.includes('gzipped') ? other.url : `${s.url}/api`;
      const { result, slowest } = await healthDuring(base, post(base, '/payments/bulk-import', token, body, headers));
      expect(result.status, `${name}: ${result.text}`).toBe(status);
      // wall-clock time on a shared machine: generous; before the fix, 10 MB of [ held it 1.2 s unloaded
      expect(slowest, `${name}: /api/health waited ${Math.round(slowest)} ms`).toBeLessThan(1000);
    }
    // the connection and the server are fine afterwards, and a sound body still imports
    const ok = await post(
      `${s.url}/api`,
      '/payments/bulk-import',
      token,
      Buffer.from(
        JSON.stringify({
          payments: [{ last_five: '55555', paid_at: '2026-11-18T10:00', amount: 55, store_id: s.stores.A.id }],
        }),
      ),
    );
    expect(ok.status, ok.text).toBe(200);
    const zipped = await post(
      other.url,
      '/payments/bulk-import/check',
      token,
      gzipSync(
        JSON.stringify({
          payments: [{ last_five: '55556', paid_at: '2026-11-18T10:00', amount: 56, store_id: s.stores.A.id }],
        }),
      ),
      { 'content-encoding': 'gzip' },
    );
    expect(zipped.status, zipped.text).toBe(200);
    expect(s.errors).toEqual([]);
  });
});

describe('a large JSON body', () => {
  it('is parsed in slices, the event loop turning between them, not in one piece', async () => {
    // The body middleware alone, on a real connection: count the turns of the event loop from
    // the moment the whole body has arrived to the moment the route receives it parsed. One
    // JSON.parse takes none (300 to 700 ms of this body in one piece); slices take one each.
    const padding = `[${Array.from({ length: 480_000 }, (_, i) => `{"k":${i},"v":"${'x'.repeat(30)}"}`).join(',')}]`;
    const body = Buffer.from(`{"padding":${padding},"payments":[]}`);
    let turns = 0;
    let counting = false;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.req.once('end', () => {
        counting = true;
        setImmediate(count);
      });
      await next();
    });
    app.use(importBody);
    let parsed: unknown;
    app.use((ctx) => {
      counting = false;
      parsed = ctx.request.body;
      ctx.body = { turns };
    });
    const server = await listen(app);
    try {
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body as unknown as BodyInit,
      });
      expect(res.status).toBe(200);
      expect((parsed as { padding: unknown[] }).padding).toHaveLength(480_000);
      expect((parsed as { padding: Array<{ k: number }> }).padding[479_999].k).toBe(479_999);
      // about 24 MB in slices of 256 KB: some 90 turns
      expect(turns).toBeGreaterThanOrEqual(50);
    } finally {
      await server.close();
    }
  });
});

describe('a client that leaves mid-body', () => {
  it('ends its request at once, keeping nothing, plain or gzipped', async () => {
    for (const encoding of ['identity', 'gzip']) {
      let settle!: (how: string) => void;
      const settled = new Promise<string>((r) => (settle = r));
      const app = new Koa();
      app.silent = true;
      app.use(async (ctx, next) => {
        try {
          await next();
          settle(`answered ${ctx.status}`);
        } catch (err) {
          // a 4xx for the error handler, never a server fault to log
          expect((err as { status?: number }).status).toBe(400);
          settle(`failed ${(err as { code?: string }).code ?? 400}`);
        }
      });
      app.use(importBody);
      app.use((ctx) => {
        ctx.body = {};
      });
      const server = await listen(app);
      try {
        const first =
          encoding === 'gzip'
            ? gzipSync(Buffer.from(`{"payments":[${'1,'.repeat(50_000)}`)).subarray(0, 200)
            : Buffer.from('{"payments":[');
        const req = request(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': '1000000' },
        });
        req.on('error', () => {});
        req.write(first, () => setImmediate(() => req.destroy()));
        const deadline = new Promise<string>((r) => setTimeout(() => r('still waiting after 15 s'), 15_000).unref());
        expect(await Promise.race([settled, deadline]), encoding).toMatch(/^failed (ECONNRESET|400)$/);
      } finally {
        await server.close();
      }
    }
  });
});
