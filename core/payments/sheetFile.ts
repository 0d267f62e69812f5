/**
 * The spreadsheet layout shared by import, export and the sample (spec sections 3 and 9): the
 * columns themselves are listed once in core/payments/columns.ts; the import's limits are here.
 */
export { HEADERS, SAMPLE_FILE_NAME, SHEET_NAME } from './columns.js';
export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../limits.js';
/**
 * The back office's wizard reads the whole file in the browser: above this it says so before
 * parsing and points to `remit import`, which streams files up to Excel's 1 048 576 rows.
 */
export const BROWSER_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
