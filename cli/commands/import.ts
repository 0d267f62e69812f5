import { extname } from 'node:path';
import type { Command } from 'commander';
import { importPaymentFile, previewErrors, principalByUsername, MSG, type ImportFileReport } from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';
import { DataError, EXIT } from '../errors.js';
import { assertReadableFile } from '../files.js';
import { examples } from '../input.js';
import { IMPORT } from '../messages.js';
import { importProgress } from '../progress.js';
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
    .description(
      '從 Excel 檔案（.xlsx、.xls）或 CSV 檔匯入匯款記錄：先檢查每一行，有任何錯誤就完全不匯入（.xlsx 與 CSV 最多 1048576 筆，.xls 最多 100000 筆）',
    )
    .argument('<file>', '要匯入的 .xlsx、.xls 或 .csv 檔案')
    .option('--store <code>', '分店欄空白時使用的分店代碼（預設：--as 用戶的分店，否則分店 1）')
    .option('--as <username>', '以此用戶的身分與權限匯入（記錄為建立者）')
    .option('--dry-run', '只檢查並顯示預覽，不寫入')
    .option('--allow-duplicates', '也匯入與現有記錄或前面的行相同的資料（預設略過）')
    .option('--json', '以 JSON 輸出結果')
    .addHelpText(
      'after',
      examples(
        'remit import 匯款記錄.xlsx',
        'remit import 台中店.xls --store TXG --as txg_manager',
        'remit import 匯款記錄.xlsx --dry-run --json',
      ),
    )
    .action(async (file: string, opts: ImportOpts, cmd: Command) => {
      if (!['.xlsx', '.xls', '.csv'].includes(extname(file).toLowerCase()))
        throw new DataError(MSG.importNotImportFile);
      assertReadableFile(file);
      const code = await withOperator(io, cmd.optsWithGlobals(), async (operator) => {
        const ctx = opts.as ? { ...operator, actor: await principalByUsername(operator.db, opts.as) } : operator;
        const [fallback] = opts.store ? await storeIdsFromFlag(ctx, [opts.store]) : [];
        // On a terminal: rows read and rows written, on one line overwritten as the file goes in.
        const progress = !opts.json && process.stderr.isTTY ? importProgress(process.stderr) : null;
        let r: ImportFileReport;
        try {
          r = await importPaymentFile(ctx, file, {
            fallbackStoreId: fallback,
            allowDuplicates: opts.allowDuplicates,
            dryRun: opts.dryRun,
            previewRows: 0, // the terminal shows counts and errors, not rows
            onProgress: progress?.update,
          });
        } finally {
          progress?.done();
        }
        const report = {
          file,
          sheet: r.sheetName,
          rows: r.rows,
          valid: r.valid,
          errors: r.errors,
          error_count: r.errorCount,
          skipped_rows: r.skippedRows,
          skipped_row_count: r.skippedRowCount,
        };
        /** The one shape of `--json`, whatever happened (documented in docs/command-line.md). */
        const json = (x: { imported: number; would_import: number; skipped: number; duplicates: number[] }) =>
          io.stdout(`${JSON.stringify({ ...report, dry_run: Boolean(opts.dryRun), ...x }, null, 2)}\n`);

        if (r.errorCount) {
          if (opts.json) json({ imported: 0, would_import: 0, skipped: 0, duplicates: [] });
          else printPreview(io, { ...report, format: r.format });
          io.stderr(`${IMPORT.failedSummary(MSG.importFailed, r.errorCount)}\n`);
          return EXIT.failure;
        }
        if (opts.json) {
          json({
            imported: opts.dryRun ? 0 : r.imported,
            would_import: r.imported,
            skipped: r.skipped,
            duplicates: r.duplicates,
          });
          return EXIT.ok;
        }
        printPreview(io, { ...report, format: r.format });
        if (r.skipped)
          io.stdout(`${IMPORT.skipped(r.skipped, r.duplicates.slice(0, 10).join('、'), r.duplicates.length > 10)}\n`);
        io.stdout(`${opts.dryRun ? IMPORT.dryRun(r.imported) : MSG.importSuccess(r.imported)}\n`);
        return EXIT.ok;
      });
      process.exitCode = code;
    });
}

function printPreview(
  io: CliIO,
  r: {
    file: string;
    format: string;
    sheet: string;
    rows: number;
    valid: number;
    errors: string[];
    error_count: number;
    skipped_rows: Array<{ reason: string }>;
    skipped_row_count: number;
  },
): void {
  io.stdout(
    `${IMPORT.file(r.file, r.format === 'csv' ? IMPORT.csv : IMPORT.sheet(r.sheet))}\n${IMPORT.counts(r.rows, r.valid)}\n`,
  );
  if (r.error_count) {
    const { first } = previewErrors(r.errors);
    io.stdout(`${IMPORT.errors}\n${first.map((e) => `  ${e}\n`).join('')}`);
    if (r.error_count > first.length) io.stdout(`  ${IMPORT.moreErrors(r.error_count - first.length)}\n`);
  }
  for (const s of r.skipped_rows.slice(0, 5)) io.stdout(`  ${s.reason}\n`);
  if (r.skipped_row_count > 5) io.stdout(`  ${IMPORT.moreSkippedRows(r.skipped_row_count - 5)}\n`);
}
