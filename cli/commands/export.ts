import { rmSync } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import {
  addDays,
  exportDayBook,
  exportPaymentsStream,
  isStatus,
  taipeiDate,
  type ExportFormat,
} from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';
import { checkDateFlags } from '../dateFlags.js';
import { isBusy, UsageError } from '../errors.js';
import { writeFileAtomic, writeStreamAtomic } from '../files.js';
import { examples } from '../input.js';
import { EXPORT } from '../messages.js';
import { codeList, storeIdsFromFlag } from '../storeCodes.js';

interface ExportOpts {
  output?: string;
  from?: string;
  to?: string;
  yesterday?: boolean;
  today?: boolean;
  status?: string;
  store?: string;
  format?: string;
  daybook?: boolean;
  wait?: string;
  failEmpty?: boolean;
  verbose?: boolean;
}

/** How long an export waits by default for another program's write (a running import) to write its audit entry. */
const EXPORT_WAIT_SECONDS = 600;

const FORMATS: ExportFormat[] = ['xlsx', 'csv', 'json'];

/** The filter the flags describe, with dates as Taiwan dates. */
function exportFilter(opts: ExportOpts, now: number = Date.now()): Record<string, unknown> {
  if (opts.yesterday && opts.today) throw new UsageError(EXPORT.dayFlagsBoth);
  if ((opts.yesterday || opts.today) && (opts.from || opts.to)) throw new UsageError(EXPORT.dayFlagsWithDates);
  const filter: Record<string, unknown> = {};
  const today = taipeiDate(now);
  if (opts.today) filter.paid_at_gte = filter.paid_at_lte = today;
  if (opts.yesterday) filter.paid_at_gte = filter.paid_at_lte = addDays(today, -1);
  checkDateFlags(['--from', opts.from], ['--to', opts.to]);
  if (opts.from) filter.paid_at_gte = opts.from;
  if (opts.to) filter.paid_at_lte = opts.to;
  if (opts.status) {
    const statuses = opts.status
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = statuses.filter((s) => !isStatus(s));
    if (bad.length) throw new UsageError(EXPORT.badStatus(bad));
    filter.status = statuses;
  }
  return filter;
}

function formatOf(opts: ExportOpts): ExportFormat {
  const explicit = opts.format?.toLowerCase();
  if (explicit) {
    if (!FORMATS.includes(explicit as ExportFormat)) throw new UsageError(EXPORT.badFormat(opts.format!));
    return explicit as ExportFormat;
  }
  const ext = opts.output && opts.output !== '-' ? extname(opts.output).slice(1).toLowerCase() : '';
  return FORMATS.includes(ext as ExportFormat) ? (ext as ExportFormat) : 'xlsx';
}

export function exportCommand(program: Command, io: CliIO): void {
  program
    .command('export')
    .description('匯出匯款記錄（Excel、CSV 或 JSON），適合排程：不提示、不上色，結束碼表示成敗')
    .option('-o, --output <file>', '輸出檔案；- 表示標準輸出（預設：規格的檔名，如 匯款記錄_全部_YYYYMMDDHHmm.xlsx）')
    .option('--from <date>', '起始日期 YYYY-MM-DD（台灣時間，含當天）')
    .option('--to <date>', '結束日期 YYYY-MM-DD（台灣時間，含當天）')
    .option('--yesterday', '只匯出昨天（台灣時間）')
    .option('--today', '只匯出今天（台灣時間）')
    .option('--status <statuses>', '狀態：未確認、已入帳、未入帳（可用逗號分隔）')
    .option('--store <codes>', '分店代碼，以逗號分隔')
    .option('--format <format>', 'xlsx、csv（含 UTF-8 BOM）或 json；預設依副檔名，否則 xlsx')
    .option(
      '--daybook',
      '匯出日記帳（給會計）：一家分店（--store）每天的每一筆收支、付款方式、現金支出與日結，xlsx 或 csv',
    )
    .option('--fail-empty', `沒有符合的記錄時以結束碼 1 結束（${EXPORT.noData}），不寫檔案；預設寫出只有標題列的檔案`)
    .option('--verbose', '完成時印出匯出筆數（在終端機執行時一律會印出；排程執行時預設不印，以免每天寄出郵件）')
    .option(
      '--wait <seconds>',
      `另一個程式正在寫入（例如匯入）時，最多等幾秒再寫入匯出紀錄（預設 ${EXPORT_WAIT_SECONDS}；0 表示不等）`,
    )
    .addHelpText(
      'after',
      examples(
        'remit export',
        'remit export --yesterday -o /backups/remit/昨日匯款.xlsx',
        'remit export --from 2026-11-01 --to 2026-11-30 --store TPE,TXG --status 已入帳 --format csv',
        'remit export --today --format json -o - | jq length',
        'remit export --daybook --store TPE --from 2026-11-01 --to 2026-11-30 --format csv',
      ) +
        '\n排程（每天 01:00 匯出前一天；成功時不輸出，cron 只在出錯時寄信）：\n  0 1 * * * cd /srv/remit && remit export --yesterday -o /backups/remit/匯款_$(date +\\%Y\\%m\\%d).xlsx\n',
    )
    .action(async (opts: ExportOpts, cmd: Command) => {
      const format = formatOf(opts);
      const wait = waitOf(opts);
      if (opts.daybook) return exportDayBookFile(io, cmd, opts, format, wait);
      const filter = exportFilter(opts);
      const say = (text: string, to: 'stdout' | 'stderr') => (opts.verbose || io.watched) && io[to](`${text}\n`);
      // The rows are read while the file is written, so the database stays open until the end.
      await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const codes = codeList(opts.store);
        if (codes.length) filter.store_id = await storeIdsFromFlag(ctx, codes);
        // audited once the file is in place: a file that could not be written, or a pipe whose
        // reader left halfway (| head), is not recorded as exported
        const file = await exportPaymentsStream(ctx, {
          filter,
          format,
          auditOnFinish: true,
          allowEmpty: !opts.failEmpty,
        });
        const target = opts.output ?? file.fileName;
        if (target === '-') {
          await pipeline(Readable.from(file.body), process.stdout, { end: false });
          await auditWhenFree(io, file.finished, wait);
          say(EXPORT.doneToStdout(file.written()), 'stderr');
          return;
        }
        await writeStreamAtomic(target, file.body, 0o600);
        await auditOrRemove(io, target, file.finished, wait);
        say(EXPORT.done(file.written(), target), 'stdout');
      });
    });
}

