/** The pages as the server hands them out: history fallback, the configured title, CSP, no way out of the folder. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spa } from '../../http/static.js';
import { listen, startTestServer, type Listening } from '../helpers/server.js';

/** The bytes on the wire, undecoded (fetch would decode them), and the headers. */
function raw(
  url: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const BIG = 'console.log("匯款記錄");\n'.repeat(500);

describe('static pages', () => {
  let dir: string;
  let server: Listening;
  let url: string;
  const get = (path: string) => fetch(`${url}${path}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'remit-static-'));
    const root = join(dir, 'admin');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<title>%REMIT_TITLE%</title><p>form</p>');
    writeFileSync(join(root, 'admin.html'), '<title>%REMIT_TITLE% 後台</title><p>back office</p>');
    writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(join(root, 'assets', 'big-abc123.js'), BIG);
    writeFileSync(join(root, 'assets', 'big-abc123.js.br'), brotliCompressSync(BIG));
    writeFileSync(join(root, 'assets', 'big-abc123.js.gz'), gzipSync(BIG));
    writeFileSync(join(dir, 'secret.txt'), 'do not serve');
    const app = new Koa();
    app.use(spa({ root, title: '阿明<煙具>行' }));
    server = await listen(app);
    url = server.url;
  });
  afterAll(async () => {
    await server?.close();
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
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/index.html%00.js',
      '/nothing.js',
    ]) {
      const r = await fetch(`${url}${path}`);
      expect([400, 404], path).toContain(r.status);
      expect(await r.text()).not.toContain('do not serve');
    }
  });

  it('sends the precompressed copy the browser accepts, and the file itself to one that accepts none', async () => {
    const br = await raw(`${url}/assets/big-abc123.js`, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG);
    const gz = await raw(`${url}/assets/big-abc123.js`, 'br;q=0, gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG);
    const plain = await raw(`${url}/assets/big-abc123.js`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG);
    // a small file the build left uncompressed is sent as it is
    expect((await raw(`${url}/assets/app-abc123.js`, 'br')).body.toString()).toBe('console.log(1)');
  });

  it('answers an unknown address with a page in Chinese that leads back', async () => {
    const r = await get('/no/such/page');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('text/html');
    const text = await r.text();
    expect(text).toContain('您輸入的網址有誤，或點選了無效的連結。</p>');
    expect(text).toContain('href="/admin"');
    expect(text).not.toContain('Not Found');
  });

  it('the real build: the back office script goes out as brotli a fraction of its size, and the favicon exists', async () => {
    const root = join(import.meta.dirname, '..', '..', 'dist', 'admin');
    if (!existsSync(join(root, 'admin.html'))) throw new Error('run npm run build first (npm test does)');
    const app = new Koa();
    app.use(spa({ root, title: 't' }));
    const real = await listen(app);
    try {
      const html = readFileSync(join(root, 'admin.html'), 'utf8');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
      const original = readFileSync(join(root, script.slice(1)));
      const r = await raw(`${real.url}${script}`, 'gzip, deflate, br, zstd');
      expect(r.headers['content-encoding']).toBe('br');
      expect(r.body.length).toBeLessThan(original.length / 3);
      expect(brotliDecompressSync(r.body).equals(original)).toBe(true);
      expect(html).toContain('rel="icon"');
      const icon = await fetch(`${real.url}/favicon.svg`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    } finally {
      await real.close();
    }
  });

  it('says the pages are not built yet instead of failing', async () => {
    const app = new Koa();
    app.use(spa({ root: join(dir, 'missing'), title: 't' }));
    const s = await listen(app);
    const r = await fetch(`${s.url}/admin`);
    await s.close();
    expect(r.status).toBe(503);
    expect(await r.text()).toContain('npm run build');
  });
});

describe('security headers of the whole app', () => {
  it('sends nosniff and no CORS headers on the API, and CSP on the pages', async () => {
    const s = await startTestServer('sqlite', { after: [spa({ root: join(tmpdir(), 'no-such-build'), title: 't' })] });
    try {
      const api = await fetch(`${s.url}/api/stores`, {
        headers: { Origin: 'https://evil.example', authorization: `Bearer ${s.tokens.admin}` },
      });
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
