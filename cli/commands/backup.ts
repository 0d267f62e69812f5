import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  backupOverview,
  backupToFile,
  formatTaipei,
  restoreBackup,
  RESTORE_WORD,
  setKeepDays,
} from '../../core/index.js';
import { BACKUP_REASON_LABELS, fileSizeText } from '../../core/labels.js';
import { configFrom, describeDb, withOperator, type CliIO, type GlobalOptions } from '../context.js';
import { UsageError } from '../errors.js';
import { fileWriteError } from '../files.js';
import { confirmOrCancel, examples, requireYesOrTerminal } from '../input.js';
import { BACKUP } from '../messages.js';
import { renderTable } from '../table.js';

type Opts = { force?: boolean; yes?: boolean };

/** The SQLite file (null on PostgreSQL), refusing an in-memory one and a file the database itself is. */
function checkTarget(io: CliIO, globals: GlobalOptions, file: string): string {
  const config = configFrom(io, globals);
  const path = resolve(file);
  if (config.db.client === 'sqlite') {
    if (config.db.filename === ':memory:') throw new UsageError(BACKUP.inMemory);
    if (path === resolve(config.db.filename)) throw new UsageError(BACKUP.sameFile);
  }
  return path;
}

export function backupCommand(program: Command, io: CliIO): void {
  program
    .command('backup <file>')
    .description(
      '把資料庫備份到檔案（SQLite 或 PostgreSQL；伺服器執行中也可以，得到一致的快照；與後台「備份」頁同一種格式）',
    )
    .option('--force', '覆蓋已存在的檔案')
    .addHelpText(
      'after',
      examples(
        'remit backup /backups/remit/remit-20261121.backup.gz',
        '0 2 * * * cd /srv/remit && node dist/cli/main.js backup /backups/remit/remit-$(date +\\%Y\\%m\\%d).backup.gz   # crontab',
      ),
    )
    .action(async (file: string, opts: Opts, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      const target = checkTarget(io, globals, file);
      const { bytes } = await withOperator(io, globals, (ctx) =>
        backupToFile(ctx, target, { force: opts.force }).catch((err) => {
          throw fileWriteError(target, err);
        }),
      );
      io.stdout(`${BACKUP.done(describeDb(configFrom(io, globals)), target, bytes)}\n`);
    });

  program
    .command('restore <file>')
    .description(
      '從備份檔還原資料庫（remit backup 或「備份」頁的檔案，也接受舊的 .sqlite 備份；伺服器執行中也可以；目前的資料先自動備份再被取代；新的機器上會建立資料庫）',
    )
    .option('--yes', '不詢問確認（非互動模式必須加上）')
    .addHelpText(
      'after',
      examples(
        'remit restore /backups/remit/remit-20261121.backup.gz',
        'remit restore remit-20261121.sqlite --yes   # 舊的 .sqlite 備份，腳本中使用',
      ),
    )
    .action(async (file: string, opts: Opts, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      const source = checkTarget(io, globals, file);
      const where = describeDb(configFrom(io, globals));
      requireYesOrTerminal(opts.yes);
      await confirmOrCancel(opts.yes, BACKUP.confirmRestore(source, where));
      const r = await withOperator(
        io,
        globals,
        (ctx) => restoreBackup(ctx, source, { shownAs: source, confirm: RESTORE_WORD }),
        { create: true },
      );
      if (r.info.upgraded) io.stdout(`${BACKUP.upgraded(r.info.schema)}\n`);
      io.stdout(`${BACKUP.restored(source, where, { ...r.info.counts }, r.pre_restore)}\n`);
    });
}

/** `remit backups`: the folder's backups; `--keep-days N` sets how long the automatic ones stay. */
export function backupsCommand(program: Command, io: CliIO): void {
  program
    .command('backups')
    .description('列出備份目錄中的備份（手動、匯入前、還原前、每日）；--keep-days 設定自動備份保留天數')
    .option('--keep-days <days>', '自動備份保留天數（1 到 3650，預設 14；手動備份不會自動刪除）')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      examples('remit backups', 'remit backups --keep-days 30', 'remit --backup-dir /srv/backups backups --json'),
    )
    .action(async (opts: { keepDays?: string; json?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      await withOperator(io, globals, async (ctx) => {
        if (opts.keepDays !== undefined) {
          if (!/^\d+$/.test(opts.keepDays.trim())) throw new UsageError(BACKUP.keepDaysNotNumber(opts.keepDays));
          const days = await setKeepDays(ctx, Number(opts.keepDays));
          if (!opts.json) io.stdout(`${BACKUP.keepDaysSet(days)}\n`);
        }
        const o = await backupOverview(ctx);
        if (opts.json) return io.stdout(`${JSON.stringify(o, null, 2)}\n`);
        io.stdout(`${BACKUP.folder(o.dir, o.keep_days, o.keep_days_from_env)}\n`);
        const h = BACKUP.headers;
        const rows = o.backups.map((b) => [
          formatTaipei(Date.parse(b.at), { seconds: true }),
          BACKUP_REASON_LABELS[b.reason],
          fileSizeText(b.bytes),
          b.name,
        ]);
        io.stdout(
          rows.length ? renderTable([h.at, h.reason, h.size, h.name], rows, { right: [2] }) : `${BACKUP.none}\n`,
        );
      });
    });
}
