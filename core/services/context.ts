import type { Db } from '../db/connect.js';
import type { HashingSettings } from './hashPool.js';
import { PERMISSION_KEYS, type Principal } from '../permissions.js';

export interface SecuritySettings {
  /** HS256 signing secret for session tokens */
  jwtSecret: string;
  /** how long a token lasts, seconds */
  tokenTtlSeconds: number;
  /** bcrypt cost factor for password hashes */
  bcryptCost: number;
  /** worker threads and queue bound for password hashing; defaults when absent */
  hashing?: HashingSettings;
  /** failed sign-ins allowed per username and per address in a window; default 10 in 15 minutes */
  signInLimit?: SignInLimit;
}

export interface SignInLimit {
  maxFailures: number;
  windowMs: number;
}

/** What every service receives: the database (or a transaction), its settings, and who acts. */
export interface AppContext {
  db: Db;
  security: SecuritySettings;
}

export interface ServiceContext extends AppContext {
  actor: Principal;
  /** the caller's address, for the audit log */
  ip?: string | null;
}

/**
 * The actor for commands run by the machine's operator (`remit users add` and the like):
 * whoever can run the CLI on the server already holds the database file.
 */
export function systemActor(label = 'cli'): Principal {
  return { id: 0, username: label, role: 'admin', permissions: [...PERMISSION_KEYS], store_id: null, accessible_stores: [] };
}
