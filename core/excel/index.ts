export * from './columns.js';
export * from './serial.js';
export * from './parse.js';
export * from './write.js';
export * from './csv.js';
