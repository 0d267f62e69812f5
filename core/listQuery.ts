// The list protocol of ra-data-simple-rest (`sort=["field","ASC"]`, `range=[0,24]`, `filter={...}`):
// each service says which fields it sorts and filters on, and the work happens in SQL.
import type { Knex } from 'knex';
import { ValidationError } from './errors.js';
import type { ListResult } from './types.js';
import { isPlainObject, toId } from './validation.js';

export type SortOrder = 'ASC' | 'DESC';

export interface ListQuery {
  sort?: [string, SortOrder];
  /** inclusive, as react-admin sends it */
  range?: [number, number];
  filter: Record<string, unknown>;
}

/** Largest page one request may ask for. */
export const MAX_PAGE = 10_000;

function parseJsonParam(name: string, text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw ValidationError.single(name, 'bad_list_param', { param: name });
  }
}

/** Parses the three query parameters; anything malformed is a ValidationError naming it. */
export function parseListQuery(raw: { sort?: unknown; range?: unknown; filter?: unknown }): ListQuery {
  const str = (name: string, v: unknown) => {
    if (v === undefined || typeof v === 'string') return v;
    throw ValidationError.single(name, 'bad_list_param', { param: name });
  };
  const sort = parseJsonParam('sort', str('sort', raw.sort));
  const range = parseJsonParam('range', str('range', raw.range));
  const filter = parseJsonParam('filter', str('filter', raw.filter));
  const query: ListQuery = { filter: {} };

  if (sort !== undefined) {
    if (!Array.isArray(sort) || typeof sort[0] !== 'string' || (sort[1] !== undefined && typeof sort[1] !== 'string')) {
      throw ValidationError.single('sort', 'bad_list_param', { param: 'sort' });
    }
    const order = String(sort[1] ?? 'ASC').toUpperCase();
    if (order !== 'ASC' && order !== 'DESC') throw ValidationError.single('sort', 'bad_list_param', { param: 'sort' });
    query.sort = [sort[0], order];
  }
  if (range !== undefined) {
    const ok =
      Array.isArray(range) &&
      range.length === 2 &&
      range.every((n) => Number.isSafeInteger(n) && n >= 0) &&
      range[1] >= range[0] &&
      range[1] - range[0] < MAX_PAGE;
    if (!ok) throw ValidationError.single('range', 'bad_list_param', { param: 'range' });
    query.range = [range[0], range[1]];
  }
  if (filter !== undefined) {
    if (!isPlainObject(filter)) throw ValidationError.single('filter', 'bad_list_param', { param: 'filter' });
    query.filter = filter;
  }
  return query;
}

/** Refuses filter fields a resource does not know (a typo would otherwise show everything). */
export function assertFilterFields(filter: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(filter)) {
    if (!allowed.includes(key)) throw ValidationError.single('filter', 'bad_filter_field', { field: key });
  }
}

export function filterIds(filter: Record<string, unknown>, key: string): number[] | undefined {
  const v = filter[key];
  if (v === undefined || v === null || v === '') return undefined;
  const list = Array.isArray(v) ? v : [v];
  const ids = list.map(toId);
  if (ids.some((id) => id === null))
    throw ValidationError.single('filter', 'bad_list_param', { param: `filter.${key}` });
  return ids as number[];
}

export function filterStrings(
  filter: Record<string, unknown>,
  key: string,
  valid: (s: string) => boolean,
): string[] | undefined {
  const v = filter[key];
  if (v === undefined || v === null || v === '') return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((s) => typeof s === 'string' && valid(s)))
    throw ValidationError.single('filter', 'bad_list_param', { param: `filter.${key}` });
  return list as string[];
}

/** Text for a LIKE pattern, with its wildcards escaped (use with `escape '\'`). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface ListSpec {
  /** API field name to column */
  sortable: Record<string, string>;
  defaultSort: [string, SortOrder];
  /** unique column that makes the order total, so pages never overlap */
  tiebreak: string;
}

/** A list page's count and page queries, apart from running them so a test can read their plans. */
export function listQueries(
  base: Knex.QueryBuilder,
  query: ListQuery,
  spec: ListSpec,
): { count: Knex.QueryBuilder; page: Knex.QueryBuilder; start: number } {
  const [field, order] = query.sort ?? spec.defaultSort;
  // Own keys only: `constructor`, `__proto__` and the like are not columns.
  const column = Object.hasOwn(spec.sortable, field) ? spec.sortable[field] : undefined;
  if (!column) throw ValidationError.single('sort', 'bad_sort_field', { field });

  const count = base.clone().clearSelect().clearOrder().count({ n: '*' }).first();
  let page = base
    .clone()
    .orderBy(column, order.toLowerCase() as 'asc' | 'desc')
    .orderBy(spec.tiebreak, order.toLowerCase() as 'asc' | 'desc');
  let start = 0;
  if (query.range) {
    start = query.range[0];
    page = page.offset(start).limit(query.range[1] - start + 1);
  }
  return { count, page, start };
}

export async function runList<Row, T>(
  base: Knex.QueryBuilder,
  query: ListQuery,
  spec: ListSpec,
  map: (row: Row) => T,
  /** a cheaper way to the same count, when the service has one */
  countBy?: () => Promise<number>,
): Promise<ListResult<T>> {
  const { count, page, start } = listQueries(base, query, spec);
  const total = countBy ? await countBy() : Number(((await count) as { n: number | string } | undefined)?.n ?? 0);
  const rows = ((await page) as Row[]).map(map);
  const end = rows.length ? start + rows.length - 1 : start;
  return { rows, total, start, end };
}
