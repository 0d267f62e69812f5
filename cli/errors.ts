import { CommanderError } from 'commander';
import { ConfigError, errorMessage, isDomainError, ValidationError, type Problem } from '../core/index.js';
import type { CliIO } from './context.js';

/** Exit codes: 0 success, 1 a failure of the data or the operation, 2 wrong usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A usage problem found by a command itself (a missing flag, an unknown store code given as a flag). */
export class UsageError extends Error {}

/** The operator declined a confirmation or left a prompt (Ctrl+C): nothing was done. */
export class CancelledError extends Error {}

/** The one error handler of the CLI: a clear message on stderr and an exit code, never a stack trace for user errors. */
export function handleError(err: unknown, io: CliIO): number {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof UsageError || err instanceof ConfigError) {
    io.stderr(`錯誤：${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof CancelledError) {
    io.stderr(`${err.message || '已取消'}\n`);
    return EXIT.failure;
  }
  if (isDomainError(err)) {
    // Said from each error's code and details (core/messages.ts); a field error is a complete
    // sentence, so one is said alone, several as a list.
    const said = (e: Problem) => errorMessage(e.code, e.details);
    if (err instanceof ValidationError && err.errors.length === 1) io.stderr(`錯誤：${said(err.errors[0])}\n`);
    else {
      io.stderr(`錯誤：${said(err)}\n`);
      if (err instanceof ValidationError) for (const e of err.errors) io.stderr(`  - ${said(e)}\n`);
    }
    return EXIT.failure;
  }
  const e = err as { code?: string; message?: string; port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') {
    io.stderr(`錯誤：連接埠 ${e.port ?? ''} 已被其他程式使用（可能 remit 已在執行）。請先停止那個程式，或用 --port 換一個連接埠，例如 remit serve --port ${(e.port ?? 3000) + 1}\n`);
    return EXIT.failure;
  }
  if (e?.code === 'ECONNREFUSED' || e?.code === 'SQLITE_CANTOPEN' || e?.code === 'EACCES') {
    io.stderr(`錯誤：${e.message}\n`);
    return EXIT.failure;
  }
  io.stderr(`未預期的錯誤：${(err as Error)?.stack ?? String(err)}\n`);
  return EXIT.failure;
}
