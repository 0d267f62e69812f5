/** The page's calls: JSON through the shared client, the statement's raw bytes through fetch. */
import { API_BASE, TIMEOUT_MS } from '../config';
import { api, ApiError, handleUnauthorized } from '../http';
import { getToken } from '../session';
import type { ImportedStatement, LinkedPayment, Proposals } from './types';

export async function uploadStatement(file: File, storeId: number | null): Promise<ImportedStatement> {
  const q = new URLSearchParams({ filename: file.name, store_id: storeId === null ? '' : String(storeId) });
  const res = await fetch(`${API_BASE}/reconcile/statements?${q}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream', Authorization: `Bearer ${getToken() ?? ''}` },
    body: file,
    signal: AbortSignal.timeout(TIMEOUT_MS * 6),
  });
  const json = (await res.json().catch(() => null)) as { statement?: ImportedStatement; message?: string } | null;
  if (!res.ok) {
    if (res.status === 401) handleUnauthorized();
    throw new ApiError(res.status, json?.message ?? res.statusText, json);
  }
  return json!.statement!;
}

export function getProposals(from: string, to: string, storeId: number | null): Promise<Proposals> {
  const q = new URLSearchParams({ from, to, store_id: storeId === null ? '' : String(storeId) });
  return api<Proposals>('GET', `/reconcile/proposals?${q}`);
}

export const confirmPairs = (pairs: Array<{ payment: string; line: number }>) => api<{ confirmed: number }>('POST', '/reconcile/confirm', { pairs });
export const markUnpaid = (payments: string[]) => api<{ marked: number }>('POST', '/reconcile/unpaid', { payments });
export const unlinkPayment = (payment: string) => api<LinkedPayment>('POST', '/reconcile/unlink', { payment });
