import type { Command } from 'commander';
import { migrateLatest, openDatabase } from '../../core/index.js';
import { configFrom, describeDb, type CliIO } from '../context.js';

export function migrateCommand(program: Command, io: CliIO): void {
  program
    .command('migrate')
    .description('套用資料庫遷移（serve 啟動時也會自動執行）')
    .addHelpText('after', '\n範例：\n  remit migrate\n  remit --db /srv/remit/remit.sqlite migrate\n')
    .action(async (_opts, cmd: Command) => {
      const config = configFrom(io, cmd.optsWithGlobals());
      const db = openDatabase(config.db);
      try {
        const applied = await migrateLatest(db);
        io.stdout(applied.length ? `已套用 ${applied.length} 個遷移：${applied.join(', ')}\n` : `資料庫已是最新（${describeDb(config)}）\n`);
      } finally {
        await db.destroy();
      }
    });
}
