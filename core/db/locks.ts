/**
 * Locks held until the transaction ends, for work that must take turns across API instances.
 * PostgreSQL takes them as advisory locks; SQLite needs none, its one writer (BEGIN IMMEDIATE)
 * already puts every write transaction in turn.
 */
import type { Db } from '../context.js';
import { isPostgres, WRITE_WAIT_MS } from './connect.js';

/** The fixed locks, one number per kind of work, listed together so no two share one. */
export const LOCKS = {
  migration: 7_210_000,
  /** an import holds it alone; a submission shares it (see payments/write.ts) */
  import: 7_210_001,
  accounts: 7_210_002,
  /** a restore holds it while it replaces the data; others read it to say why they waited */
  restore: 7_210_003,
  /** one instance takes the nightly backup */
  nightlyBackup: 7_210_004,
  statementImport: 72_690_012,
} as const;

/** A fixed lock's number, or a text naming one thing (a duplicate key, a store's day), hashed. */
type LockName = number | string;

interface LockOptions {
  /** holders of a shared lock do not wait for each other, only for an exclusive holder */
  shared?: boolean;
  /** waits at most WRITE_WAIT_MS, then the write is refused as busy (503) */
  bounded?: boolean;
}

/** Takes every lock named, in one sorted order so two transactions never wait on each other in a circle. */
export async function lockForTransaction(
  trx: Db,
  names: LockName | readonly LockName[],
  { shared = false, bounded = false }: LockOptions = {},
): Promise<void> {
  if (!isPostgres(trx)) return;
  if (bounded) await trx.raw(`set local lock_timeout = ${WRITE_WAIT_MS}`);
  const lock = shared ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  const sorted = (typeof names === 'object' ? [...names] : [names]).sort((a, b) =>
    typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1,
  );
  for (const name of sorted) {
    await trx.raw(typeof name === 'number' ? `select ${lock}(?)` : `select ${lock}(hashtext(?))`, [name]);
  }
}
