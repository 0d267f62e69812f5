import { CommanderError } from 'commander';
import { ConfigError, errorMessage, isDomainError, ValidationError, type Problem } from '../core/index.js';
import type { CliIO } from './context.js';
import { errorLine, INPUT, SERVE } from './messages.js';

/**
 * Exit codes: 0 success, 1 a failure of the data or the operation (a file or database that is
 * missing or is not what it should be counts as data), 2 wrong usage (flags and arguments).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A usage problem found by a command itself (a missing flag, an unknown store code given as a flag). */
export class UsageError extends Error {}

/** The data a command was pointed at is missing or unusable (a file, the database): exit 1. */
export class DataError extends Error {}

/** The operator declined a confirmation or left a prompt (Ctrl+C): nothing was done. */
export class CancelledError extends Error {}

/** The one error handler of the CLI: a clear message on stderr and an exit code, never a stack trace for user errors. */
export function handleError(err: unknown, io: CliIO): number {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage;
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
    // Said from each error's code and details (core/messages.ts); a field error is a complete
    // sentence, so one is said alone, several as a list.
    const said = (e: Problem) => errorMessage(e.code, e.details);
    if (err instanceof ValidationError && err.errors.length === 1) io.stderr(errorLine(said(err.errors[0])));
    else {
      io.stderr(errorLine(said(err)));
      if (err instanceof ValidationError) for (const e of err.errors) io.stderr(`  - ${said(e)}\n`);
    }
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
