import type Koa from 'koa';
import { parseListQuery, type ListQuery, type ListResult } from '../core/index.js';

/** The list parameters of a request (`sort`, `range`, `filter`), as ra-data-simple-rest sends them. */
export function listQuery(ctx: Koa.Context | Koa.ParameterizedContext<any>): ListQuery {
  const q = ctx.query;
  return parseListQuery({ sort: q.sort, range: q.range, filter: q.filter });
}

/** Answers a list page: the rows as a JSON array and `Content-Range: <resource> start-end/total`. */
export function sendList<T>(ctx: Koa.ParameterizedContext<any>, resource: string, result: ListResult<T>): void {
  ctx.set('Content-Range', `${resource} ${result.start}-${result.end}/${result.total}`);
  ctx.set('Access-Control-Expose-Headers', 'Content-Range');
  ctx.body = result.rows;
}