/** `remit export --daybook`: one store's day book over the dates (today when none), .xlsx or CSV. */
async function exportDayBookFile(
  io: CliIO,
  cmd: Command,
  opts: ExportOpts,
  format: ExportFormat,
  wait: number,
): Promise<void> {
  if (format === 'json') throw new UsageError(EXPORT.daybookFormat);
  const codes = codeList(opts.store);
  if (codes.length !== 1) throw new UsageError(EXPORT.daybookStore);
  if (opts.status) throw new UsageError(EXPORT.daybookStatus);
  const filter = exportFilter(opts);
  const today = taipeiDate(Date.now());
  await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
    const [store_id] = await storeIdsFromFlag(ctx, codes);
    const to = (filter.paid_at_lte as string | undefined) ?? today;
    const file = await exportDayBook(
      ctx,
      { store_id, from: (filter.paid_at_gte as string | undefined) ?? to, to, format },
      { auditOnFinish: true },
    );
    const target = opts.output ?? file.fileName;
    if (target === '-') {
      await writeStdout(file.body);
      await auditWhenFree(io, file.finished!, wait);
      if (opts.verbose || io.watched) io.stderr(`${EXPORT.doneToStdout(file.count)}\n`);
      return;
    }
    writeFileAtomic(target, file.body, 0o600);
    await auditOrRemove(io, target, file.finished!, wait);
    if (opts.verbose || io.watched) io.stdout(`${EXPORT.done(file.count, target)}\n`);
  });
}

/** `--wait`: whole seconds, 0 or more. */
function waitOf(opts: ExportOpts): number {
  if (opts.wait === undefined) return EXPORT_WAIT_SECONDS;
  if (!/^\d{1,6}$/.test(opts.wait.trim())) throw new UsageError(EXPORT.badWait(opts.wait));
  return Number(opts.wait.trim());
}

/**
 * The export's audit entry, tried again while another program writes (a running import holds SQLite's write lock
 * throughout) until `waitSeconds` pass: a nightly export beside an import finishes after it instead of failing.
 */
async function auditWhenFree(io: CliIO, finished: () => Promise<void>, waitSeconds: number): Promise<void> {
  const until = Date.now() + waitSeconds * 1000;
  let said = false;
  for (;;) {
    try {
      return await finished();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= until) throw err;
      if (!said) io.stderr(`${EXPORT.waiting(waitSeconds)}\n`);
      said = true;
      // each try waits the busy time itself; a refusal that came at once is not tried again at once
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The export's audit entry once its file is in place; a file whose entry could not be written is taken back. */
async function auditOrRemove(
  io: CliIO,
  target: string,
  finished: () => Promise<void>,
  waitSeconds: number,
): Promise<void> {
  try {
    await auditWhenFree(io, finished, waitSeconds);
  } catch (err) {
    rmSync(target, { force: true });
    throw err;
  }
}

/** Bytes to stdout, settled once written (or refused: a reader gone, EPIPE). */
function writeStdout(body: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(body, (err) => (err ? reject(err) : resolve())));
}
