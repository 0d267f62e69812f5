// Domain errors: a stable `code` and the `details` its sentence is made from (messages.ts), no transport
// detail. The edges map them to a status or an exit code, reading the code, never the text.
import { errorMessage } from './messages.js';

export interface ErrorPlace {
  /** the sheet row (the header is row 1): the message starts 第 N 行： */
  row?: number;
  /** the place in a JSON list of rows that named none (1-based): the message starts 第 N 筆： */
  item?: number;
  /** the file a bank statement came from: the message starts with its name */
  file?: string;
}

type None = Record<never, never>;
/** a payment other than a transfer says 時間 and 金額, not 匯款時間 and 匯款金額 */
type Worded = { method?: string };

/** Every error a user can cause, with its details. Clients branch on the codes, so they stay; texts may change. */
export interface ErrorDetailsByCode {
  // generic
  validation_failed: None;
  unauthenticated: None;
  token_invalid: None;
  forbidden: None;
  permission_required: { permission: string; label: string };
  body_not_object: None;
  bad_list_param: { param: string };
  bad_sort_field: { field: string };
  bad_filter_field: { field: string };
  bad_date: { value: string };
  date_out_of_range: { value: string };
  date_range_reversed: { from: string; to: string };
  server_busy: None;
  // payments
  last_five_required: None;
  last_five_format: { length: number };
  paid_at_required: Worded;
  paid_at_invalid: None;
  paid_at_out_of_range: Worded;
  paid_at_too_far_ahead: Worded;
  amount_required: Worded;
  amount_numeric: Worded;
  amount_min: { limit: number } & Worded;
  amount_integer: Worded;
  amount_max: { limit: number } & Worded;
  store_required: None;
  store_invalid: None;
  store_not_found: None;
  note_type: None;
  note_too_long: { limit: number };
  status_invalid: None;
  method_invalid: None;
  last_five_not_needed: { method: string };
  method_detail_not_epay: None;
  method_detail_type: None;
  method_detail_too_long: { limit: number };
  method_detail_chars: None;
  employee_invalid: None;
  method_change_linked: None;
  payment_read_only_field: None;
  payment_not_found: None;
  payment_store_forbidden: None;
  store_out_of_scope: None;
  possible_duplicate: { duplicate_of: string };
  uuids_required: None;
  uuids_too_many: { limit: number };
  link_reports_window_required: None;
  link_reports_too_many: { limit: number };
  chart_range_too_long: { limit: number };
  // sign-in and accounts
  login_username_required: None;
  login_password_required: None;
  login_failed: None;
  account_inactive: None;
  too_many_login_failures: { minutes: number };
  too_many_password_failures: { minutes: number };
  username_min: { limit: number };
  username_max: { limit: number };
  username_pattern: None;
  username_immutable: None;
  username_taken: None;
  password_required: None;
  password_min: { limit: number };
  password_max: { limit: number };
  password_mismatch: None;
  password_weak: { reason: 'username' | 'repetitive' | 'common' };
  admin_password_weak: { reason: 'username' | 'repetitive' | 'common' };
  current_password_required: None;
  current_password_wrong: None;
  new_password_required: None;
  new_password_min: { limit: number };
  new_password_mismatch: None;
  role_required: None;
  permissions_invalid: { values: string[]; valid: string[] };
  stores_invalid: None;
  is_active_invalid: None;
  user_not_found: { username?: string };
  cannot_delete_self: None;
  cannot_delete_admin: None;
  cannot_deactivate_self: None;
  cannot_deactivate_admin: None;
  cannot_create_admin: None;
  cannot_edit_admin: None;
  cannot_manage_stronger: None;
  cannot_grant: { permissions: string[]; labels: string[] };
  cannot_assign_store: None;
  cannot_make_headquarters: None;
  branch_own_store_only: None;
  last_admin: None;
  cannot_change_others_password: None;
  // stores
  store_name_required: None;
  store_name_too_long: { limit: number };
  store_code_required: None;
  store_code_pattern: { limit: number };
  store_code_taken: None;
  store_in_use: None;
  store_code_not_found: { code: string };
  // a store's public link
  link_inactive: None;
  /** too many reports sent from one address or through one link */
  public_too_many: { seconds: number };
  /** too many public reads from one address */
  public_busy: { seconds: number };
  public_possible_duplicate: None;
  public_report_not_found: None;
  client_key_invalid: None;
  /** a report attempt's key sent again with other fields */
  client_key_reused: None;
  // import (spreadsheets and JSON rows)
  import_empty: None;
  import_too_many: { limit: number };
  import_last_five: { length: number };
  import_last_five_lost_zero: { value: string };
  import_method: { value: string };
  import_paid_at_required: None;
  /** a date or time cell that is no date: 無效的日期格式 */
  import_date_invalid: { column: string; value: string };
  /** a number cell that is no serial date Excel can show: 日期格式錯誤 */
  import_date_wrong: { column: string; value: string };
  import_amount_positive: None;
  import_store_not_found: { value: string };
  import_bad_data: None;
  import_no_business_date: None;
  import_duplicate_in_file: { earlier_row: number };
  import_file_too_large: { limit_mb: number };
  import_too_many_rows: { limit: number };
  import_too_many_columns: { range: string; limit: number };
  import_zip_bomb: None;
  import_not_spreadsheet: None;
  import_no_sheet: None;
  import_missing_header: { columns: string[] };
  import_no_rows: None;
  import_xls_too_large: { limit_mb: number; limit_rows: number };
  import_too_many_texts: None;
  import_not_import_file: None;
  import_parse_failed: None;
  import_read_failed: None;
  /** the last line of a long list of row errors: how many more there are */
  import_more_errors: { count: number };
  // export
  export_no_data: None;
  export_union_is_all: None;
  export_is_all: None;
  export_too_often: { limit: number };
  // bank statements and reconciliation
  statement_empty: None;
  statement_not_supported: None;
  statement_no_header: { rows: number };
  statement_no_lines: None;
  statement_bad_date: { value: string };
  statement_bad_time: { value: string };
  statement_bad_amount: { column: string; value: string };
  statement_both_sides: None;
  reconcile_store_required: None;
  reconcile_account_too_long: { limit: number };
  reconcile_account_bad: None;
  reconcile_account_differs: { in_file: string; given: string };
  reconcile_payer_not_found: { id: string };
  reconcile_line_not_found: { id: string };
  reconcile_line_not_credit: { id: number };
  reconcile_amount_differs: { id: number };
  reconcile_other_store: { id: number };
  reconcile_shared_line: { id: number };
  reconcile_payment_linked: None;
  reconcile_not_transfer: { method: string };
  reconcile_line_linked: { id: number };
  reconcile_line_taken: None;
  reconcile_not_linked: None;
  reconcile_concurrent: None;
  reconcile_pairs_required: None;
  reconcile_payments_required: None;
  reconcile_too_many: { limit: number };
  reconcile_range_required: None;
  reconcile_busy: None;
  reconcile_period_too_long: { from: string; to: string; days: number; limit: number };
  reconcile_bad_page: { param: string; limit: number };
  reconcile_statement_not_found: { id: string };
  reconcile_file_name_required: None;
  // cash out and the daily close (日結)
  cash_out_kind_invalid: None;
  cash_category_required: None;
  cash_category_too_long: { limit: number };
  cash_amount_required: None;
  cash_amount_invalid: { limit: number };
  cash_at_too_far_ahead: None;
  cash_out_not_found: None;
  close_date_required: None;
  close_date_future: { date: string };
  close_counted_required: None;
  close_cash_invalid: { limit: number };
  close_denominations_invalid: None;
  close_denominations_mismatch: { total: number; counted: number };
  close_opening_required: None;
  close_opening_differs: { from: string; counted: number; opening: number };
  close_range_too_long: { limit: number };
  day_already_closed: { store: string; date: string; by: string; at: string };
  day_not_closed: { store: string; date: string };
  day_closed_locked: { store: string; date: string };
  // backups (the 備份 page, remit backup / restore)
  file_exists: { path: string };
  backup_dir_missing: { path: string };
  backup_not_found: { path: string };
  database_dir_missing: { path: string };
  database_in_use: None;
  backup_not_sqlite: { path: string };
  backup_unreadable: { reason: string };
  backup_integrity: { problems: string[] };
  backup_not_remit: { tables: string[] };
  backup_newer: { migrations: string[] };
  backup_not_backup: { path: string };
  backup_format_newer: { version: number };
  backup_header_invalid: None;
  backup_truncated: None;
  backup_damaged: None;
  backup_checksum: None;
  backup_tampered: None;
  backup_too_large: { limit_mb: number };
  backup_odd_schema: { tables: string[] };
  backup_bad_rows: { table: string; column: string | null; reason: string };
  backup_disk_full: { path: string; need_mb: number; free_mb: number };
  backup_name_invalid: { name: string };
  backup_file_not_found: { name: string };
  backup_keep_days_invalid: { min: number; max: number };
  backup_keep_days_from_env: { days: number };
  backups_not_configured: None;
  backup_all_stores_required: None;
  restore_confirm_required: { word: string };
  restore_in_progress: None;
  // what the HTTP edge refuses before any service runs (http/), and its last resort
  not_found_route: None;
  method_not_allowed: None;
  bad_request: None;
  malformed_json: None;
  body_too_large: None;
  json_too_deep: { limit: number };
  unsupported_media_type: None;
  unsupported_file_type: None;
  nul_character: None;
  cross_site_refused: None;
  database_busy: None;
  internal_error: None;
}

