/**
 * remit's core library: `import { ... } from 'remit'`.
 * Pure rules (validation, statuses, permissions, statistics, time and money) and the services
 * that apply them to a database. The CLI and the HTTP API are thin edges around these.
 */
export { auditSummaryText } from './auditText.js';
export type { AuditStoreLookup } from './auditText.js';
export { ConfigError, loadConfig } from './config.js';
export type { RemitConfig } from './config.js';
export { instantRange } from './dateRange.js';
export { backupSqlite, restoreSqlite } from './db/backup.js';
export { isDatabaseBusy, openDatabase, openReadPool } from './db/connect.js';
export { migrateDownAll, migrateLatest, pendingMigrations } from './db/migrate.js';
export { BusyError, ConflictError, DomainError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthenticatedError, ValidationError, isDomainError } from './errors.js';
export type { ErrorCode, Problem } from './errors.js';
export { MAX_IMPORT_BYTES } from './excel/columns.js';
export { MAX_STREAM_IMPORT_BYTES } from './excel/importSource.js';
export { parsePaymentsWorkbook, previewErrors } from './excel/parse.js';
export { buildExportWorkbook, buildSampleWorkbook } from './excel/write.js';
export { PAYMENT_FIELD_LABELS, ROLE_LABELS, STATS_FIELD_LABELS, STATUS_LABELS, STORE_FIELD_LABELS, USER_FIELD_LABELS, auditActionLabel, auditEntityLabel, statementEncodingLabel, storeLabel } from './labels.js';
export { parseListQuery } from './list.js';
export type { ListQuery } from './list.js';
export { MSG, errorMessage } from './messages.js';
export { MAX_AMOUNT, MIN_AMOUNT, formatNTD } from './money.js';
export { PERMISSIONS, ROLES, activeLabel, can, effectivePermissions, permissionLabels, scopedStoreIds, storeAccessLabel } from './permissions.js';
export type { Permission, Principal, Role } from './permissions.js';
export { givenAccount, statementAccount } from './reconcile/account.js';
export { forgetPayer, listPayers, payerMemory } from './reconcile/payers.js';
export { statementPeriod } from './reconcile/period.js';
export { readStatement } from './reconcile/statement.js';
export type { BankLine, ImportedStatement, PayerMemory, Proposals, ReconcileLine, ReconcileReport, RememberedPayer, StatementLine } from './reconcile/types.js';
export { securitySettings } from './securitySettings.js';
export { listAudit } from './services/audit.js';
export { authenticateSession, changePassword, login, me, principalByUsername, signOut, warmSignIn } from './services/auth.js';
export { ensureFirstRun } from './services/bootstrap.js';
export { systemActor } from './services/context.js';
export type { AppContext, ServiceContext } from './services/context.js';
export { requireAnyPermission, requirePermission, requireSubmitter } from './services/guard.js';
export { DEFAULT_MATCHING } from './services/matchPool.js';
export { exportByTicket, exportPayments, exportPaymentsStream, exportTicket, sampleFile } from './services/payments/export.js';
export type { ExportFile, ExportFormat, ExportStream } from './services/payments/export.js';
export { importPayments } from './services/payments/import.js';
export { importPaymentFile, refusalOf, requireImportPermission } from './services/payments/importFile.js';
export type { ImportFileReport } from './services/payments/importFile.js';
export { getPayment, listPayments, listStorePayments } from './services/payments/list.js';
export { createPayment, deletePayment, deletePayments, updatePayment } from './services/payments/write.js';
export { PROPOSALS_PAGE, confirmPairs, importStatement, listLines, markUnpaid, proposeForPeriod, proposeMatches, unlinkPayment } from './services/reconcile.js';
export { statsCharts, statsSummary } from './services/stats.js';
export { createStore, deleteStore, getStore, getStoreByCode, listStores, storeDirectory, storeIdsByCode, updateStore } from './services/stores.js';
export { createUser, deleteUser, getUser, getUserByUsername, listUsers, unlockUser, updateUser } from './services/users.js';
export { STATUSES, isStatus } from './statuses.js';
export type { PaymentStatus } from './statuses.js';
export { addDays, formatTaipei, parseInstant, taipeiDate, taipeiDayNumber, taipeiDayStart, toIso } from './time.js';
export type { AuditEntry, ListResult, ListedPayment, Me, Payment, StatsSummary, Store, StoreStats, User } from './types.js';
export { validateLogin } from './validation/login.js';
export { validatePayment } from './validation/payment.js';
export { validateStore } from './validation/store.js';
export { validateUser } from './validation/user.js';
