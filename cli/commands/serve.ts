import type { Command } from 'commander';
import { configFrom, describeDb, type CliIO } from '../context.js';

export function serveCommand(program: Command, io: CliIO, onStarted?: (stop: () => Promise<void>) => void): void {
  program
    .command('serve')
    .description('啟動伺服器：/api 與後台')
    .option('-p, --port <port>', '連接埠（預設 PORT 或 3000）')
    .option('-H, --host <host>', '綁定位址（預設 HOST 或 127.0.0.1）')
    .addHelpText('after', '\n範例：\n  remit serve\n  remit serve --port 8080 --host 0.0.0.0\n  DATABASE_URL=postgres://remit@db/remit REMIT_JWT_SECRET=... remit serve\n')
    .action(async (_opts, cmd: Command) => {
      const config = configFrom(io, cmd.optsWithGlobals());
      // Loaded here: the web server's modules are not needed by every other command (import, export…).
      const { startServer } = await import('../../http/server.js');
      const running = await startServer(config, { log: (m, e) => io.stderr(`${m}: ${(e as Error)?.stack ?? e}\n`) });
      let banner = `remit 已啟動：${running.url}\n資料庫：${describeDb(config)}\n`;
      if (running.firstAdmin) {
        const { user, password, generated } = running.firstAdmin;
        banner += `\n已建立第一個管理員帳戶：${user.username}\n`;
        banner += generated ? `密碼（只顯示這一次，請登入後立即更改）：${password}\n\n` : '密碼：REMIT_ADMIN_PASSWORD 的值\n\n';
      }
      // one write, so whoever reads the address has the first-admin lines with it
      io.stdout(banner);
      onStarted?.(() => running.close());
    });
}
