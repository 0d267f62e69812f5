/** The shapes of the reconciliation API (docs/reconciliation.md): core's, so page and server never disagree. */
export type {
  BankLine,
  ImportedStatement,
  Proposals,
  ReconciledPayment as LinkedPayment,
  RememberedPayer,
} from '../../../core/browser';
