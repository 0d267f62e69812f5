import { CommanderError } from 'commander';
import {
  ConfigError,
  errorMessage,
  isDatabaseBusy,
  isDomainError,
  ValidationError,
  type Problem,
} from '../core/index.js';
import { actorNameText } from '../core/audit/text.js';
import type { CliIO } from './context.js';
import { DB, errorLine, INPUT, SERVE } from './messages.js';

/** Exit codes: 0 success, 1 the data or the operation failed (a missing or wrong file is data), 2 wrong usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2, readerGone: 141 } as const;

/** The pipe's reader left (`remit export -o - | head`): stop silently, as SIGPIPE would, recording nothing as done. */
export function isReaderGone(err: unknown): boolean {
  return (err as { code?: string })?.code === 'EPIPE';
}

/** A usage problem found by a command itself (a missing flag, an unknown store code given as a flag). */
export class UsageError extends Error {}

/** The data a command was pointed at is missing or unusable (a file, the database): exit 1. */
export class DataError extends Error {}

/** The operator declined a confirmation or left a prompt (Ctrl+C): nothing was done. */
export class CancelledError extends Error {}

/** A problem's details as a person reads them: the one who closed a day is 命令列, not `cli`. */
function spokenDetails(e: Problem): Problem['details'] {
  const by = (e.details as { by?: unknown } | undefined)?.by;
  return e.code === 'day_already_closed' && typeof by === 'string'
    ? { ...e.details, by: actorNameText(by) }
    : e.details;
}

/**
 * Runs `run`; core's refusal of a flag's value (an amount of 0, a range too long) is wrong usage (exit 2), like the
 * flag's other bad values. Refusals of other fields, and of `stateCodes` (from the data, not the value), stay exit 1.
 */
export async function flagValuesAsUsage<T>(
  fields: readonly string[],
  run: () => Promise<T>,
  stateCodes: readonly string[] = [],
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (
      err instanceof ValidationError &&
      err.errors.length &&
      err.errors.every((e) => fields.includes(e.field) && !stateCodes.includes(e.code))
    ) {
      throw new UsageError(err.errors.map((e) => errorMessage(e.code, e.details)).join('\n'));
    }
    throw err;
  }
}

/** The one error handler of the CLI: a clear message on stderr and an exit code, never a stack trace for user errors. */
export function handleError(err: unknown, io: CliIO): number {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version'
      ? EXIT.ok
      : EXIT.usage;
  }
  if (err instanceof UsageError || err instanceof ConfigError) {
    io.stderr(errorLine(err.message));
    return EXIT.usage;
  }
  if (err instanceof DataError) {
    io.stderr(errorLine(err.message));
    return EXIT.failure;
  }
  if (err instanceof CancelledError) {
    io.stderr(`${err.message || INPUT.cancelled}\n`);
    return EXIT.failure;
  }
  if (isDomainError(err)) {
    // a field error is a complete sentence: one is said alone, several as a list
    const said = (e: Problem) => errorMessage(e.code, spokenDetails(e));
    if (err instanceof ValidationError && err.errors.length === 1) io.stderr(errorLine(said(err.errors[0])));
    else {
      io.stderr(errorLine(said(err)));
      if (err instanceof ValidationError) for (const e of err.errors) io.stderr(`  - ${said(e)}\n`);
    }
    return EXIT.failure;
  }
  if (isReaderGone(err)) return EXIT.readerGone;
  // the write lock held past the wait (an import running): said in Chinese, never knex's or SQLite's English
  if (isBusy(err)) {
    io.stderr(errorLine(DB.busy));
    return EXIT.failure;
  }
  const e = err as { code?: string; message?: string; port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') {
    io.stderr(errorLine(SERVE.portInUse(e.port ?? '', (e.port ?? 3000) + 1)));
    return EXIT.failure;
  }
  if (e?.code === 'ECONNREFUSED' || e?.code === 'SQLITE_CANTOPEN' || e?.code === 'EACCES') {
    io.stderr(errorLine(e.message ?? String(err)));
    return EXIT.failure;
  }
  io.stderr(SERVE.unexpected((err as Error)?.stack ?? String(err)));
  return EXIT.failure;
}

/** Another process holds the write lock past the wait (the database's busy, knex's lock, SQLITE_BUSY in a message). */
export function isBusy(err: unknown): boolean {
  return (
    isDatabaseBusy(err) || (err as Error)?.name === 'LockError' || /SQLITE_BUSY/.test((err as Error)?.message ?? '')
  );
}
