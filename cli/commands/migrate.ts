import type { Command } from 'commander';
import { migrateLatest, openDatabase } from '../../core/index.js';
import { configFrom, describeDb, type CliIO } from '../context.js';
import { examples } from '../input.js';
import { DB } from '../messages.js';

export function migrateCommand(program: Command, io: CliIO): void {
  program
    .command('migrate')
    .description('建立資料庫（新的安裝）或套用資料庫遷移（serve 啟動時也會自動執行）')
    .addHelpText('after', examples('remit migrate', 'remit --db /srv/remit/remit.sqlite migrate'))
    .action(async (_opts, cmd: Command) => {
      const config = configFrom(io, cmd.optsWithGlobals());
      const db = openDatabase(config.db);
      try {
        const applied = await migrateLatest(db);
        io.stdout(`${applied.length ? DB.migrated(applied) : DB.upToDate(describeDb(config))}\n`);
      } finally {
        await db.destroy();
      }
    });
}
