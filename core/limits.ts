/**
 * The limits the rules enforce and the messages state, each written once. A leaf module (it
 * imports nothing), so core/messages.ts can put the numbers into its sentences and the rules can
 * check against the same constants; the modules that own each rule re-export them.
 */
export const LAST_FIVE_LENGTH = 5;
export const NOTE_MAX_LENGTH = 1000;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
/** bcrypt reads at most 72 bytes; a longer password would be silently cut. */
export const PASSWORD_MAX_BYTES = 72;
export const STORE_NAME_MAX = 50;
export const STORE_CODE_MAX = 20;
/** payments deleted by one batch request */
export const MAX_BATCH_DELETE = 10_000;
/** rows of one import through the API or the back office */
export const MAX_IMPORT_ROWS = 100_000;
/**
 * bytes of one spreadsheet read whole (an import in the browser or through the API, a bank
 * statement): 100 000 rows as SheetJS writes them (our own export included) take about 10 MB, so
 * the limit leaves room above that: a file of the maximum row count must import.
 */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;
/** columns a sheet to read may declare or fill (A to BL): a statement has about 10, the import sheet 9 */
export const MAX_SHEET_COLUMNS = 64;
/** rows of one streamed import of a file (.xlsx or CSV; the CLI and the upload) */
export const MAX_STREAM_IMPORT_ROWS = 1_048_576;
/** the sub-type of an e-payment (LINE Pay, 街口支付, 全支付 …), in characters */
export const METHOD_DETAIL_MAX = 30;
/** a 店內支出's category (雜支, 文具用品 …), in characters */
export const CASH_CATEGORY_MAX = 30;
/** the counted or opening cash of a close, whole NT$ */
export const MAX_COUNTED_CASH = 100_000_000;
/** days of one board of closes or one day book */
export const DAYBOOK_MAX_DAYS = 366;