export type ErrorCode = keyof ErrorDetailsByCode;

/** With `Remit-Error-Codes: 1`, every error answer carries `code` and `details` beside `message`. */
export const ERROR_CODES_HEADER = 'Remit-Error-Codes';
export type ErrorDetails<C extends ErrorCode = ErrorCode> = ErrorDetailsByCode[C] & ErrorPlace;
/** the details argument: optional when the code needs none */
export type DetailsArg<C extends ErrorCode> = None extends ErrorDetailsByCode[C]
  ? [details?: ErrorDetails<C>]
  : [details: ErrorDetails<C>];

/** The pure rules return these; the services throw them inside errors. */
export interface Problem<C extends ErrorCode = ErrorCode> {
  readonly code: C;
  readonly details: ErrorDetails<C>;
  readonly message: string;
}

export function problem<C extends ErrorCode>(code: C, ...[details]: DetailsArg<C>): Problem<C> {
  const d = (details ?? {}) as ErrorDetails<C>;
  return { code, details: d, message: errorMessage(code, d) };
}

/** The same problem said at a place (a row, a file): its sentence is made again with the place first. */
export function placed<C extends ErrorCode>(p: Problem<C>, place: ErrorPlace): Problem<C> {
  const details = { ...p.details, ...place } as ErrorDetails<C>;
  return { code: p.code, details, message: errorMessage(p.code, details) };
}

