import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { MSG } from '../../core/index.js';

/**
 * JSON bodies only, with a size limit (413 past it). A body of another type is refused with
 * 415 rather than read as empty. DELETE bodies are parsed too (`DELETE /api/payments`).
 */
export function jsonBody(limit: string): Koa.Middleware {
  const parse = koaBody({
    json: true,
    jsonLimit: limit,
    jsonStrict: true,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && !ctx.is('application/json', '+json')) {
      ctx.status = 415;
      ctx.body = { message: MSG.unsupportedMediaType };
      return;
    }
    await parse(ctx, async () => {
      // PostgreSQL cannot store a NUL character in text, and no field of this product has one.
      if (hasNul(ctx.request.body)) {
        ctx.status = 400;
        ctx.body = { message: MSG.nulCharacter };
        return;
      }
      await next();
    });
  };
}

/** True when any string inside a parsed JSON value holds U+0000. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

export const smallBody = jsonBody('100kb');
/** bulk import: up to 100 000 rows of about 150 bytes each */
export const importBody = jsonBody('32mb');

/**
 * A file's raw bytes (`Content-Type: application/octet-stream`, or a spreadsheet or CSV type),
 * read up to `limit` bytes (413 past it) into `ctx.state.bytes`.
 */
export function rawBody(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    if (refusedFile(ctx, limit)) return;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        ctx.status = 413;
        ctx.body = { message: MSG.bodyTooLarge };
        ctx.req.destroy();
        return;
      }
      chunks.push(chunk);
    }
    const buf = Buffer.concat(chunks);
    ctx.state.bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    await next();
  };
}

/** 415 for a body that is not a file type we read, 413 for one declared over `limit`; true when refused. */
function refusedFile(ctx: Koa.Context, limit: number): boolean {
  if (!ctx.is('application/octet-stream', 'text/csv', 'text/plain', 'application/vnd.ms-excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')) {
    ctx.status = 415;
    ctx.body = { message: MSG.unsupportedFileType };
    return true;
  }
  if (Number(ctx.get('content-length') || 0) > limit) {
    ctx.status = 413;
    ctx.body = { message: MSG.bodyTooLarge };
    return true;
  }
  return false;
}

/**
 * A file's raw bytes streamed into a temporary file (never a whole buffer in memory), its path
 * in `ctx.state.upload`; 413 past `limit`. The file is removed once the request is answered.
 */
export function fileUpload(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    if (refusedFile(ctx, limit)) return;
    const dir = await mkdtemp(join(tmpdir(), 'remit-upload-'));
    try {
      const path = join(dir, 'upload');
      const out = createWriteStream(path, { mode: 0o600 });
      let size = 0;
      let tooLarge = false;
      try {
        await pipeline(
          ctx.req,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              size += chunk.length;
              if (size > limit) {
                tooLarge = true;
                throw new Error('too large');
              }
              yield chunk;
            }
          },
          out,
        );
      } catch (err) {
        if (!tooLarge) throw err;
        ctx.status = 413;
        ctx.body = { message: MSG.bodyTooLarge };
        ctx.req.destroy();
        return;
      }
      ctx.state.upload = path;
      await next();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
