/**
 * JSON answers compressed (brotli, else gzip) above a small size; files and streams left alone (.xlsx is a zip).
 * Ours, not koa-compress: that one never compresses an answer carrying Content-Range, and every list answer
 * carries its total there (ra-data-simple-rest's protocol).
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type Koa from 'koa';

const COMPRESS_MIN_BYTES = 1024;
/** Above this, compression runs on libuv's thread pool: a large answer would hold up every other request. */
const COMPRESS_ASYNC_BYTES = 64 * 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function compressJson(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (
      body === null ||
      body === undefined ||
      typeof body !== 'object' ||
      Buffer.isBuffer(body) ||
      typeof (body as { pipe?: unknown }).pipe === 'function'
    )
      return;
    if (ctx.response.get('Content-Encoding')) return;
    await sendCompressed(ctx, Buffer.from(JSON.stringify(body), 'utf8'));
    ctx.type = 'application/json; charset=utf-8';
  };
}

/** Sets `bytes` as the answer, compressed as the client accepts above the small size (brotli first: smaller). */
export async function sendCompressed(
  ctx: Koa.ParameterizedContext<unknown, object, unknown>,
  bytes: Buffer,
): Promise<void> {
  const encoding =
    bytes.length < COMPRESS_MIN_BYTES
      ? null
      : ctx.acceptsEncodings('br') === 'br'
        ? 'br'
        : ctx.acceptsEncodings('gzip') === 'gzip'
          ? 'gzip'
          : null;
  ctx.vary('Accept-Encoding');
  const big = bytes.length >= COMPRESS_ASYNC_BYTES;
  if (encoding === 'br') {
    const opts = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } };
    ctx.body = big ? await brotliAsync(bytes, opts) : brotliCompressSync(bytes, opts);
    ctx.set('Content-Encoding', 'br');
  } else if (encoding === 'gzip') {
    ctx.body = big ? await gzipAsync(bytes, { level: 6 }) : gzipSync(bytes, { level: 6 });
    ctx.set('Content-Encoding', 'gzip');
  } else ctx.body = bytes;
}