/** `code` and `details` are not enumerable: a field error prints, compares and serialises as `{field, message}`. */
export interface FieldError {
  field: string;
  message: string;
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
}

export function fieldError<C extends ErrorCode>(field: string, code: C, ...details: DetailsArg<C>): FieldError {
  return fieldErrorOf(field, problem(code, ...details));
}

export function fieldErrorOf(field: string, p: Problem): FieldError {
  const e = { field, message: p.message } as FieldError;
  Object.defineProperty(e, 'code', { value: p.code, enumerable: false });
  Object.defineProperty(e, 'details', { value: p.details, enumerable: false });
  return e;
}

type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many_requests'
  | 'busy';

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  protected constructor(p: Problem, message = p.message) {
    super(message);
    this.code = p.code;
    this.details = p.details;
  }
}

export class ValidationError extends DomainError {
  readonly kind = 'validation' as const;
  readonly errors: FieldError[];
  /** Says 驗證錯誤 and lists `errors`, unless `overall` names one problem for the whole (a statement file's). */
  constructor(errors: FieldError[], overall: Problem = problem('validation_failed')) {
    super(overall);
    this.errors = errors;
    this.name = 'ValidationError';
  }
  static single<C extends ErrorCode>(field: string, code: C, ...details: DetailsArg<C>): ValidationError {
    return new ValidationError([fieldError(field, code, ...details)]);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated' as const;
  constructor(p: Problem = problem('unauthenticated')) {
    super(p);
    this.name = 'UnauthenticatedError';
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const;
  constructor(p: Problem = problem('forbidden')) {
    super(p);
    this.name = 'ForbiddenError';
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found' as const;
  constructor(p: Problem) {
    super(p);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const;
  /** `field`: the form field the conflict is about (a taken username), when there is one */
  constructor(
    p: Problem,
    readonly field?: string,
  ) {
    super(p);
    this.name = 'ConflictError';
  }
}

/** Too many attempts (failed sign-ins): try again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  readonly kind = 'too_many_requests' as const;
  constructor(
    readonly retryAfterSeconds: number,
    p: Problem = problem('too_many_login_failures', { minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) }),
  ) {
    super(p);
    this.name = 'TooManyRequestsError';
  }
}

/** The server is busy (the password-hashing queue is full): try again after `retryAfterSeconds`. */
export class BusyError extends DomainError {
  readonly kind = 'busy' as const;
  constructor(
    readonly retryAfterSeconds: number,
    p: Problem = problem('server_busy'),
  ) {
    super(p);
    this.name = 'BusyError';
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
