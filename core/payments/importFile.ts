/** Import of a file on disk, streamed; one transaction, so a bad row anywhere (row 900 000 too) writes nothing. */
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
  /** the store of an empty store cell (default: the caller's own) */
  fallbackStoreId?: number | null;
  previewRows?: number;
  onProgress?: (read: number, written: number) => void;
}

export interface ImportFileReport extends ImportResult {
  format: ImportFormat;
  sheetName: string;
  rows: number;
  /** before the duplicate check against the database */
  valid: number;
  /** the first IMPORT_LISTED; any error means nothing was written */
  errors: string[];
  problems: Problem[];
  /** all of them */
  errorCount: number;
  /** the first IMPORT_LISTED: no business date, or a repeat of an earlier row */
  skippedRows: Array<{ row: number; reason: string; duplicateOf?: number }>;
  skippedRowCount: number;
  preview: PreviewRow[];
}

/** Thrown to roll the transaction back; the report says why. */
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
      // `skipped` counts the rows already stored; `duplicate_of` names every repeat's original
      return Object.assign(tally.report, written, { duplicate_of: [...tally.repeats, ...written.duplicate_of] });
    });
  } catch (err) {
    if (err instanceof RowsRefused) return tally.report;
    throw err;
  }
}

/** Writes valid rows in batches while no row is wrong; after one, reads on to name every error. */
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

/** A file's report as its rows are read: whole counts, but only the first IMPORT_LISTED named, so memory stays flat. */
class ReportTally {
  readonly report: ImportFileReport;
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

  /** Counts one row; answers its payment if valid while no row is wrong. */
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

/** Checked before an upload is stored: only those who may import send a file to disk. */
export function requireImportPermission(ctx: ServiceContext): void {
  requirePermission(ctx.actor, 'manage_payments');
}

/** The API's refusal: the first 100 row errors, then how many more. */
export function refusalOf(report: ImportFileReport, shown = 100): ValidationError {
  const list = report.problems.slice(0, shown).map((p) => fieldErrorOf('file', p));
  if (report.errorCount > shown)
    list.push(fieldError('file', 'import_more_errors', { count: report.errorCount - shown }));
  return new ValidationError(list);
}
