#!/usr/bin/env node
import { EXIT, handleError, isReaderGone } from './errors.js';
import { buildProgram } from './program.js';
import { terminalText } from './table.js';
import type { CliIO } from './context.js';
import { SERVE } from './messages.js';

// No control character from the data reaches the terminal (see terminalText).
const io: CliIO = {
  env: process.env,
  stdout: (s) => process.stdout.write(terminalText(s)),
  stderr: (s) => process.stderr.write(terminalText(s)),
  watched: Boolean(process.stdout.isTTY),
};

// A reader that went away (`remit closes | head -1`): stop quietly, as Unix tools do; nothing half-written is done.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (isReaderGone(err)) process.exit(EXIT.readerGone);
    throw err;
  });
}

const program = buildProgram(io, {
  onServerStarted(stop) {
    // SIGTERM/SIGINT: stop accepting, let requests in flight finish, close the database.
    const shutdown = (signal: string) => {
      io.stderr(SERVE.stopping(signal));
      stop().then(
        () => process.exit(0),
        (err) => {
          io.stderr(SERVE.stopFailed(err));
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  },
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = handleError(err, io);
}
