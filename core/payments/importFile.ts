/**
 * Import of a file on disk, read as a stream: `remit import` and the API's
 * upload both call importPaymentFile. Rows are read and judged in batches (importSource.ts), checked
 * for duplicates and inserted in batches by the one ImportWriter, all inside one transaction: a
 * bad row anywhere (row 900 000 too) writes nothing, and the report names it.
 */
import { fieldError, fieldErrorOf, ValidationError, type Problem } from '../errors.js';
import { openPaymentsFile, type ImportFormat, type SourceOptions } from './importSource.js';
import { previewOf, type PreviewRow } from './readSheet.js';
import type { ServiceContext } from '../context.js';
import { requirePermission } from '../guard.js';
import { storeDirectory } from '../stores/service.js';
import {
  IMPORT_BATCH,
  IMPORT_LISTED,
  importTransaction,
  ImportWriter,
  type ImportCandidate,
  type ImportOptions,
  type ImportResult,
} from './import.js';

interface ImportFileOptions
  extends Omit<ImportOptions, 'onProgress'>,
    Pick<SourceOptions, 'name' | 'maxRows' | 'maxBytes'> {
  /** the store an empty store cell falls back to (default: the caller's own) */
  fallbackStoreId?: number | null;
  /** how many rows the preview keeps (default 100) */
  previewRows?: number;
  /** told, after each batch, how many data rows were read and how many written */
  onProgress?: (read: number, written: number) => void;
}

export interface ImportFileReport extends ImportResult {
  format: ImportFormat;
  sheetName: string;
  /** data rows read (not counting empty ones) */
  rows: number;
  /** rows that would be written before the duplicate check against the database */
  valid: number;
  /** `第 N 行：…` for the invalid rows (the first IMPORT_LISTED); any error means nothing was written */
  errors: string[];
  /** the same errors by code, each with its row in `details.row` */
  problems: Problem[];
  /** how many errors the file has, all of them */
  errorCount: number;
  /** rows skipped while reading (the first IMPORT_LISTED): no business date, or a repeat of an earlier row of the file */
  skippedRows: Array<{ row: number; reason: string; duplicateOf?: number }>;
  /** how many rows were skipped while reading, all of them */
  skippedRowCount: number;
  /** the first rows as the sheet shows them */
  preview: PreviewRow[];
}

/** A file that failed its row checks: the report says why; the transaction is rolled back. */
class RowsRefused extends Error {}

export async function importPaymentFile(
  ctx: ServiceContext,
  path: string,
  opts: ImportFileOptions = {},
): Promise<ImportFileReport> {
  requirePermission(ctx.actor, 'manage_payments');
  const stores = await storeDirectory(ctx);
  const source = await openPaymentsFile(path, {
    stores,
    userStoreId: opts.fallbackStoreId ?? ctx.actor.store_id,
    allowDuplicates: opts.allowDuplicates,
    name: opts.name,
    maxRows: opts.maxRows,
    maxBytes: opts.maxBytes,
  });
  const report: ImportFileReport = {
    format: source.format,
    sheetName: source.sheetName,
    rows: 0,
    valid: 0,
    errors: [],
    problems: [],
    errorCount: 0,
    skippedRows: [],
    skippedRowCount: 0,
    preview: [],
    imported: 0,
    skipped: 0,
    duplicates: [],
    duplicate_of: [],
  };
  const previewLimit = opts.previewRows ?? 100;
  const repeats: ImportResult['duplicate_of'] = [];
  try {
    return await importTransaction(ctx, opts.dryRun, async (trx) => {
      const writer = new ImportWriter(trx, ctx, {
        allowDuplicates: opts.allowDuplicates,
        dryRun: opts.dryRun,
        listed: IMPORT_LISTED,
      });
      await writer.begin();
      // Counts are whole; the rows named are the first IMPORT_LISTED of each kind, so memory stays flat.
      const error = (problems: readonly Problem[]) => {
        for (const p of problems) {
          if (report.errorCount++ >= IMPORT_LISTED) continue;
          report.errors.push(p.message);
          report.problems.push(p);
        }
      };
      const skip = (s: { row: number; reason: string; duplicateOf?: number }) => {
        if (report.skippedRowCount++ >= IMPORT_LISTED) return;
        report.skippedRows.push(s);
        if (s.duplicateOf !== undefined) repeats.push({ row: s.row, earlier_row: s.duplicateOf });
      };
      let pending: ImportCandidate[] = [];
      const flush = async () => {
        // Once a row is wrong nothing more is written; the rest is still read, to name every error.
        if (!report.errorCount && !writer.errors.length) await writer.add(pending);
        pending = [];
        opts.onProgress?.(report.rows, writer.imported);
      };
      for await (const batch of source.batches()) {
        for (const r of batch) {
          report.rows++;
          const o = r.outcome;
          if (report.preview.length < previewLimit) report.preview.push(previewOf(r.row, r.display(), o));
          if (o.state === 'error') error(o.problems);
          else if (o.state === 'skipped') skip({ row: r.row, reason: o.reason });
          else if (o.state === 'duplicate') skip({ row: r.row, reason: o.reason, duplicateOf: o.duplicateOf });
          else {
            report.valid++;
            if (!report.errorCount) {
              const { row, ...p } = o.payment;
              pending.push({ label: row, ...p });
            }
          }
        }
        if (pending.length >= IMPORT_BATCH || report.errorCount) await flush();
      }
      await flush();
      error(writer.errors);
      if (report.errorCount) throw new RowsRefused();
      const written = await writer.finish();
      // `skipped` counts the rows already stored; `duplicate_of` names, for every repeat, what it repeats.
      Object.assign(report, written, { duplicate_of: [...repeats, ...written.duplicate_of] });
      return report;
    });
  } catch (err) {
    if (err instanceof RowsRefused) return report;
    throw err;
  }
}

/** Checked before an upload is even stored: only those who may import send a file to disk. */
export function requireImportPermission(ctx: ServiceContext): void {
  requirePermission(ctx.actor, 'manage_payments');
}

/** A report's refusal as the API answers it: the first 100 row errors in file order, then how many more. */
export function refusalOf(report: ImportFileReport, shown = 100): ValidationError {
  const list = report.problems.slice(0, shown).map((p) => fieldErrorOf('file', p));
  if (report.errorCount > shown)
    list.push(fieldError('file', 'import_more_errors', { count: report.errorCount - shown }));
  return new ValidationError(list);
}
