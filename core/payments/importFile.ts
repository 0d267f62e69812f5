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

type PaymentsSource = Awaited<ReturnType<typeof openPaymentsFile>>;
type SourceRow = PaymentsSource['batches'] extends () => AsyncGenerator<Array<infer R>> ? R : never;

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
  const tally = new ReportTally(source);
  try {
    return await importTransaction(ctx, opts.dryRun, async (trx) => {
      const writer = new ImportWriter(trx, ctx, {
        allowDuplicates: opts.allowDuplicates,
        dryRun: opts.dryRun,
        listed: IMPORT_LISTED,
      });
      await writer.begin();
      await readAndWrite(source, tally, writer, opts);
      tally.error(writer.errors);
      if (tally.report.errorCount) throw new RowsRefused();
      const written = await writer.finish();
      // `skipped` counts the rows already stored; `duplicate_of` names, for every repeat, what it repeats.
      return Object.assign(tally.report, written, { duplicate_of: [...tally.repeats, ...written.duplicate_of] });
    });
  } catch (err) {
    if (err instanceof RowsRefused) return tally.report;
    throw err;
  }
}

/**
 * Reads every row of the file into the report, and writes the valid ones in batches as long as
 * no row is wrong; the rest is still read then, to name every error.
 */
async function readAndWrite(
  source: PaymentsSource,
  tally: ReportTally,
  writer: ImportWriter,
  opts: ImportFileOptions,
): Promise<void> {
  const report = tally.report;
  const previewLimit = opts.previewRows ?? 100;
  let pending: ImportCandidate[] = [];
  const flush = async () => {
    if (!report.errorCount && !writer.errors.length) await writer.add(pending);
    pending = [];
    opts.onProgress?.(report.rows, writer.imported);
  };
  for await (const batch of source.batches()) {
    for (const r of batch) {
      const candidate = tally.row(r, previewLimit);
      if (candidate) pending.push(candidate);
    }
    if (pending.length >= IMPORT_BATCH || report.errorCount) await flush();
  }
  await flush();
}

/**
 * A file's report as its rows are read. Counts are whole; the rows named are the first
 * IMPORT_LISTED of each kind, so memory stays flat.
 */
class ReportTally {
  readonly report: ImportFileReport;
  /** each repeat of an earlier row of the file, named */
  readonly repeats: ImportResult['duplicate_of'] = [];

  constructor(source: PaymentsSource) {
    this.report = {
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
  }

  /** One row read: into the preview and the counts; answers its payment if valid while no row is wrong. */
  row(r: SourceRow, previewLimit: number): ImportCandidate | undefined {
    const report = this.report;
    const o = r.outcome;
    report.rows++;
    if (report.preview.length < previewLimit) report.preview.push(previewOf(r.row, r.display(), o));
    if (o.state === 'error') this.error(o.problems);
    else if (o.state === 'skipped') this.skip({ row: r.row, reason: o.reason });
    else if (o.state === 'duplicate') this.skip({ row: r.row, reason: o.reason, duplicateOf: o.duplicateOf });
    else {
      report.valid++;
      const { row, ...p } = o.payment;
      if (!report.errorCount) return { label: row, ...p };
    }
    return undefined;
  }

  error(problems: readonly Problem[]): void {
    for (const p of problems) {
      if (this.report.errorCount++ >= IMPORT_LISTED) continue;
      this.report.errors.push(p.message);
      this.report.problems.push(p);
    }
  }

  private skip(s: ImportFileReport['skippedRows'][number]): void {
    if (this.report.skippedRowCount++ >= IMPORT_LISTED) return;
    this.report.skippedRows.push(s);
    if (s.duplicateOf !== undefined) this.repeats.push({ row: s.row, earlier_row: s.duplicateOf });
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
