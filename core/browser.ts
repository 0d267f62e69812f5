// admin/ imports core only through this file: nothing here reaches a Node module (test/entry-points.test.ts).
export { auditActorText, auditFieldRows, auditSummaryText } from './audit/text.js';
export type { AuditStoreLookup } from './audit/text.js';
export type { BackupOverview, RestoreResult, TakenBackup } from './backups/service.js';
export type { BackupInfo } from './backups/open.js';
export {
  QUICK_RANGES,
  canStepForward,
  dateRangeError,
  dateRangeText,
  quickDateRange,
  stepDateRange,
  withSearch,
} from './dateRange.js';
export { ERROR_CODES_HEADER, ValidationError } from './errors.js';
export type { ErrorCode, ErrorDetails, Problem } from './errors.js';
export { BROWSER_IMPORT_MAX_BYTES, HEADERS } from './payments/sheetFile.js';
export type { ImportRow, ParseResult, PreviewRow } from './payments/readSheet.js';
export {
  AUDIT_ACTION_LABELS,
  BACKUP_REASON_LABELS,
  AUDIT_FIELD_LABELS,
  PAYER_FIELD_LABELS,
  PAYMENT_FIELD_LABELS,
  PAYMENT_LIST_LABELS,
  ROLE_LABELS,
  STATEMENT_COLUMN_LABELS,
  STATS_FIELD_LABELS,
  STATUS_LABELS,
  STORE_FIELD_LABELS,
  USER_FIELD_LABELS,
  auditActionLabel,
  auditEntityLabel,
  fileSizeText,
  statementEncodingLabel,
  storeLabel,
} from './labels.js';
export {
  KEEP_DAYS,
  MAX_BACKUP_UPLOAD_BYTES,
  MAX_IMPORT_ROWS,
  MAX_STREAM_IMPORT_ROWS,
  RESTORE_WORD,
  STORE_CODE_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
} from './limits.js';
export { MSG, PAYMENT_WORDS, errorText, isErrorCode, listWords, paymentTexts, paymentWords } from './messages.js';
export { formatNTD } from './money.js';
export {
  CLIENT_KEY_BYTES,
  HONEYPOT_FIELD,
  PUBLIC_PAGE_PREFIX,
  isClientKey,
  isLinkToken,
  isTrackingNumber,
  unreachableFromOutside,
} from './links/rules.js';
export type { PublicStatus, StoreLink } from './links/rules.js';
export type { LinkFlood } from './links/floods.js';
export { SOURCES, SOURCE_LABELS } from './paymentSources.js';
export type { PaymentSource } from './paymentSources.js';
export {
  PERMISSIONS,
  PERMISSION_KEYS,
  ROLES,
  activeLabel,
  can,
  canAccess,
  canChangePasswordOf,
  canSwitchStores,
  deleteUserDenial,
  editUserDenial,
  effectivePermissions,
  gates,
  initialTab,
  isAdmin,
  isBranchUser,
  mayAssignStore,
  mayGrantPermission,
  mayGrantRole,
  mayLeaveWithoutHomeStore,
  permissionLabels,
  scopeIsEmpty,
  storeAccessLabel,
  storeChangeDenial,
  storeScope,
  storesInScope,
  submissionStoreId,
  toggleActiveDenial,
} from './permissions.js';
export type { Permission, Role } from './permissions.js';
export { MAX_ACCOUNT_LENGTH } from './reconcile/account.js';
export { compareDigits } from './reconcile/evidence.js';
export { statementPeriod } from './reconcile/period.js';
export { EMPTY_REASON_TEXT, type EmptyReason } from './reconcile/empty.js';
export { lastFiveShown, mayMakePaymentOf } from './reconcile/credit.js';
export type { BankLine, ImportedStatement, Proposals, ReconciledPayment, RememberedPayer } from './reconcile/types.js';
export type { ImportResult } from './payments/import.js';
export type { StatsCharts } from './stats/rules.js';
export {
  STATUSES,
  STATUS_COLORS,
  STATUS_CREDITED,
  STATUS_FAILED,
  STATUS_PENDING,
  statusChangeable,
} from './paymentStatuses.js';
export type { PaymentStatus } from './paymentStatuses.js';
export {
  EPAY_KINDS,
  METHOD_CASH,
  METHOD_DETAIL_MAX,
  METHOD_EPAY,
  METHOD_TRANSFER,
  PAYMENT_METHODS,
  hasMethodDetail,
  initialStatus,
  methodText,
  needsLastFive,
} from './paymentMethods.js';
export type { PaymentMethod } from './paymentMethods.js';
export { addDays, defaultDateRange, formatTaipei, parseInstant, taipeiDate, taipeiInputValue } from './time.js';
export {
  MENU_COOKIE,
  PAYMENTS_PER_PAGE,
  PAYMENTS_SORT,
  PAYMENTS_TABLE_STACK_TIMES_BELOW,
  STORES_PARAMS,
  paymentsFilterDefaults,
} from './listDefaults.js';
export type { AuditEntry, ListedPayment, Me, Payment, StatsSummary, Store, StoreStats, User } from './types.js';
export { validateLogin } from './users/login.js';
export {
  NOTE_MAX_LENGTH,
  checkLastFive,
  paidAtNeedsConfirm,
  validateMethod,
  validatePayment,
} from './payments/validate.js';
export type { Validated } from './validation.js';
export { validateStore } from './stores/validate.js';
export { validatePasswordChange, validateUser } from './users/validate.js';
export {
  CASH_OUT_KINDS,
  DENOMINATIONS,
  EXPENSE_CATEGORIES,
  METHOD_ORDER,
  cashDifference,
  denominationTotal,
  validateCashOut,
  validateClose,
} from './closes/rules.js';
export type { ByMethod, DayCash, DayStatus, Denominations } from './closes/rules.js';
export type { BoardDay, CloseBoard, DayClose, DayLine, DayView } from './closes/service.js';
export type { CashOut } from './closes/cashOut.js';
export { unpackBoard } from './closes/boardWire.js';
export type { WireBoard } from './closes/boardWire.js';
export { CASH_OUT_FIELD_LABELS, CLOSE_FIELD_LABELS, CLOSE_STATUS_LABELS } from './labels.js';
