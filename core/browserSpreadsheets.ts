// The import dialog's reader, loaded on demand as its own chunk; like browser.ts, it reaches no Node module.
export { parsePaymentsWorkbook } from './payments/readSheet.js';
