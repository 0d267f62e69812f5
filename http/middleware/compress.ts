/**
 * JSON answers compressed on the wire: brotli where the client takes it, else gzip, above a small
 * size (below it the headers cost more than they save). A list page of 25 payments, about 7.7 KB
 * of JSON repeating the same keys, goes out at a fraction of that. Files and streams (exports)
 * are left as they are: .xlsx is already a zip.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type Koa from 'koa';

export const COMPRESS_MIN_BYTES = 1024;
/**
 * Above this, compression runs on libuv's thread pool instead of the event loop: a page of
 * reconciliation proposals (about 1 MB of JSON) took tens of milliseconds from every other request.
 */
export const COMPRESS_ASYNC_BYTES = 64 * 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function compressJson(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body === null || body === undefined || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return;
    if (ctx.response.get('Content-Encoding')) return;
    const json = Buffer.from(JSON.stringify(body), 'utf8');
    // Brotli first when the client takes it, whatever order it lists them in: smaller for the same time.
    const encoding = json.length < COMPRESS_MIN_BYTES ? null : ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
    ctx.vary('Accept-Encoding');
    const big = json.length >= COMPRESS_ASYNC_BYTES;
    if (encoding === 'br') {
      const opts = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } };
      ctx.body = big ? await brotliAsync(json, opts) : brotliCompressSync(json, opts);
      ctx.set('Content-Encoding', 'br');
    } else if (encoding === 'gzip') {
      ctx.body = big ? await gzipAsync(json, { level: 6 }) : gzipSync(json, { level: 6 });
      ctx.set('Content-Encoding', 'gzip');
    } else ctx.body = json;
    ctx.type = 'application/json; charset=utf-8';
  };
}
