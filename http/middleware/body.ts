import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Koa from 'koa';
import { type Problem } from '../../core/index.js';
import { problem } from '../../core/errors.js';
import { problemBody } from './errors.js';
import { jsonHasNul, MAX_JSON_DEPTH, parseJsonYielding, readJsonBytes, turn } from './json.js';

declare module 'koa' {
  interface Request {
    /** the JSON body smallBody/jsonBody parsed, unchecked: each route reads its fields by name */
    body?: unknown;
  }
}

/** Why a JSON body could not be read, as the problem answered. */
function readProblem(reason: string): Problem {
  if (reason === 'too_large') return problem('body_too_large');
  if (reason === 'too_deep') return problem('json_too_deep', { limit: MAX_JSON_DEPTH });
  if (reason === 'unsupported_encoding') return problem('unsupported_media_type');
  return problem('malformed_json');
}

/**
 * JSON bodies only (415 otherwise, DELETE's too), `limit` bytes after inflation, parsed without blocking (json.ts).
 * Mount it after `requireUser` and `gate`: nothing is read for a caller who would be refused anyway.
 */
export function jsonBody(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    if (!PARSED_METHODS.has(ctx.method)) return next();
    const declared = Number(ctx.get('content-length') || 0);
    const hasBody = declared > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && !ctx.is('application/json', '+json')) {
      ctx.status = 415;
      ctx.body = problemBody(ctx, problem('unsupported_media_type'));
      return;
    }
    if (declared > limit) {
      ctx.status = 413;
      ctx.body = problemBody(ctx, problem('body_too_large'));
      return;
    }
    let body: unknown = {};
    if (hasBody) {
      const read = await readJsonBytes(ctx.req, limit);
      if (!read.ok) {
        ctx.status = read.status;
        ctx.body = problemBody(ctx, readProblem(read.reason));
        return;
      }
      // joining, decoding and parsing a large body each take their turn
      if (read.bytes.length > 1 << 20) await turn();
      const text = read.bytes.toString('utf8');
      if (text.length > 1 << 20) await turn();
      if (text.trim() !== '') {
        try {
          body = await parseJsonYielding(text);
        } catch {
          ctx.status = 400;
          ctx.body = problemBody(ctx, problem('malformed_json'));
          return;
        }
        // PostgreSQL cannot store a NUL character in text, and no field of this product has one.
        if (jsonHasNul(text)) {
          ctx.status = 400;
          ctx.body = problemBody(ctx, problem('nul_character'));
          return;
        }
      }
    }
    ctx.request.body = body;
    await next();
  };
}

const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const smallBody = jsonBody(100 * 1024);
/** bulk import: up to 100 000 rows of about 150 bytes each */
export const importBody = jsonBody(32 * 1024 * 1024);

/** A file's raw bytes (octet-stream, a spreadsheet or CSV type), up to `limit`, into `ctx.state.bytes`. */
export function rawBody(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    if (refusedFile(ctx, limit)) return;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        ctx.status = 413;
        ctx.body = problemBody(ctx, problem('body_too_large'));
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
  if (
    !ctx.is(
      'application/octet-stream',
      'text/csv',
      'text/plain',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
  ) {
    ctx.status = 415;
    ctx.body = problemBody(ctx, problem('unsupported_file_type'));
    return true;
  }
  if (Number(ctx.get('content-length') || 0) > limit) {
    ctx.status = 413;
    ctx.body = problemBody(ctx, problem('body_too_large'));
    return true;
  }
  return false;
}

/** A file streamed to a temporary file (never whole in memory), its path in `ctx.state.upload`, removed afterwards. */
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
        ctx.body = problemBody(ctx, problem('body_too_large'));
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
