import { resolve } from 'node:path';
import type { Command } from 'commander';
import { backupSqlite, openDatabase, restoreSqlite } from '../../core/index.js';
import { configFrom, requireSqliteFile, type CliIO } from '../context.js';
import { UsageError } from '../errors.js';
import { fileWriteError } from '../files.js';
import { confirmOrCancel, examples, requireYesOrTerminal } from '../input.js';
import { BACKUP } from '../messages.js';

type Opts = { force?: boolean; yes?: boolean };

function sqliteFile(io: CliIO, cmd: Command): string {
  const config = configFrom(io, cmd.optsWithGlobals());
  if (config.db.client !== 'sqlite') throw new UsageError(BACKUP.pgOnly(cmd.name()));
  if (config.db.filename === ':memory:') throw new UsageError(BACKUP.inMemory);
  return resolve(config.db.filename);
}

export function backupCommand(program: Command, io: CliIO): void {
  program
    .command('backup <file>')
    .description('把 SQLite 資料庫備份到檔案（伺服器執行中也可以，得到一致的快照）')
    .option('--force', '覆蓋已存在的檔案')
    .addHelpText(
      'after',
      examples(
        'remit backup /backups/remit/remit-20261121.sqlite',
        '0 2 * * * cd /srv/remit && node dist/cli/main.js backup /backups/remit/remit-$(date +\\%Y\\%m\\%d).sqlite   # crontab',
      ),
    )
    .action(async (file: string, opts: Opts, cmd: Command) => {
      const dbFile = sqliteFile(io, cmd);
      requireSqliteFile(io, cmd.optsWithGlobals()); // a backup of nothing: say where remit looked
      const target = resolve(file);
      if (target === dbFile) throw new UsageError(BACKUP.sameFile);
      const db = openDatabase({ client: 'sqlite', filename: dbFile });
      try {
        const { bytes } = await backupSqlite(db, target, { force: opts.force }).catch((err) => {
          throw fileWriteError(target, err);
        });
        io.stdout(`${BACKUP.done(dbFile, target, bytes)}\n`);
      } finally {
        await db.destroy();
      }
    });

  program
    .command('restore <file>')
    .description(
      '從備份檔還原 SQLite 資料庫（先檢查備份檔；須先停止伺服器；目前的資料會被取代；新的機器上會建立資料庫）',
    )
    .option('--yes', '不詢問確認（非互動模式必須加上）')
    .addHelpText(
      'after',
      examples(
        'remit restore /backups/remit/remit-20261121.sqlite',
        'remit restore backup.sqlite --yes   # 腳本中使用',
      ),
    )
    .action(async (file: string, opts: Opts, cmd: Command) => {
      const dbFile = sqliteFile(io, cmd);
      const source = resolve(file);
      if (source === dbFile) throw new UsageError(BACKUP.sameFile);
      requireYesOrTerminal(opts.yes);
      await confirmOrCancel(opts.yes, BACKUP.confirmRestore(source, dbFile));
      const info = await restoreSqlite(source, dbFile);
      io.stdout(`${BACKUP.restored(source, dbFile, info.counts)}\n`);
    });
}
