/** The page's calls: JSON through the shared client, the statement's raw bytes through fetch. */
import { API_BASE, TIMEOUT_MS } from '../config';
import { api, ApiError, handleUnauthorized } from '../http';
import type { ImportedStatement, LinkedPayment, Proposals, RememberedPayer } from './types';

/** `account`: the bank account typed on the page, for a statement whose title row names none ('' = none). */
export async function uploadStatement(file: File, storeId: number | null, account = ''): Promise<ImportedStatement> {
  const q = new URLSearchParams({ filename: file.name, store_id: storeId === null ? '' : String(storeId) });
  if (account.trim()) q.set('account', account.trim());
  const res = await fetch(`${API_BASE}/reconcile/statements?${q}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
    credentials: 'same-origin',
    body: file,
    signal: AbortSignal.timeout(TIMEOUT_MS * 6),
  });
  const json = (await res.json().catch(() => null)) as { statement?: ImportedStatement; message?: string; errors?: Array<{ field: string; message: string }> } | null;
  if (!res.ok) {
    if (res.status === 401) handleUnauthorized();
    // a field's own sentence (the store to choose, the account) says more than 驗證錯誤
    throw new ApiError(res.status, json?.errors?.[0]?.message ?? json?.message ?? res.statusText, json);
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

/** 已記住的付款人 in the caller's stores (one store, or all they see), latest first. */
export function listPayers(storeId: number | null): Promise<RememberedPayer[]> {
  const q = new URLSearchParams({ sort: JSON.stringify(['learned_at', 'DESC']), range: JSON.stringify([0, PAYERS_SHOWN - 1]) });
  if (storeId !== null) q.set('filter', JSON.stringify({ store_id: storeId }));
  return api<RememberedPayer[]>('GET', `/reconcile/payers?${q}`);
}
export const PAYERS_SHOWN = 500;
export const forgetPayer = (id: number) => api<RememberedPayer>('DELETE', `/reconcile/payers/${id}`);
