/**
 * The CPU half of a statement import: the file read, its account settled and each line
 * fingerprinted, with no database. The API runs it on the matcher's threads (matchPool.ts), so
 * a 12 MB statement never holds the event loop; the CLI runs it in its own thread.
 */
import { statementAccount } from './account.js';
import { fingerprints } from './fingerprint.js';
import { readStatement, type ReadStatement } from './statement.js';

export interface PreparedStatement {
  read: ReadStatement;
  /** the statement's own account, else the one given on upload */
  account: string | null;
  /** each line's fingerprint, in the lines' order */
  prints: string[];
}

export function prepareStatement(bytes: Uint8Array, file: string, given: string | null): PreparedStatement {
  const read = readStatement(bytes, file);
  const account = statementAccount(read.account, given);
  return { read, account, prints: fingerprints(read.lines, account) };
}
