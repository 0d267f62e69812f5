// remit's core: pure rules and the services that apply them to a database; the CLI and the API are thin edges.
export { auditSummaryText } from './audit/text.js';
export type { AuditStoreLookup } from './audit/text.js';
export { ConfigError, listenUrl, loadConfig } from './config.js';
export type { RemitConfig } from './config.js';
export { instantRange } from './dateRange.js';
export {
  backupForDownload,
  backupOverview,
  backupToFile,
  inspectBackup,
  lastBackup,
  requireBackupAccess,
  restoreBackup,
  setKeepDays,
  takeManualBackup,
} from './backups/service.js';
export type { BackupOverview, RestoreResult, TakenBackup } from './backups/service.js';
export { MAX_BACKUP_UPLOAD_BYTES, RESTORE_WORD } from './limits.js';
export type { BackupInfo } from './backups/open.js';
export { listFolder } from './backups/folder.js';
export type { BackupReason, ListedBackup } from './backups/folder.js';
export { restoreInProgress, restoreRunning } from './backups/restore.js';
export { runNightlyBackup, scheduleNightlyBackups } from './backups/nightly.js';
export { isDatabaseBusy, openDatabase, openReadPool } from './db/connect.js';
export { migrateDownAll, migrateLatest, pendingMigrations } from './db/migrate.js';
export {
  BusyError,
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthenticatedError,
  ValidationError,
  isDomainError,
} from './errors.js';
export type { ErrorCode, Problem } from './errors.js';
export { MAX_IMPORT_BYTES } from './payments/sheetFile.js';
export { MAX_STREAM_IMPORT_BYTES } from './payments/importSource.js';
export { parsePaymentsWorkbook, previewErrors } from './payments/readSheet.js';
export { buildExportWorkbook, buildSampleWorkbook } from './payments/writeSheet.js';
export {
  PAYMENT_FIELD_LABELS,
  ROLE_LABELS,
  STATS_FIELD_LABELS,
  STATUS_LABELS,
  STORE_FIELD_LABELS,
  USER_FIELD_LABELS,
  auditActionLabel,
  auditEntityLabel,
  statementEncodingLabel,
  storeLabel,
} from './labels.js';
export { parseListQuery } from './listQuery.js';
export type { ListQuery } from './listQuery.js';
export { MSG, errorMessage } from './messages.js';
export { MAX_AMOUNT, MIN_AMOUNT, formatNTD } from './money.js';
export {
  PERMISSIONS,
  ROLES,
  activeLabel,
  can,
  effectivePermissions,
  permissionLabels,
  scopedStoreIds,
  storeAccessLabel,
} from './permissions.js';
export type { Permission, Principal, Role } from './permissions.js';
export { givenAccount, statementAccount } from './reconcile/account.js';
export { forgetPayer, listPayers, payerMemory } from './reconcile/payers.js';
export { statementPeriod } from './reconcile/period.js';
export { createFromLine, reportsForLine } from './reconcile/fromLine.js';
export { EMPTY_REASON_TEXT, type EmptyReason } from './reconcile/empty.js';
export { readStatement } from './reconcile/statement.js';
export type {
  BankLine,
  ImportedStatement,
  PayerMemory,
  Proposals,
  ReconcileLine,
  ReconcileReport,
  RememberedPayer,
  StatementLine,
} from './reconcile/types.js';
export { securitySettings } from './securitySettings.js';
export { listAudit } from './audit/service.js';
export {
  authenticateSession,
  changePassword,
  login,
  me,
  principalByUsername,
  signOut,
  warmSignIn,
} from './users/auth.js';
export { ensureFirstRun } from './bootstrap.js';
export { actorUserId, systemActor } from './actor.js';
export type { Actor } from './actor.js';
export type { AppContext, BackupSettings, ServiceContext } from './context.js';
export { requireAnyPermission, requirePermission, requireSubmitter } from './guard.js';
export { DEFAULT_MATCHING } from './reconcile/matchPool.js';
export { exportByTicket, exportPayments, exportPaymentsStream, exportTicket, sampleFile } from './payments/export.js';
export type { ExportFile, ExportFormat, ExportStream } from './payments/export.js';
export { importPayments } from './payments/import.js';
export { importPaymentFile, refusalOf, requireImportPermission } from './payments/importFile.js';
export type { ImportFileReport } from './payments/importFile.js';
export { getPayment, listPayments, listStorePayments } from './payments/list.js';
export { createPayment, deletePayment, deletePayments, updatePayment } from './payments/write.js';
export {
  PROPOSALS_PAGE,
  confirmPairs,
  importStatement,
  listLines,
  markUnpaid,
  proposeForPeriod,
  proposeMatches,
  unlinkPayment,
} from './reconcile/service.js';
export { statsCharts, statsSummary } from './stats/service.js';
export { assertDayOpenForCash } from './payments/closedDay.js';
export type { CashChange } from './payments/closedDay.js';
export { boardRows, closeDay, closesBoard, dayBookRange, getDay, reopenDay } from './closes/service.js';
export type { BoardDay, CloseBoard, DayClose, DayLine, DayView } from './closes/service.js';
export { deleteCashOut, recordCashOut, requireCashChange, updateCashOut, type CashOut } from './closes/cashOut.js';
export { packBoard, unpackBoard } from './closes/boardWire.js';
export type { WireBoard } from './closes/boardWire.js';
export { exportDayBook } from './closes/daybook.js';
export { publicLinkInfo, publicReportStatus, reportThroughLink, storeLink } from './links/service.js';
export { linkFloods, removeLinkReports } from './links/floods.js';
export type { LinkFlood } from './links/floods.js';
export type { LinkAction } from './links/service.js';
export type { PublicStatus, StoreLink } from './links/rules.js';
export { unreachableFromOutside } from './links/rules.js';
export {
  createStore,
  deleteStore,
  getStore,
  getStoreByCode,
  listStores,
  storeDirectory,
  storeIdsByCode,
  updateStore,
} from './stores/service.js';
export {
  createUser,
  deleteUser,
  getUser,
  getUserByUsername,
  listUsers,
  unlockUser,
  updateUser,
} from './users/service.js';
export { STATUSES, isStatus } from './paymentStatuses.js';
export type { PaymentStatus } from './paymentStatuses.js';
export { addDays, formatTaipei, parseInstant, taipeiDate, taipeiDayNumber, taipeiDayStart, toIso } from './time.js';
export type {
  AuditEntry,
  ListResult,
  ListedPayment,
  Me,
  Payment,
  StatsSummary,
  Store,
  StoreStats,
  User,
} from './types.js';
export { validateLogin } from './users/login.js';
export { validatePayment } from './payments/validate.js';
export { validateStore } from './stores/validate.js';
export { validateUser } from './users/validate.js';
