/** The shapes of the reconciliation API (README, 對帳) as the page reads them. */
import type { Payment } from '../../../core/types';

export type LinkedPayment = Payment & { bank_line_id?: number | null };

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
}

export interface ImportedStatement {
  id: number;
  file: string;
  lines: number;
  credits: number;
  new: number;
  duplicates: number;
  from: string | null;
  to: string | null;
  encoding: string;
  balance_breaks: number;
  columns: Record<string, string>;
}

export interface Proposals {
  auto: Array<{ payment: LinkedPayment; line: BankLine; score: number; reasons: string[] }>;
  review: Array<{ payment: LinkedPayment; candidates: Array<{ line: BankLine; score: number; reasons: string[] }> }>;
  reviewLines: Array<{ line: BankLine; candidates: Array<{ payment: LinkedPayment; score: number; reasons: string[] }> }>;
  unpaid: Array<{ payment: LinkedPayment }>;
  unreported: Array<{ line: BankLine }>;
  suggestions: Array<{ payments: string[]; lines: number[]; reasons: string[] }>;
}
