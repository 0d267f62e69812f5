/** Bank reconciliation's shapes, the API's included (the server and the 對帳 page read one definition). */
import type { EmptyReason } from './empty.js';
import type { PaymentStatus } from '../paymentStatuses.js';
import type { Payment } from '../types.js';
import type { ReadStatement } from './statement.js';

export interface StatementLine {
  /** 1-based, as a spreadsheet program shows it */
  row: number;
  at: number;
  /** false for a date only: `at` is then 00:00 Taiwan time */
  hasTime: boolean;
  /** negative for money out */
  amount: number;
  balance: number | null;
  summary: string;
  /** several note columns joined with a space */
  note: string;
  counterparty: string;
  /** the payer's account's trailing visible digits, at most five (payer.ts) */
  digits: string;
  /** who paid, normalized to read the same on every statement of the bank: payer memory keys on it */
  payer: string;
}

export interface ReconcileReport {
  uuid: string;
  store_id: number;
  last_five: string;
  paid_at: number;
  amount: number;
  note: string;
  /** one marked 未入帳 is never proposed again until un-marked */
  status?: PaymentStatus;
}

export interface ReconcileLine {
  id: number;
  at: number;
  hasTime: boolean;
  amount: number;
  digits: string;
  summary: string;
  note: string;
  /** the store the line's statement was imported for; null or absent: a statement for all stores */
  store_id?: number | null;
  payer?: string;
  /** the account the line was booked on: the matcher learns booking habits per source */
  source?: string;
}

/** On this store's statements, this payer reported this last five (a confirmed link taught it). */
export interface PayerMemory {
  store_id: number;
  payer: string;
  last_five: string;
}

/** A remembered payer as the API and the back office show it (已記住的付款人). */
export interface RememberedPayer {
  id: number;
  store_id: number;
  payer: string;
  last_five: string;
  payment: string;
  line_id: number;
  learned_by: 'person' | 'auto';
  learned_by_username: string;
  learned_at: string;
}

/** The API's shapes: a stored statement line, an imported statement, a payment with its link, the proposals. */
export interface BankLine {
  id: number;
  statement_id: number;
  file: string;
  row: number;
  at: string;
  has_time: boolean;
  amount: number;
  balance: number | null;
  summary: string;
  note: string;
  counterparty: string;
  digits: string;
  payer: string;
  account: string | null;
  /** null: a statement for all stores */
  store_id: number | null;
  payment: string | null;
}

export interface ImportedStatement {
  id: number;
  file: string;
  store_id: number | null;
  account: string | null;
  lines: number;
  credits: number;
  new: number;
  duplicates: number;
  from: string | null;
  to: string | null;
  encoding: string;
  balance_breaks: number;
  skipped_rows: number;
  columns: ReadStatement['columns'];
}

export type ReconciledPayment = Payment & { bank_line_id: number | null };

/** The service's answer: each reason in the words a person reads (reasonText), as the API and the CLI give it. */
export interface Proposals {
  auto: Array<{ payment: ReconciledPayment; line: BankLine; score: number; reasons: string[] }>;
  review: Array<{
    payment: ReconciledPayment;
    candidates: Array<{ line: BankLine; score: number; reasons: string[] }>;
  }>;
  reviewLines: Array<{
    line: BankLine;
    candidates: Array<{ payment: ReconciledPayment; score: number; reasons: string[] }>;
  }>;
  unpaid: Array<{ payment: ReconciledPayment }>;
  unreported: Array<{ line: BankLine }>;
  /** split or combined payments (可能為分次或合併付款): shown, never confirmed */
  suggestions: Array<{ payments: ReconciledPayment[]; lines: BankLine[]; reasons: string[] }>;
  /** when paged (the API); `period`: the days matched, narrowed to what the statements can explain */
  page?: ProposalsPage;
  /** present when every queue is empty: why */
  empty?: EmptyReason;
}

export type ProposalQueue = 'auto' | 'review' | 'reviewLines' | 'unpaid' | 'unreported' | 'suggestions';
export interface ProposalsPage {
  offset: number;
  limit: number;
  total: Record<ProposalQueue, number>;
  period: { from: string; to: string } | null;
}
