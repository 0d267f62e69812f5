/**
 * Bank reconciliation: the shapes shared by its three pieces (reading a statement, matching,
 * and the service that stores statements and decisions). Times are UTC instants in epoch
 * milliseconds, money is whole NT$, as everywhere in core.
 */

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
  /** the trailing visible digits of the counterparty's account ('' = unknown, never a mismatch) */
  digits: string;
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
}
