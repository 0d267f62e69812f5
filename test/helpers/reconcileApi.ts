/** What the reconciliation API tests share: a clean slate between tests, a statement upload and a transfer report. */
import type { TestServer } from './server.js';

const OCTET = { 'content-type': 'application/octet-stream' };

/** Empties links, lines, statements and payments, children first. */
export async function clearReconcile(s: TestServer): Promise<void> {
  for (const table of ['bank_links', 'bank_lines', 'bank_statements', 'payments']) await s.t.db(table).delete();
}

/** POST /api/reconcile/statements as `as`, for `store` when given. */
export function uploadStatement(s: TestServer, as: string, file: string, bytes: Buffer, store?: number) {
  return s.api(
    'POST',
    `/reconcile/statements?filename=${encodeURIComponent(file)}${store ? `&store_id=${store}` : ''}`,
    { as, raw: bytes, headers: OCTET },
  );
}

/** A transfer report by the admin; its body (the payment). */
export async function reportTransfer(
  s: TestServer,
  last_five: string,
  paid_at: string,
  amount: number,
  store = s.stores.A.id,
  note = '',
) {
  return (
    await s.api('POST', '/payments', { as: 'admin', body: { last_five, paid_at, amount, note, store_id: store } })
  ).body;
}
