/**
 * The spreadsheet reader the import dialog loads on demand (its own chunk, with the spreadsheet
 * library): bytes in, judged rows out, no file system. Like core/browser.ts, it reaches no Node
 * module (test/entry-points.test.ts).
 */
export { parsePaymentsWorkbook } from './payments/readSheet.js';
