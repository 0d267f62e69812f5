// ra-data-simple-rest over /api with the session cookie and a time-out, plus the calls that are not plain REST.
import simpleRestProvider from 'ra-data-simple-rest';
import {
  fetchUtils,
  HttpError,
  type DataProvider,
  type GetListParams,
  type GetListResult,
  type RaRecord,
} from 'react-admin';
import { ERROR_CODES_HEADER } from '../../../core/browser';
import type { ImportRow, ImportResult, LinkFlood, StatsCharts, StatsSummary } from '../../../core/browser';
import { API_BASE, TIMEOUT_MS } from '../config';
import { api, ApiError, handleUnauthorized } from '../http';
import type { BankLine, ImportedStatement, LinkedPayment, Proposals, RememberedPayer } from '../reconcile/types';

/** The page says when there are more. */
export const PAYERS_SHOWN = 500;

const httpClient = (url: string, options: fetchUtils.Options = {}) => {
  // every error answer then names its code and details (core/errors.ts)
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  headers.set(ERROR_CODES_HEADER, '1');
  return fetchUtils.fetchJson(url, {
    ...options,
    headers,
    credentials: 'same-origin',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
};

const rest = simpleRestProvider(API_BASE, httpClient);

// Lists asked for before the page asks (./firstScreen.ts): the page's identical call, within a few seconds,
// takes the answer already on its way instead of asking again.
const early = new Map<string, { at: number; answer: ReturnType<typeof rest.getList> }>();
const EARLY_MS = 10_000;

/** Filter keys in a fixed order; not the signal or meta. */
export function listKey(resource: string, params: Partial<GetListParams>): string {
  const filter = params.filter ?? {};
  const canonical = Object.fromEntries(
    Object.keys(filter)
      .sort()
      .map((k) => [k, filter[k]]),
  );
  const p = params.pagination ?? { page: 1, perPage: 25 };
  const s = params.sort ?? { field: 'id', order: 'DESC' };
  return JSON.stringify([resource, p.page, p.perPage, s.field, s.order, canonical]);
}

/** react-admin's defaults filled in as useGetList does, so the keys match. */
export function getListEarly(resource: string, params: Partial<GetListParams>): void {
  const full = {
    pagination: { page: 1, perPage: 25 },
    sort: { field: 'id', order: 'DESC' },
    filter: {},
    ...params,
  } as GetListParams;
  const answer = rest.getList(resource, full);
  answer.catch(() => undefined); // the page's own call reports a failure
  early.set(listKey(resource, full), { at: Date.now(), answer });
}

/** An answer the server already wrote into the page, for the page's identical call. */
export function seedListEarly(resource: string, params: Partial<GetListParams>, result: GetListResult): void {
  const full = {
    pagination: { page: 1, perPage: 25 },
    sort: { field: 'id', order: 'DESC' },
    filter: {},
    ...params,
  } as GetListParams;
  early.set(listKey(resource, full), { at: Date.now(), answer: Promise.resolve(result) });
}

async function download(path: string): Promise<{ fileName: string; count: number }> {
  const res = await fetch(`${API_BASE}${path}`, {
    credentials: 'same-origin',
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) {
    if (res.status === 401) handleUnauthorized();
    const body = await res.json().catch(() => ({}));
    throw new HttpError(body?.message ?? res.statusText, res.status, body);
  }
  const cd = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  const fileName = star ? decodeURIComponent(star[1]) : 'download';
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return { fileName, count: Number(res.headers.get('x-row-count') ?? 0) };
}

type StatsQuery = { store_id?: number | null; from?: string; to?: string };

function statsQuery(params: StatsQuery): string {
  const q = new URLSearchParams();
  if (params.store_id) q.set('store_id', String(params.store_id));
  if (params.from) q.set('from', params.from);
  if (params.to) q.set('to', params.to);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const dataProvider = {
  ...rest,
  getList<R extends RaRecord = RaRecord>(resource: string, params: GetListParams): Promise<GetListResult<R>> {
    const key = listKey(resource, params);
    const hit = early.get(key);
    early.delete(key);
    return (hit && Date.now() - hit.at < EARLY_MS ? hit.answer : rest.getList(resource, params)) as Promise<
      GetListResult<R>
    >;
  },
  async deleteMany(resource, params) {
    if (resource === 'payments') {
      await api('DELETE', '/payments', { uuids: params.ids });
      return { data: params.ids };
    }
    return rest.deleteMany(resource, params);
  },
  importPayments(rows: ImportRow[]) {
    return api<ImportResult>('POST', '/payments/bulk-import', { payments: rows });
  },
  /** the import's checks (duplicates, scope), writing nothing */
  checkImport(rows: ImportRow[]) {
    return api<ImportResult>('POST', '/payments/bulk-import/check', { payments: rows });
  },
  statsSummary(params: StatsQuery = {}) {
    return api<StatsSummary>('GET', `/stats/summary${statsQuery(params)}`);
  },
  statsCharts(params: StatsQuery = {}) {
    return api<StatsCharts>('GET', `/stats/charts${statsQuery(params)}`);
  },
  /** A one-minute link followed by a plain `<a download>`, so a million rows never pass through this page. */
  async exportPayments(filter: Record<string, unknown>, format: 'xlsx' | 'csv' | 'json' = 'xlsx') {
    let link: { url: string; file_name: string; count: number };
    try {
      link = await api('POST', '/payments/export-ticket', { filter, format });
    } catch (err) {
      if (err instanceof ApiError) throw new HttpError(err.message, err.status, err.body);
      throw err;
    }
    const a = document.createElement('a');
    a.href = `${API_BASE}${link.url}`;
    a.download = link.file_name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    return { fileName: link.file_name, count: link.count };
  },
  downloadSample() {
    return download('/payments/sample');
  },
  /** `account`: for a statement naming none. A refusal gives the field's own sentence, clearer than 驗證錯誤. */
  async uploadStatement(file: File, storeId: number | null, account = ''): Promise<ImportedStatement> {
    const q = new URLSearchParams({ filename: file.name, store_id: storeId === null ? '' : String(storeId) });
    if (account.trim()) q.set('account', account.trim());
    try {
      return (
        await api<{ statement: ImportedStatement }>('POST', `/reconcile/statements?${q}`, undefined, {
          bytes: file,
          timeoutMs: TIMEOUT_MS * 6,
        })
      ).statement;
    } catch (err) {
      const first = err instanceof ApiError ? err.body?.errors?.[0]?.message : undefined;
      throw first && err instanceof ApiError ? new ApiError(err.status, first, err.body) : err;
    }
  },
  reconcileProposals(from: string, to: string, storeId: number | null) {
    const q = new URLSearchParams({ from, to, store_id: storeId === null ? '' : String(storeId) });
    return api<Proposals>('GET', `/reconcile/proposals?${q}`);
  },
  confirmPairs(pairs: Array<{ payment: string; line: number }>) {
    return api<{ confirmed: number }>('POST', '/reconcile/confirm', { pairs });
  },
  createFromLine(body: { line: number; store_id: number; last_five?: string; note: string }) {
    return api<LinkedPayment>('POST', '/reconcile/from-line', body);
  },
  reportsForLine(line: number, q: string) {
    return api<{ line: BankLine; reports: LinkedPayment[] }>(
      'GET',
      `/reconcile/lines/${line}/reports?${new URLSearchParams({ q })}`,
    );
  },
  markUnpaid(payments: string[]) {
    return api<{ marked: number }>('POST', '/reconcile/unpaid', { payments });
  },
  unlinkPayment(payment: string) {
    return api<LinkedPayment>('POST', '/reconcile/unlink', { payment });
  },
  listPayers(storeId: number | null) {
    const q = new URLSearchParams({
      sort: JSON.stringify(['learned_at', 'DESC']),
      range: JSON.stringify([0, PAYERS_SHOWN - 1]),
    });
    if (storeId !== null) q.set('filter', JSON.stringify({ store_id: storeId }));
    return api<RememberedPayer[]>('GET', `/reconcile/payers?${q}`);
  },
  forgetPayer(id: number) {
    return api<RememberedPayer>('DELETE', `/reconcile/payers/${id}`);
  },
  linkFloods() {
    return api<LinkFlood[]>('GET', '/links/floods');
  },
  /** Only those still 未確認 and unlinked. */
  removeLinkReports(storeId: number, from: string) {
    return api<{ removed: number }>('POST', `/stores/${storeId}/link/reports/remove`, { from });
  },
} satisfies DataProvider & Record<string, unknown>;

export type RemitDataProvider = typeof dataProvider;
