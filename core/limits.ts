// The limits the rules enforce and the messages state: a leaf module, so both read the same numbers.
export const LAST_FIVE_LENGTH = 5;
export const NOTE_MAX_LENGTH = 1000;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
/** bcrypt reads at most 72 bytes; a longer password would be silently cut. */
export const PASSWORD_MAX_BYTES = 72;
export const STORE_NAME_MAX = 50;
export const STORE_CODE_MAX = 20;
export const MAX_BATCH_DELETE = 10_000;
/** rows of one import through the API or the back office */
export const MAX_IMPORT_ROWS = 100_000;
/** a spreadsheet read whole: MAX_IMPORT_ROWS rows, about 10 MB as SheetJS writes them, must fit */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;
/** A to BL: a statement has about 10, the import sheet 9 */
export const MAX_SHEET_COLUMNS = 64;
/** rows of one streamed import of a file (the CLI, the upload) */
export const MAX_STREAM_IMPORT_ROWS = 1_048_576;
/** in characters, as is CASH_CATEGORY_MAX */
export const METHOD_DETAIL_MAX = 30;
export const CASH_CATEGORY_MAX = 30;
/** whole NT$ */
export const MAX_COUNTED_CASH = 100_000_000;
/** days of one board of closes or one day book */
export const DAYBOOK_MAX_DAYS = 366;
/** days automatic backups stay: 14 unless the 備份 page, `remit backups --keep-days` or REMIT_BACKUP_KEEP_DAYS say */
export const DEFAULT_KEEP_DAYS = 14;
export const KEEP_DAYS = { min: 1, max: 3650 } as const;
/** the word a restore is confirmed with: typed, not clicked */
export const RESTORE_WORD = '還原';
/** the 備份 page's upload: a gzip of a small chain's database, with room to spare */
export const MAX_BACKUP_UPLOAD_BYTES = 1024 * 1024 * 1024;
