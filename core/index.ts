/**
 * remit's core library: `import { ... } from 'remit'`.
 * Pure rules (validation, statuses, permissions, statistics, time and money) and the services
 * that apply them to a database. The CLI and the HTTP API are thin edges around these.
 */
export * from './errors.js';
export * from './messages.js';
export * from './time.js';
export * from './dateRange.js';
export * from './money.js';
export * from './statuses.js';
export * from './permissions.js';
export * from './stats.js';
export * from './types.js';
export * from './list.js';
export * from './paymentDuplicateKey.js';
export * from './excel/index.js';
export * from './config.js';
export * from './secret.js';
export * from './securitySettings.js';
export * from './validation/result.js';
export * from './validation/payment.js';
export * from './validation/login.js';
export * from './validation/user.js';
export * from './validation/password.js';
export * from './validation/store.js';
export * from './db/connect.js';
export * from './db/migrate.js';
export * from './db/backup.js';
export * from './labels.js';
export * from './auditText.js';
export type { StoreRow, UserRow, PaymentRow, AuditRow } from './db/rows.js';
export * from './services/context.js';
export { requirePermission, requireAnyPermission, requireSubmitter } from './services/guard.js';
export * from './services/audit.js';
export * from './services/auth.js';
export * from './services/signInLimit.js';
export * from './services/hashPool.js';
export * from './services/matchPool.js';
export * from './services/payments/index.js';
export * from './services/users.js';
export * from './services/stores.js';
export * from './services/stats.js';
export * from './services/bootstrap.js';
export * from './services/reconcile.js';
export * from './reconcile/statement.js';
export { statementPeriod } from './reconcile/period.js';
export type { StatementLine, ReconcileReport, ReconcileLine, PayerMemory, RememberedPayer } from './reconcile/types.js';
export { listPayers, forgetPayer, payerMemory } from './reconcile/payers.js';
export { cleanAccount, accountKey, givenAccount, statementAccount, MAX_ACCOUNT_LENGTH } from './reconcile/account.js';
