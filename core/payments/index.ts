/** The payments service: reading (list), writing (write), bulk import (import) and export files (export). */
export * from './list.js';
export * from './write.js';
export * from './import.js';
export * from './importFile.js';
export * from './export.js';
