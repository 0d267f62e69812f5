/** The spreadsheet layout shared by import, export and the sample (spec sections 3 and 9). */
export { HEADERS, SAMPLE_FILE_NAME, SHEET_NAME } from './columns.js';
export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../limits.js';
/** Above this the back office's in-browser wizard refuses before parsing and points to `remit import`, which streams. */
export const BROWSER_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
