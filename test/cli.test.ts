/**
 * The real `remit` binary as a script or an operator would run it: a child process on a
 * temporary database, checked by its output, its exit code and what the API then answers.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, remit as run, serve } from './helpers/cli.js';
import { PG_URL } from './helpers/db.js';

const remit = (args: string[], env: Record<string, string> = {}) => run(args, { env });

async function api(url: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('remit CLI', () => {
  let dir: string;
  let db: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-cli-'));
    db = join(dir, 'remit.sqlite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate applies the schema once', async () => {
    const first = await remit(['--db', db, 'migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/已套用 \d+ 個遷移/);
    const again = await remit(['migrate'], { REMIT_DB: db });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('資料庫已是最新');
  });

  it('a script sets up stores and users, then drives the API as them', async () => {
    expect((await remit(['--db', db, 'stores', 'add', '--name', '台北店', '--code', 'TPE'])).stdout).toContain(
      '已新增分店 台北店 (TPE)',
    );
    const tc = await remit(['--db', db, 'stores', 'add', '--name', '台中店', '--code', 'TXG', '--json']);
    expect(JSON.parse(tc.stdout)).toMatchObject({ name: '台中店', code: 'TXG', id: expect.any(Number) });
    const dup = await remit(['--db', db, 'stores', 'add', '--name', '重複', '--code', 'tpe']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('分店代碼已存在');

    const boss = await remit([
      '--db',
      db,
      'users',
      'add',
      '--username',
      'boss',
      '--password',
      'boss-pass',
      '--role',
      'admin',
    ]);
    expect(boss.code).toBe(0);
    expect(boss.stdout).toContain('已新增管理員 boss');
    const clerk = await remit([
      '--db',
      db,
      'users',
      'add',
      '--username',
      'tpe01',
      '--password',
      'clerk-pass',
      '--permissions',
      'view_payments,edit_payments',
      '--store',
      'TPE',
      '--json',
    ]);
    expect(clerk.code).toBe(0);
    expect(JSON.parse(clerk.stdout)).toMatchObject({
      username: 'tpe01',
      role: 'user',
      permissions: ['view_payments', 'edit_payments'],
      is_active: true,
    });
    expect(clerk.stdout).not.toContain('password');

    const srv = serve(['--db', db]);
    const { url, stdout } = await srv.ready;
    // users exist already: no first admin is created and no password printed
    expect(stdout).not.toContain('已建立第一個管理員帳戶');
    try {
      const login = await api(url, 'POST', '/admin/login', undefined, { username: 'tpe01', password: 'clerk-pass' });
      expect(login.status).toBe(200);
      const created = await api(url, 'POST', '/payments', login.body.token, {
        last_five: '01234',
        paid_at: '2026-11-18T09:15',
        amount: 1200,
      });
      expect(created.status).toBe(201);
      const stores = await api(url, 'GET', '/stores', login.body.token);
      expect(created.body.store_id).toBe(stores.body.find((st: any) => st.code === 'TPE').id);
      const other = await api(url, 'POST', '/payments', login.body.token, {
        last_five: '01234',
        paid_at: '2026-11-18T09:15',
        amount: 1200,
        store_id: stores.body.find((st: any) => st.code === 'TXG').id,
      });
      expect(other.status).toBe(403);
      const bossLogin = await api(url, 'POST', '/admin/login', undefined, { username: 'boss', password: 'boss-pass' });
      const list = await api(url, 'GET', '/payments', bossLogin.body.token);
      expect(list.body.map((p: any) => p.amount)).toEqual([1200]);
    } finally {
      srv.child.kill('SIGTERM');
    }
    expect(await srv.exited).toBe(0);
  });

  it('refuses bad values with the spec messages (exit 1) and wrong usage with exit 2, never waiting for input', async () => {
    const short = await remit(['--db', db, 'users', 'add', '--username', 'ab', '--password', '123']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('用戶名至少需要3個字符');
    expect(short.stderr).toContain('密碼至少需要6個字符');
    const unknownStore = await remit([
      '--db',
      db,
      'users',
      'add',
      '--username',
      'abc',
      '--password',
      'tea-leaf-6',
      '--store',
      'NOPE',
    ]);
    expect(unknownStore.code).toBe(2);
    expect(unknownStore.stderr).toContain('找不到分店代碼「NOPE」');
    const missing = await remit(['--db', db, 'users', 'add', '--username', 'abc']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--password');
    const unknownCommand = await remit(['frobnicate']);
    expect(unknownCommand.code).toBe(2);
    const help = await remit(['users', 'add', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('範例');
    expect(help.stdout).toContain('角色：admin 或 user（預設 user）');
    expect(help.stdout).not.toMatch(/default/i);
    const badPort = await remit(['--db', db, 'serve'], { PORT: 'abc' });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('PORT');
  });

  it('says its version, and what to do when the port is taken', async () => {
    const version = await remit(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).version,
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const r = await remit(['--db', db, 'serve', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `錯誤：連接埠 ${port} 已被其他程式使用（可能 remit 已在執行）。請先停止那個程式，或用 --port 換一個連接埠`,
      );
      expect(r.stderr).not.toContain('listen EADDRINUSE');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('first run on an empty database creates admin with a random password, printed once, and keeps the signing secret private', async () => {
    const fresh = join(dir, 'fresh', 'remit.sqlite');
    const first = serve(['--db', fresh]);
    const { url, stdout } = await first.ready;
    let token: string;
    try {
      expect(stdout).toContain('已建立第一個管理員帳戶：admin');
      const password = /密碼（只顯示這一次，請登入後立即更改）：(\S+)/.exec(stdout)?.[1];
      expect(password && password.length).toBeGreaterThanOrEqual(12);
      const login = await api(url, 'POST', '/admin/login', undefined, { username: 'admin', password });
      expect(login.status).toBe(200);
      token = login.body.token;
      const stores = await api(url, 'GET', '/stores', token);
      expect(stores.body.map((st: any) => st.id)).toContain(1);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    expect(statSync(`${fresh}.jwt-secret`).mode & 0o777).toBe(0o600);

    // A restart keeps the secret (old tokens still work) and creates nobody.
    const second = serve(['--db', fresh]);
    const again = await second.ready;
    try {
      expect(again.stdout).not.toContain('已建立第一個管理員帳戶');
      expect((await api(again.url, 'GET', '/admin/me', token!)).body.username).toBe('admin');
    } finally {
      second.child.kill('SIGTERM');
    }
    expect(await second.exited).toBe(0);
  });

  it('takes the first admin password from REMIT_ADMIN_PASSWORD without printing it', async () => {
    const fresh = join(dir, 'env', 'remit.sqlite');
    const srv = serve(['--db', fresh], { REMIT_ADMIN_PASSWORD: 'from-the-env-123' });
    const { url, stdout } = await srv.ready;
    try {
      expect(stdout).not.toContain('from-the-env-123');
      expect(
        (await api(url, 'POST', '/admin/login', undefined, { username: 'admin', password: 'from-the-env-123' })).status,
      ).toBe(200);
    } finally {
      srv.child.kill('SIGTERM');
    }
    await srv.exited;
  });

  it('refuses a weak REMIT_ADMIN_PASSWORD on the first start, and a secret file others may read', async () => {
    const fresh = join(dir, 'weak-admin', 'remit.sqlite');
    const weak = await run(['--db', fresh, 'serve', '--port', '0'], {
      env: { REMIT_ADMIN_PASSWORD: 'password1' },
      timeoutMs: 20_000,
    });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('REMIT_ADMIN_PASSWORD 不能使用：這個密碼太常見');
    const open = join(dir, 'open-secret', 'remit.sqlite');
    mkdirSync(join(dir, 'open-secret'), { recursive: true });
    writeFileSync(`${open}.jwt-secret`, 'q3Jx9vR2mT7wYbK1pL5sZ8nD0cF4gH6jW1eU\n', { mode: 0o644 });
    chmodSync(`${open}.jwt-secret`, 0o644);
    const refused = await run(['--db', open, 'serve', '--port', '0'], { timeoutMs: 20_000 });
    expect(refused.code).toBe(2); // a configuration error, as a short REMIT_JWT_SECRET
    expect(refused.stderr).toContain(`chmod 600 ${open}.jwt-secret`);
  });

  describe.skipIf(!PG_URL)('on PostgreSQL (DATABASE_URL)', () => {
    const schema = `remit_cli_${process.pid}`;
    const url = `${PG_URL}${PG_URL?.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const env = { DATABASE_URL: url, REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru' };
    beforeAll(async () => {
      const k = knexFactory({ client: 'pg', connection: PG_URL });
      await k.raw('drop schema if exists ?? cascade', [schema]);
      await k.raw('create schema ??', [schema]);
      await k.destroy();
    });
    afterAll(async () => {
      const k = knexFactory({ client: 'pg', connection: PG_URL });
      await k.raw('drop schema if exists ?? cascade', [schema]);
      await k.destroy();
    });

    it('migrates, adds a store and a user, and serves them', async () => {
      expect((await remit(['migrate'], env)).code).toBe(0);
      expect((await remit(['stores', 'add', '--name', '台北店', '--code', 'TPE'], env)).code).toBe(0);
      expect(
        (await remit(['users', 'add', '--username', 'pgadmin', '--password', 'pg-pass-1', '--role', 'admin'], env))
          .code,
      ).toBe(0);
      const srv = serve([], { ...env, HOST: '127.0.0.1' });
      const { url: base } = await srv.ready;
      try {
        const login = await api(base, 'POST', '/admin/login', undefined, {
          username: 'pgadmin',
          password: 'pg-pass-1',
        });
        const stores = await api(base, 'GET', '/stores', login.body.token);
        expect(stores.body.map((st: any) => st.code)).toEqual(['TPE']);
      } finally {
        srv.child.kill('SIGTERM');
      }
      expect(await srv.exited).toBe(0);
    }, 120_000); // five processes one after another: a bound for a loaded machine, not a timing

    it('refuses to start without a shared signing secret', async () => {
      const r = await remit(['serve', '--port', '0'], { DATABASE_URL: url });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('REMIT_JWT_SECRET');
    });
  });
});
