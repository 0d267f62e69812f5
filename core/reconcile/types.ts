/**
 * Bank reconciliation: the shapes shared by its three pieces (reading a statement, matching,
 * and the service that stores statements and decisions). Times are UTC instants in epoch
 * milliseconds, money is whole NT$, as everywhere in core. The API's shapes (BankLine and the
 * rest) are declared here too, so the server and the 對帳 page read one definition.
 */
import type { EmptyReason } from './empty.js';
import type { PaymentStatus } from '../paymentStatuses.js';
import type { Payment } from '../types.js';
import type { ReadStatement } from './statement.js';

/** One transaction line of a bank statement, as read from the file (no database yet). */
export interface StatementLine {
  /** 1-based row number as a spreadsheet program shows it, preamble rows included */
  row: number;
  /** the instant of the transaction (transaction date and time, read as Taiwan time) */
  at: number;
  /** false when the statement gave only a date: `at` is then 00:00 Taiwan time of that day */
  hasTime: boolean;
  /** NT$, positive for a credit (money in), negative for a debit (money out) */
  amount: number;
  /** the running balance after this line, when the statement has one */
  balance: number | null;
  /** 摘要 / 說明 as written ('' when absent) */
  summary: string;
  /** 備註 / 附註 / 轉帳留言 … as written, several note columns joined with a space ('' when absent) */
  note: string;
  /** the counterparty's account as written (masks and bank codes included; '' when absent) */
  counterparty: string;
  /**
   * the trailing visible digits of the payer's account, at most five: from the counterparty column
   * when the statement has one, else from an account number written inside 備註 / 附註 / 摘要 /
   * 轉帳留言 ('' = none shown; a name alone is not digits)
   */
  digits: string;
  /**
   * who paid, as the statement shows them, normalized so that the same payer reads the same on
   * every statement of that bank: an account with its masks as `*` (`***12345`, `0008000077720****736`)
   * or a name (`陳美玲`); '' when the line says nothing about the payer. Payer memory keys on it.
   */
  payer: string;
}

/** A reported payment as the matcher sees it. */
export interface ReconcileReport {
  uuid: string;
  store_id: number;
  last_five: string;
  /** the reported instant */
  paid_at: number;
  amount: number;
  note: string;
  /** the payment's status: one marked 未入帳 (by a person or a reconciliation) is never proposed again until it is un-marked */
  status?: PaymentStatus;
}

/** A statement credit as the matcher sees it: a stored line, keyed by its id. */
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
  /** the payer as the statement shows them (StatementLine.payer; '' or absent: unknown) */
  payer?: string;
  /**
   * the bank account the line was booked on (the statement's account, else its store): lines of
   * one source share booking habits, which the matcher learns per source
   */
  source?: string;
}

/** What a confirmed link taught remit about a payer: on this store's statements, this payer reported this last five. */
export interface PayerMemory {
  store_id: number;
  /** StatementLine.payer of the linked line */
  payer: string;
  last_five: string;
}

/** A remembered payer as the API and the back office show it (已記住的付款人). */
export interface RememberedPayer {
  id: number;
  store_id: number;
  /** how the payer appears on the store's statements */
  payer: string;
  last_five: string;
  /** the link it was learned from: the payment's uuid and the line's id */
  payment: string;
  line_id: number;
  /** whether a person or the automatic run confirmed that link */
  learned_by: 'person' | 'auto';
  learned_by_username: string;
  learned_at: string;
}

/** The API's shapes: a stored statement line, an imported statement, a payment with its link, the proposals. */
export interface BankLine {
  id: number;
  statement_id: number;
  file: string;
  /** the row in the file as a spreadsheet program shows it */
  row: number;
  at: string;
  has_time: boolean;
  amount: number;
  balance: number | null;
  summary: string;
  note: string;
  counterparty: string;
  digits: string;
  /** who paid, as the statement shows them ('' when it does not say) */
  payer: string;
  /** the bank account of the line's statement (null: the statement does not say) */
  account: string | null;
  /** the store the statement was imported for (null: all stores) */
  store_id: number | null;
  /** the linked payment's uuid, or null */
  payment: string | null;
}

export interface ImportedStatement {
  id: number;
  file: string;
  store_id: number | null;
  /** the bank account: the statement's title row's, else the one given on upload; null when neither */
  account: string | null;
  lines: number;
  credits: number;
  new: number;
  duplicates: number;
  from: string | null;
  to: string | null;
  encoding: string;
  balance_breaks: number;
  /** rows that are not transactions (資料筆數, 合計, 以上資料僅供參考 …), skipped */
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
  /**
   * Split or combined payments (可能為分次或合併付款): reports and the credits that may pay them
   * together (one report, two or three credits adding up to it; or several reports, one credit).
   * Shown, never confirmed here: a payment links to one credit of its own amount.
   */
  suggestions: Array<{ payments: ReconciledPayment[]; lines: BankLine[]; reasons: string[] }>;
  /**
   * Present when the answer is paged (the API): every queue above holds at most `limit` items
   * from `offset` on, and `total` says how many each has in all. `period`: the Taiwan days
   * matched, the asked period narrowed to what the statements can explain (null: nothing to match).
   */
  page?: ProposalsPage;
  /** present when every queue is empty: why (core/reconcile/empty.ts) */
  empty?: EmptyReason;
}

export type ProposalQueue = 'auto' | 'review' | 'reviewLines' | 'unpaid' | 'unreported' | 'suggestions';
export interface ProposalsPage {
  offset: number;
  limit: number;
  total: Record<ProposalQueue, number>;
  period: { from: string; to: string } | null;
}
