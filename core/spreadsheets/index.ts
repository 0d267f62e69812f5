/** One reader of tabular files for the whole product: sniffing, decoding, the CSV grammar, cells, dates and amounts. */
export * from './sniff.js';
export * from './decode.js';
export * from './csv.js';
export * from './cells.js';
export * from './dates.js';
export * from './amounts.js';
