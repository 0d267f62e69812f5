import { Readable } from 'node:stream';
import type Koa from 'koa';
import { parseListQuery, type ExportFile, type ExportStream, type ListQuery, type ListResult } from '../core/index.js';

/** The list parameters of a request (`sort`, `range`, `filter`), as ra-data-simple-rest sends them. */
export function listQuery(ctx: Koa.ParameterizedContext<unknown, object, unknown>): ListQuery {
  const q = ctx.query;
  return parseListQuery({ sort: q.sort, range: q.range, filter: q.filter });
}

/** Answers a list page: the rows as a JSON array and `Content-Range: <resource> start-end/total`. */
export function sendList<T>(
  ctx: Koa.ParameterizedContext<unknown, object, unknown>,
  resource: string,
  result: ListResult<T>,
): void {
  ctx.set('Content-Range', `${resource} ${result.start}-${result.end}/${result.total}`);
  ctx.set('Access-Control-Expose-Headers', 'Content-Range');
  ctx.body = result.rows;
}

/** A file download: the file name (UTF-8, RFC 6266) in Content-Disposition, and the row count. */
export function sendFile(
  ctx: Koa.ParameterizedContext<unknown, object, unknown>,
  file: ExportFile | ExportStream,
): void {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  ctx.set(
    'Content-Disposition',
    `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
  );
  ctx.set('X-Row-Count', String(file.count));
  ctx.set('Access-Control-Expose-Headers', 'Content-Disposition, X-Row-Count');
  ctx.type = file.contentType;
  const body = file.body;
  // a stream goes out as it is read from the database, never held whole
  if (typeof body === 'string') ctx.body = body;
  else if (body instanceof Uint8Array) ctx.body = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  else ctx.body = Readable.from(body);
}
