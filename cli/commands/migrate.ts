import type { Command } from 'commander';
import { migrateLatest, openDatabase } from '../../core/index.js';
import { resolve } from 'node:path';
import { checkSqliteTables, configFrom, describeDb, sqliteFileKind, type CliIO } from '../context.js';
import { examples } from '../input.js';
import { DB } from '../messages.js';

export function migrateCommand(program: Command, io: CliIO): void {
  program
    .command('migrate')
    .description('建立資料庫（新的安裝）或套用資料庫遷移（serve 啟動時也會自動執行）')
    .addHelpText('after', examples('remit migrate', 'remit --db /srv/remit/remit.sqlite migrate'))
    .action(async (_opts, cmd: Command) => {
      const config = configFrom(io, cmd.optsWithGlobals());
      // a new or empty file is made remit's; another program's database, or a file that is not
      // SQLite, is refused untouched, in the words every other command uses
      const path =
        config.db.client === 'sqlite' && config.db.filename !== ':memory:' ? resolve(config.db.filename) : null;
      if (path !== null && sqliteFileKind(path) === 'sqlite') await checkSqliteTables(path, { forMigrate: true });
      const db = openDatabase(config.db);
      try {
        const applied = await migrateLatest(db);
        io.stdout(`${applied.length ? DB.migrated(applied) : DB.upToDate(describeDb(config))}\n`);
      } finally {
        await db.destroy();
      }
    });
}
