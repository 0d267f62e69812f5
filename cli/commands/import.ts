import { extname } from 'node:path';
import type { Command } from 'commander';
import {
  importPayments,
  parsePaymentsWorkbook,
  previewErrors,
  principalByUsername,
  storeDirectory,
  MSG,
} from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import { readImportFile } from '../files.js';
import { progressBar } from '../progress.js';
import { storeIdsFromFlag } from '../storeCodes.js';

interface ImportOpts {
  store?: string;
  as?: string;
  dryRun?: boolean;
  allowDuplicates?: boolean;
  json?: boolean;
}

export function importCommand(program: Command, io: CliIO): void {
  program
    .command('import')
    .description('從 Excel 檔案（.xlsx 或 .xls）匯入匯款記錄：先檢查每一行，有任何錯誤就完全不匯入')
    .argument('<file>', '要匯入的 Excel 檔案')
    .option('--store <code>', '分店欄空白時使用的分店代碼（預設：--as 用戶的分店，否則分店 1）')
    .option('--as <username>', '以此用戶的身分與權限匯入（記錄為建立者）')
    .option('--dry-run', '只檢查並顯示預覽，不寫入')
    .option('--allow-duplicates', '也匯入與現有記錄或前面的行相同的資料（預設略過）')
    .option('--json', '以 JSON 輸出結果')
    .addHelpText(
      'after',
      '\n範例：\n  remit import 匯款記錄.xlsx\n  remit import 台中店.xls --store TXG --as txg_manager\n  remit import 匯款記錄.xlsx --dry-run --json\n',
    )
    .action(async (file: string, opts: ImportOpts, cmd: Command) => {
      if (!['.xlsx', '.xls'].includes(extname(file).toLowerCase())) throw new UsageError(MSG.importNotSpreadsheet);
      const bytes = await readImportFile(file);
      const code = await withOperator(io, cmd.optsWithGlobals(), async (operator) => {
        const ctx = opts.as ? { ...operator, actor: await principalByUsername(operator.db, opts.as) } : operator;
        const stores = await storeDirectory(ctx);
        const [fallback] = opts.store ? await storeIdsFromFlag(ctx, [opts.store]) : [];
        const parsed = parsePaymentsWorkbook(bytes, {
          stores,
          userStoreId: fallback ?? ctx.actor.store_id,
          allowDuplicates: opts.allowDuplicates,
        });
        const report = { file, sheet: parsed.sheetName, rows: parsed.totalRows, valid: parsed.rows.length, errors: parsed.errors, skipped_rows: parsed.skipped };
        /** The one shape of `--json`, whatever happened (documented in README.md). */
        const json = (r: { imported: number; would_import: number; skipped: number; duplicates: number[] }) =>
          io.stdout(`${JSON.stringify({ ...report, dry_run: Boolean(opts.dryRun), ...r }, null, 2)}\n`);
        const nothing = { imported: 0, would_import: 0, skipped: 0, duplicates: [] };

        if (parsed.errors.length) {
          if (opts.json) json(nothing);
          else printPreview(io, report);
          io.stderr(`${MSG.importFailed}：檔案有 ${parsed.errors.length} 個錯誤，沒有匯入任何記錄\n`);
          return EXIT.failure;
        }
        if (!opts.json) printPreview(io, report);
        if (parsed.rows.length === 0) {
          if (opts.json) json(nothing);
          else io.stdout(`${MSG.importSuccess(0)}\n`);
          return EXIT.ok;
        }

        const bar = !opts.json && !opts.dryRun && process.stderr.isTTY ? progressBar(process.stderr, '匯入中') : null;
        const result = await importPayments(ctx, parsed.rows, {
          allowDuplicates: opts.allowDuplicates,
          dryRun: opts.dryRun,
          onProgress: bar ? (done, total) => bar.update(done, total) : undefined,
        });
        bar?.done();
        if (opts.json) {
          json({ imported: opts.dryRun ? 0 : result.imported, would_import: result.imported, skipped: result.skipped, duplicates: result.duplicates });
          return EXIT.ok;
        }
        if (result.skipped) io.stdout(`略過 ${result.skipped} 筆與已有記錄重複的資料（第 ${result.duplicates.slice(0, 10).join('、')}${result.duplicates.length > 10 ? '…' : ''} 行）\n`);
        io.stdout(opts.dryRun ? `試算完成：將匯入 ${result.imported} 筆記錄（未寫入）\n` : `${MSG.importSuccess(result.imported)}\n`);
        return EXIT.ok;
      });
      process.exitCode = code;
    });
}

function printPreview(io: CliIO, r: { file: string; sheet: string; rows: number; valid: number; errors: string[]; skipped_rows: Array<{ reason: string }> }): void {
  io.stdout(`檔案：${r.file}（工作表「${r.sheet}」）\n共 ${r.rows} 筆資料，${r.valid} 筆可匯入\n`);
  if (r.errors.length) {
    const { first, more } = previewErrors(r.errors);
    io.stdout(`錯誤：\n${first.map((e) => `  ${e}\n`).join('')}`);
    if (more) io.stdout(`  …還有 ${more} 個錯誤\n`);
  }
  for (const s of r.skipped_rows.slice(0, 5)) io.stdout(`  ${s.reason}\n`);
  if (r.skipped_rows.length > 5) io.stdout(`  …還有 ${r.skipped_rows.length - 5} 行略過\n`);
}
