import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { backupSqlite, openDatabase, restoreSqlite } from '../../core/index.js';
import { configFrom, type CliIO } from '../context.js';
import { UsageError } from '../errors.js';
import { confirmOrCancel, examples, requireYesOrTerminal } from '../input.js';

type Opts = { force?: boolean; yes?: boolean };

const PG_HINT = 'PostgreSQL 資料庫請用 pg_dump 備份、pg_restore 或 psql 還原（例如 pg_dump -Fc "$DATABASE_URL" > remit.dump）';

function sqliteFile(io: CliIO, cmd: Command): string {
  const config = configFrom(io, cmd.optsWithGlobals());
  if (config.db.client !== 'sqlite') throw new UsageError(`remit ${cmd.name()} 只用於 SQLite。${PG_HINT}`);
  if (config.db.filename === ':memory:') throw new UsageError('記憶體資料庫無法備份或還原');
  return resolve(config.db.filename);
}

export function backupCommand(program: Command, io: CliIO): void {
  program
    .command('backup <file>')
    .description('把 SQLite 資料庫備份到檔案（伺服器執行中也可以，得到一致的快照）')
    .option('--force', '覆蓋已存在的檔案')
    .addHelpText(
      'after',
      examples('remit backup /backups/remit/remit-20261121.sqlite', '0 2 * * * cd /srv/remit && node dist/cli/main.js backup /backups/remit/remit-$(date +\\%Y\\%m\\%d).sqlite   # crontab'),
    )
    .action(async (file: string, opts: Opts, cmd: Command) => {
      const dbFile = sqliteFile(io, cmd);
      if (!existsSync(dbFile)) throw new UsageError(`找不到資料庫檔案：${dbFile}（用 --db 或 REMIT_DB 指定）`);
      const target = resolve(file);
      if (target === dbFile) throw new UsageError('備份檔不能是資料庫本身');
      const db = openDatabase({ client: 'sqlite', filename: dbFile });
      try {
        const { bytes } = await backupSqlite(db, target, { force: opts.force });
        io.stdout(`已備份 ${dbFile} 到 ${target}（${bytes.toLocaleString('en-US')} 位元組）\n`);
      } finally {
        await db.destroy();
      }
    });

  program
    .command('restore <file>')
    .description('從備份檔還原 SQLite 資料庫（先檢查備份檔；須先停止伺服器；目前的資料會被取代）')
    .option('--yes', '不詢問確認（非互動模式必須加上）')
    .addHelpText('after', examples('remit restore /backups/remit/remit-20261121.sqlite', 'remit restore backup.sqlite --yes   # 腳本中使用'))
    .action(async (file: string, opts: Opts, cmd: Command) => {
      const dbFile = sqliteFile(io, cmd);
      const source = resolve(file);
      if (source === dbFile) throw new UsageError('備份檔不能是資料庫本身');
      requireYesOrTerminal(opts.yes);
      await confirmOrCancel(opts.yes, `確定要用 ${source} 取代資料庫 ${dbFile} 嗎？目前的資料會被取代`);
      const info = await restoreSqlite(source, dbFile);
      const c = info.counts;
      io.stdout(`已還原 ${source} 到 ${dbFile}：分店 ${c.stores}、會員 ${c.users}、匯款 ${c.payments}、稽核紀錄 ${c.audit_log} 筆\n`);
    });
}
