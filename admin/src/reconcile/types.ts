/** The shapes of the reconciliation API (README, 對帳): core's, so page and server never disagree. */
export type {
  BankLine,
  ImportedStatement,
  Proposals,
  ReconciledPayment as LinkedPayment,
  RememberedPayer,
} from '../../../core/browser';
