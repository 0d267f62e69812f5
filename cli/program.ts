import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { auditCommand } from './commands/audit.js';
import { backupCommand, backupsCommand } from './commands/backup.js';
import { cashOutCommand, closeCommand, closesCommand, dayCommand } from './commands/closes.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { migrateCommand } from './commands/migrate.js';
import { reconcileCommand } from './commands/reconcile.js';
import { sampleCommand } from './commands/sample.js';
import { serveCommand } from './commands/serve.js';
import { statsCommand } from './commands/stats.js';
import { storesCommand } from './commands/stores.js';
import { usersCommand } from './commands/users.js';
import type { CliIO } from './context.js';
import { refuseEmptyValues } from './emptyValues.js';
import { localizeTree } from './help.js';
import { HELP } from './messages.js';

/** The `remit` command tree; `main.ts` runs it, tests can call `parseAsync` on it. */
export function buildProgram(
  io: CliIO,
  hooks: { onServerStarted?: (stop: () => Promise<void>) => void } = {},
): Command {
  const program = new Command('remit')
    .description('匯款回報系統：伺服器、資料庫與管理工具')
    .option(
      '--db <file>',
      'SQLite 資料庫檔案（預設 REMIT_DB 或 ./data/remit.sqlite；設定 DATABASE_URL 則用 PostgreSQL）',
    )
    .option(
      '--backup-dir <dir>',
      '備份目錄（預設 REMIT_BACKUP_DIR，或 SQLite 檔案旁的 backups 資料夾；PostgreSQL 為 ./data/backups）',
    )
    .version(remitVersion(), '-V, --version', HELP.version)
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  serveCommand(program, io, hooks.onServerStarted);
  migrateCommand(program, io);
  importCommand(program, io);
  reconcileCommand(program, io);
  exportCommand(program, io);
  sampleCommand(program, io);
  usersCommand(program, io);
  storesCommand(program, io);
  statsCommand(program, io);
  closeCommand(program, io);
  cashOutCommand(program, io);
  closesCommand(program, io);
  dayCommand(program, io);
  auditCommand(program, io);
  backupCommand(program, io);
  backupsCommand(program, io);
  // an empty value ('' from an unset variable in a script) is refused before any command runs
  program.hook('preAction', (_root, action) => refuseEmptyValues(action));
  return localizeTree(program);
}

/** The version in package.json: one folder above cli/program.ts, two above dist/cli/program.js. */
function remitVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'remit' && pkg.version) return pkg.version;
    } catch {
      /* not there: try the next folder up */
    }
  }
  return '0.0.0';
}
