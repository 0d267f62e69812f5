import type { Command } from 'commander';
import { configFrom, describeDb, type CliIO } from '../context.js';
import { examples } from '../input.js';
import { SERVE } from '../messages.js';

export function serveCommand(program: Command, io: CliIO, onStarted?: (stop: () => Promise<void>) => void): void {
  program
    .command('serve')
    .description('啟動伺服器：/api 與後台')
    .option('-p, --port <port>', '連接埠（預設 PORT 或 3000）')
    .option('-H, --host <host>', '綁定位址（預設 HOST 或 127.0.0.1）')
    .addHelpText(
      'after',
      examples(
        'remit serve',
        'remit serve --port 8080 --host 0.0.0.0',
        'DATABASE_URL=postgres://remit@db/remit REMIT_JWT_SECRET=... remit serve',
      ),
    )
    .action(async (_opts, cmd: Command) => {
      const config = configFrom(io, cmd.optsWithGlobals());
      // Loaded here: the web server's modules are not needed by every other command (import, export…).
      const { startServer } = await import('../../http/server.js');
      const running = await startServer(config, { log: (m, e) => io.stderr(`${m}: ${(e as Error)?.stack ?? e}\n`) });
      let banner = SERVE.started(running.url, describeDb(config));
      if (running.firstAdmin) {
        const { user, password, generated } = running.firstAdmin;
        banner += SERVE.firstAdmin(user.username);
        banner += generated ? SERVE.firstAdminPassword(password) : SERVE.firstAdminFromEnv;
      }
      // one write, so whoever reads the address has the first-admin lines with it
      io.stdout(banner);
      onStarted?.(() => running.close());
    });
}
