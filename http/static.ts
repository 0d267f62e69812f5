/** Serves dist/admin: `/` the form, `/admin/*` the back office, `/assets/*` the bundles; nothing outside the folder. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Koa from 'koa';
import send from 'koa-send';
import { sendCompressed } from './middleware/compress.js';

const HTML = 'text/html; charset=utf-8';

/** MUI writes its styles at run time, hence 'unsafe-inline' for styles only. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the built pages are: beside the compiled server, or under dist/ when running from sources. */
export function defaultStaticDir(): string {
  const beside = resolve(import.meta.dirname, '..', 'admin');
  if (existsSync(join(beside, 'index.html'))) return beside;
  return resolve(import.meta.dirname, '..', 'dist', 'admin');
}

/** What a person who typed a wrong address sees: a page in Chinese with the ways on, not `Not Found`. */
const NOT_FOUND_PAGE =
  '<!doctype html><html lang="zh-Hant-TW"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>找不到頁面</title>' +
  '<body style="font-family: system-ui, sans-serif; padding: 2rem; text-align: center">' +
  '<h1>找不到頁面</h1><p>您輸入的網址有誤，或點選了無效的連結。</p>' +
  '<p><a href="/">匯款回報表單</a>　<a href="/admin">後台</a></p></body></html>';

async function notFound(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (ctx.status !== 404 || ctx.body != null) return;
  ctx.status = 404;
  ctx.type = HTML;
  ctx.body = NOT_FOUND_PAGE;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Page = 'index.html' | 'admin.html' | 'report.html';
type FirstScreen = (ctx: Koa.Context) => Promise<string | null>;

/** `firstScreen`: markup written before the back office's root on its list page (http/firstScreen.ts), or null. */
export function spa(opts: { root: string; title: string; firstScreen?: FirstScreen }): Koa.Middleware {
  const root = resolve(opts.root);
  const page = pageReader(root, opts.title);

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.set('Content-Security-Policy', CSP);
    const path = decodedPath(ctx.path);
    if (path === null) {
      ctx.status = 400;
      ctx.body = 'Bad Request';
      return;
    }
    const html = pageAt(path);
    if (html) return sendPage(ctx, html, page(html), () => listRowsAhead(ctx, html, path, opts.firstScreen));
    return sendStatic(ctx, next, root, path);
  };
}

/** Each page read once, with the configured title written in; null when the build has not made it. */
function pageReader(root: string, title: string): (name: Page) => string | null {
  const pages = new Map<string, string>();
  return (name) => {
    if (!pages.has(name)) {
      const file = join(root, name);
      if (!existsSync(file)) return null;
      pages.set(name, readFileSync(file, 'utf8').replaceAll('%REMIT_TITLE%', escapeHtml(title)));
    }
    return pages.get(name)!;
  };
}

function decodedPath(raw: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return path.includes('\0') ? null : path;
}

/** The page a path shows, or null for a file. /r/TOKEN and /r/status/TRACKING: a store link's report page. */
function pageAt(path: string): Page | null {
  if (path === '/' || path === '/index.html') return 'index.html';
  if (path === '/admin' || path.startsWith('/admin/')) return 'admin.html';
  return path.startsWith('/r/') ? 'report.html' : null;
}

/** The rows to draw ahead into the back office's list page, or null. */
async function listRowsAhead(
  ctx: Koa.Context,
  html: Page,
  path: string,
  firstScreen: FirstScreen | undefined,
): Promise<string | null> {
  const listPage = html === 'admin.html' && ctx.method === 'GET' && /^\/admin(\/payments)?\/?$/.test(path);
  if (!listPage || !firstScreen) return null;
  // drawn ahead or not, the page works: a failure here leaves the page to ask for itself
  return firstScreen(ctx).catch(() => null);
}

async function sendPage(
  ctx: Koa.Context,
  html: Page,
  body: string | null,
  drawAhead: () => Promise<string | null>,
): Promise<void> {
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = HTML;
  if (body === null) {
    ctx.status = 503;
    ctx.body = '<!doctype html><meta charset="utf-8"><p>後台尚未建置：請執行 <code>npm run build</code> 後再啟動。</p>';
    return;
  }
  const ahead = await drawAhead();
  if (html === 'admin.html') ctx.vary('Cookie');
  if (!ahead) {
    ctx.body = body;
    return;
  }
  // the user's own rows: never kept by a cache
  ctx.set('Cache-Control', 'no-store');
  await sendCompressed(
    ctx,
    Buffer.from(body.replace('<div id="root"></div>', `${ahead}<div id="root"></div>`), 'utf8'),
  );
  ctx.type = HTML;
}

/**
 * A file of the build (bundles, icons) by koa-send: never one outside the folder, never a page by
 * its .html name, the build's precompressed copy when the browser accepts it.
 */
async function sendStatic(ctx: Koa.Context, next: Koa.Next, root: string, path: string): Promise<void> {
  if (path.endsWith('.html')) return notFound(ctx, next);
  ctx.vary('Accept-Encoding');
  // Bundles carry a content hash in their names: cache them for good.
  const cache = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  let served: string | undefined;
  try {
    served = await send(ctx, ctx.path, {
      root,
      brotli: true,
      gzip: true,
      setHeaders: (res) => res.setHeader('Cache-Control', cache),
    });
  } catch (err) {
    if (![400, 403, 404].includes((err as { status?: number }).status ?? 0)) throw err;
  }
  // a folder, or nothing there
  if (!served) return notFound(ctx, next);
}
