/**
 * ra-data-simple-rest over /api with the session cookie and the 10 s time-out, plus the calls of
 * the spec that are not plain REST: batch delete, bulk import, statistics, files.
 */
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, HttpError, type DataProvider } from 'react-admin';
import { ERROR_CODES_HEADER } from '../../../core/errors';
import type { ImportRow } from '../../../core/excel/parse';
import type { ImportResult } from '../../../core/services/payments/import';
import type { StatsCharts } from '../../../core/stats';
import type { StatsSummary } from '../../../core/types';
import { API_BASE, TIMEOUT_MS } from '../config';
import { api, ApiError, handleUnauthorized } from '../http';

export const httpClient = (url: string, options: fetchUtils.Options = {}) => {
  // every error answer then names its code and details (core/errors.ts)
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  headers.set(ERROR_CODES_HEADER, '1');
  return fetchUtils.fetchJson(url, { ...options, headers, credentials: 'same-origin', signal: AbortSignal.timeout(TIMEOUT_MS) });
};

const rest = simpleRestProvider(API_BASE, httpClient);

/** A file from the API, saved in the browser under the name the server gives. */
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

/** `?store_id=&from=&to=` for the statistics calls, with only what is set. */
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
  /** The spec's batch delete: one `DELETE /payments` with the uuids. */
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
  /** the import's own checks against the database (duplicates, scope), writing nothing */
  checkImport(rows: ImportRow[]) {
    return api<ImportResult>('POST', '/payments/bulk-import/check', { payments: rows });
  },
  statsSummary(params: StatsQuery = {}) {
    return api<StatsSummary>('GET', `/stats/summary${statsQuery(params)}`);
  },
  statsCharts(params: StatsQuery = {}) {
    return api<StatsCharts>('GET', `/stats/charts${statsQuery(params)}`);
  },
  /**
   * An export, saved by the browser as it streams from the server (issue 14, item 3): the server
   * judges it and answers a one-minute link, which a plain `<a download>` follows, so a million
   * rows never pass through this page's memory.
   */
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
} satisfies DataProvider & Record<string, unknown>;

export type RemitDataProvider = typeof dataProvider;
