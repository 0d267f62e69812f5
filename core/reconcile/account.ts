/**
 * A statement's bank account (issue 21, several accounts per store): as written on the
 * statement's title row or typed on upload, and the key two spellings of one account share
 * (`0123-456-789012`, `0123 456789012`), which a line's fingerprint and the matcher's `source`
 * use. Pure; the back office may import it.
 */

/** Longest account text kept (bank_statements.account). */
export const MAX_ACCOUNT_LENGTH = 64;

/** The account as it is kept: trimmed, inner spaces collapsed; null when empty or not text. */
export function cleanAccount(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const s = raw.replace(/[\s\u3000]+/g, ' ').trim();
  return s ? s : null;
}

/** What makes two spellings one account: no spaces, dashes or dots, upper case. */
export function accountKey(account: string): string {
  return account.replace(/[\s\u3000\-－‐–—.．]/g, '').toUpperCase();
}

/** Whether a typed account is usable: printable, not too long. */
export function accountProblem(account: string): 'too_long' | 'bad_characters' | null {
  if (account.length > MAX_ACCOUNT_LENGTH) return 'too_long';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(account)) return 'bad_characters';
  return null;
}

/** The source the matcher learns booking habits per: the account, else the statement's store, else all stores. */
export function lineSource(account: string | null, storeId: number | null): string {
  if (account) return accountKey(account);
  return storeId === null ? 'all' : `store:${storeId}`;
}
