/** A statement's bank account, and the key two spellings of it share (`0123-456-789012`, `0123 456789012`). */
import { ValidationError } from '../errors.js';

export const MAX_ACCOUNT_LENGTH = 64;

/** The account as it is kept: trimmed, inner spaces collapsed; null when empty or not text. */
export function cleanAccount(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const s = raw.replace(/[\s\u3000]+/g, ' ').trim();
  return s ? s : null;
}

/** What makes two spellings one account: full-width as half-width, no spaces, dashes or dots, upper case. */
export function accountKey(account: string): string {
  return account
    .normalize('NFKC')
    .replace(/[\s\u3000\-－‐–—.．]/g, '')
    .toUpperCase();
}

function accountProblem(account: string): 'too_long' | 'bad_characters' | null {
  if (account.length > MAX_ACCOUNT_LENGTH) return 'too_long';
  if (/[\u0000-\u001f\u007f]/.test(account)) return 'bad_characters';
  return null;
}

/** The source the matcher learns booking habits per: the account, else the statement's store, else all stores. */
export function lineSource(account: string | null, storeId: number | null): string {
  if (account) return accountKey(account);
  return storeId === null ? 'all' : `store:${storeId}`;
}

/** The account typed on upload (CLI --account, API `account`): null when none, else checked. */
export function givenAccount(raw: unknown): string | null {
  if (raw !== undefined && raw !== null && typeof raw !== 'string')
    throw ValidationError.single('account', 'reconcile_account_bad');
  const account = cleanAccount(raw);
  if (account === null) return null;
  const problem = accountProblem(account);
  if (problem)
    throw problem === 'too_long'
      ? ValidationError.single('account', 'reconcile_account_too_long', { limit: MAX_ACCOUNT_LENGTH })
      : ValidationError.single('account', 'reconcile_account_bad');
  return account;
}

/** The title row's account, else the one given on upload; a given account that is not the file's is refused. */
export function statementAccount(inFileRaw: string | null | undefined, given: string | null): string | null {
  const raw = cleanAccount(inFileRaw ?? null);
  const inFile = raw === null ? null : raw.slice(0, MAX_ACCOUNT_LENGTH);
  if (inFile === null) return given;
  if (given !== null && accountKey(given) !== accountKey(inFile))
    throw ValidationError.single('account', 'reconcile_account_differs', { in_file: inFile, given });
  return inFile;
}
