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
    await parse(ctx, next);
  };
}

export const smallBody = jsonBody('100kb');
/** bulk import: up to 100 000 rows of about 150 bytes each */
export const importBody = jsonBody('32mb');
