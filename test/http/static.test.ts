/** The pages as the server hands them out: history fallback, the configured title, CSP, no way out of the folder. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spa } from '../../http/static.js';

describe('static pages', () => {
  let dir: string;
  let server: Server;
  let url: string;
  const get = (path: string) => fetch(`${url}${path}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'remit-static-'));
    const root = join(dir, 'admin');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<title>%REMIT_TITLE%</title><p>form</p>');
    writeFileSync(join(root, 'admin.html'), '<title>%REMIT_TITLE% 後台</title><p>back office</p>');
    writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'do not serve');
    const app = new Koa();
    app.use(spa({ root, title: '阿明<煙具>行' }));
    server = await new Promise((res) => {
      const s = app.listen(0, '127.0.0.1', () => res(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the form at / and the back office at /admin and every path below it, with the configured title', async () => {
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toBe('<title>阿明&#60;煙具&#62;行</title><p>form</p>');
    for (const path of ['/admin', '/admin/login', '/admin/payments?filter=x', '/admin/users/3']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(await r.text()).toContain('back office');
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('sends a Content-Security-Policy that forbids framing and foreign scripts', async () => {
    const csp = (await get('/admin')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
  });

  it('serves hashed bundles for good, and nothing outside the folder', async () => {
    const js = await get('/assets/app-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.headers.get('cache-control')).toContain('immutable');
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/index.html%00.js', '/nothing.js']) {
      const r = await fetch(`${url}${path}`);
      expect([400, 404], path).toContain(r.status);
      expect(await r.text()).not.toContain('do not serve');
    }
  });

  it('says the pages are not built yet instead of failing', async () => {
    const app = new Koa();
    app.use(spa({ root: join(dir, 'missing'), title: 't' }));
    const s: Server = await new Promise((res) => {
      const x = app.listen(0, '127.0.0.1', () => res(x));
    });
    const r = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/admin`);
    s.close();
    expect(r.status).toBe(503);
    expect(await r.text()).toContain('npm run build');
  });
});

describe('security headers of the whole app', () => {
  it('sends nosniff and no CORS headers on the API, and CSP on the pages', async () => {
    const { startTestServer } = await import('../helpers/server.js');
    const s = await startTestServer('sqlite', { after: [spa({ root: join(tmpdir(), 'no-such-build'), title: 't' })] });
    try {
      const api = await fetch(`${s.url}/api/stores`, { headers: { Origin: 'https://evil.example', authorization: `Bearer ${s.tokens.admin}` } });
      expect(api.status).toBe(200);
      expect(api.headers.get('x-content-type-options')).toBe('nosniff');
      expect(api.headers.get('access-control-allow-origin')).toBeNull();
      const page = await fetch(`${s.url}/admin`);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await s.close();
    }
  });
});
