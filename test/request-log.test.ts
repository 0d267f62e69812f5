/**
 * `REMIT_LOG=json remit serve`: one JSON line per request on stdout, for a log collector: when, the id
 * (X-Request-Id), the method, the route's pattern, the status and the time taken; never a body, a query, a cookie,
 * a password or a token. An unexpected failure is one JSON line on stderr under the same id. Without REMIT_LOG the
 * server writes what it always wrote: its banner, and failures alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, serve } from './helpers/cli.js';

const PASSWORD = 'log-never-sees-7';

/** The lines a stream wrote after its banner, as they come. */
function lines(stream: NodeJS.ReadableStream): { all: string[] } {
  const seen = { all: [] as string[] };
  let rest = '';
  stream.on('data', (d: Buffer) => {
    const parts = (rest + d.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    seen.all.push(...parts);
  });
  return seen;
}

const jsonLines = (seen: { all: string[] }) =>
  seen.all.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the request log of remit serve', () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-log-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('REMIT_LOG=json: a line per request with its pattern, status, time and id, and no secret of it', async () => {
    const db = join(dir, 'json.sqlite');
    const srv = serve(['--db', db], { REMIT_LOG: 'json', REMIT_ADMIN_PASSWORD: PASSWORD });
    const out = lines(srv.child.stdout!);
    const err = lines(srv.child.stderr!);
    try {
      const { url } = await srv.ready;
      const login = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Request-Id': 'till-3.login' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      const { token } = await login.json();
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      const stores = await fetch(`${url}/api/stores`, { headers: { authorization: `Bearer ${token}` } });
      const store = (await stores.json())[0];
      const one = await fetch(`${url}/api/stores/${store.id}?secret=query-never-logged`, { headers: { cookie } });
      expect(one.status).toBe(200);
      const missing = await fetch(`${url}/api/no-such/thing?ticket=query-never-logged`);
      expect(missing.status).toBe(404);

      // a failure the operator must find: the table renamed under the running server
      await renameTable(db, 'stores', 'stores_gone');
      const broken = await fetch(`${url}/api/stores`, { headers: { authorization: `Bearer ${token}` } });
      expect(broken.status).toBe(500);
      const brokenId = (await broken.json()).request_id;
      expect(brokenId).toBe(broken.headers.get('x-request-id'));

      await expect.poll(() => jsonLines(out).length).toBeGreaterThanOrEqual(5);
      await expect.poll(() => jsonLines(err).length).toBe(1);
      const logged = jsonLines(out);
      expect(logged.map((l) => [l.method, l.route, l.status])).toEqual([
        ['POST', '/api/admin/login', 200],
        ['GET', '/api/stores', 200],
        ['GET', '/api/stores/:id', 200],
        ['GET', '/api/no-such/thing', 404],
        ['GET', '/api/stores', 500],
      ]);
      for (const l of logged) {
        expect(Object.keys(l).sort()).toEqual(['level', 'method', 'ms', 'request_id', 'route', 'status', 'time']);
        expect(l.level).toBe('info');
        expect(typeof l.ms).toBe('number');
        expect(Number.isNaN(Date.parse(String(l.time)))).toBe(false);
      }
      expect(logged[0].request_id).toBe('till-3.login');
      expect(logged[4].request_id).toBe(brokenId);
      const failure = jsonLines(err)[0];
      expect(failure).toMatchObject({ level: 'error', request_id: brokenId, message: 'GET /api/stores failed' });
      expect(String(failure.error)).toMatch(/stores/);

      const everything = [...out.all, ...err.all].join('\n');
      for (const secret of [PASSWORD, token, cookie.split('=')[1], 'query-never-logged'])
        expect(everything).not.toContain(secret);
    } finally {
      srv.child.kill('SIGTERM');
    }
    expect(await srv.exited).toBe(0);
  });

  it('without REMIT_LOG: the banner alone, as before', async () => {
    const db = join(dir, 'text.sqlite');
    const srv = serve(['--db', db], { REMIT_ADMIN_PASSWORD: PASSWORD });
    const out = lines(srv.child.stdout!);
    try {
      const { url } = await srv.ready;
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const login = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      expect(out.all.filter((l) => l.startsWith('{'))).toEqual([]);
    } finally {
      srv.child.kill('SIGTERM');
    }
    expect(await srv.exited).toBe(0);
  });

  it('refuses another REMIT_LOG value with the setting named', async () => {
    const srv = serve(['--db', join(dir, 'bad.sqlite')], { REMIT_LOG: 'yaml' });
    const err = lines(srv.child.stderr!);
    await expect(srv.ready).rejects.toThrow();
    expect(await srv.exited).not.toBe(0);
    expect(err.all.join('\n')).toContain('REMIT_LOG 只能是 json 或不設定（目前是「yaml」）');
  });
});

function renameTable(file: string, from: string, to: string): Promise<void> {
  const db = new sqlite3.Database(file);
  return new Promise((resolve, reject) =>
    db.exec(`PRAGMA busy_timeout = 10000; ALTER TABLE ${from} RENAME TO ${to}`, (e) =>
      db.close(() => (e ? reject(e) : resolve())),
    ),
  );
}
