/** A real listening API server on a private test database, and a small client for it. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type Koa from 'koa';
import { openDatabase } from '../../core/index.js';
import { createApp, type AppOptions } from '../../http/app.js';
import { createTestDb, TEST_SECURITY, type DbKind, type TestDb } from './db.js';
import { seed, type Fixture } from './fixtures.js';

/** A server listening on a free port of 127.0.0.1 (port 0, never a fixed one). */
export interface Listening {
  url: string;
  server: Server;
  /** stops listening and drops open connections */
  close(): Promise<void>;
}

/** Starts `app` on a free port. */
export async function listen(app: Pick<Koa, 'listen'>): Promise<Listening> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * One API instance on a database: call it several times on one database (or on two connections
 * to it) for instances behind a load balancer. Unexpected errors go to `errors` when given.
 */
export function listenApi(
  opts: Omit<AppOptions, 'log' | 'security'> & Partial<Pick<AppOptions, 'security'>> & { errors?: unknown[] },
): Promise<Listening> {
  const { errors, ...app } = opts;
  return listen(
    createApp({
      security: TEST_SECURITY,
      ...app,
      log: errors ? (_m, e) => errors.push(e) : (m, e) => console.error(m, e),
    }),
  );
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestServer extends Fixture {
  url: string;
  t: TestDb;
  errors: unknown[];
  /** calls /api<path>; `as` picks a fixture user's token, `token` gives one directly */
  api<T = any>(
    method: string,
    path: string,
    opts?: { as?: string; token?: string; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startTestServer(kind: DbKind, opts: { after?: AppOptions['after'] } = {}): Promise<TestServer> {
  const t = await createTestDb(kind);
  const fixture = await seed(t.db);
  const errors: unknown[] = [];
  const { url, close } = await listenApi({ db: t.db, errors, after: opts.after });
  return {
    ...fixture,
    url,
    t,
    errors,
    async api(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const token = opts.token ?? (opts.as ? fixture.tokens[opts.as] : undefined);
      if (opts.as && !token) throw new Error(`no fixture user ${opts.as}`);
      if (token) headers.authorization = `Bearer ${token}`;
      let body: string | Buffer | undefined;
      if (opts.raw !== undefined) body = opts.raw;
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}/api${path}`, { method, headers, body: body as BodyInit | undefined });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
    async close() {
      await close();
      await t.cleanup();
    },
  };
}

/**
 * Another API instance on the same database as `s`, with a connection pool of its own, as a
 * second machine behind a load balancer would run. Its errors join `s.errors`. `url` ends in /api.
 */
export async function secondInstance(s: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const db = openDatabase(s.t.config);
  const { url, close } = await listenApi({ db, errors: s.errors });
  return {
    url: `${url}/api`,
    async close() {
      await close();
      await db.destroy();
    },
  };
}

/** `?sort=...&range=...&filter=...` from plain values. */
export function listParams(p: {
  sort?: [string, string];
  range?: [number, number];
  filter?: Record<string, unknown>;
}): string {
  const q = new URLSearchParams();
  if (p.sort) q.set('sort', JSON.stringify(p.sort));
  if (p.range) q.set('range', JSON.stringify(p.range));
  if (p.filter) q.set('filter', JSON.stringify(p.filter));
  const s = q.toString();
  return s ? `?${s}` : '';
}
