/** The CPU half of an import: the API runs it on the matcher's threads, so a large file never holds the event loop. */
import { statementAccount } from './account.js';
import { fingerprints } from './fingerprint.js';
import { readStatement, type ReadStatement } from './statement.js';

export interface PreparedStatement {
  read: ReadStatement;
  account: string | null;
  prints: string[];
}

export function prepareStatement(bytes: Uint8Array, file: string, given: string | null): PreparedStatement {
  const read = readStatement(bytes, file);
  const account = statementAccount(read.account, given);
  return { read, account, prints: fingerprints(read.lines, account) };
}
