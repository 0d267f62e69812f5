// The reconciliation API's shapes, core's, so page and server never disagree.
export type {
  BankLine,
  ImportedStatement,
  Proposals,
  ReconciledPayment as LinkedPayment,
  RememberedPayer,
} from '../../../core/browser';
