/**
 * The habits of a month of reports and bank credits, each a knob, shared by the bench's two
 * generators (bench/reconcile-data.ts, ours; bench/reconcile-gen-b.ts, written apart from the
 * matcher by someone who never read it) and by the sweep (bench/reconcile-sweep.ts). Shares are
 * in [0, 1] unless said.
 */
export interface MonthKnobs {
  /** how many distinct price points customers pay (3 = very few distinct amounts, 300 = almost every amount different) */
  amountDiversity: number;
  /** share of customers who are regulars (come back every few days, often the same amount) */
  regularShare: number;
  /** how the payer's account shows on the statement: whole account, masked (3–5 visible trailing digits), none (a name only, an ATM cash deposit); sum 1 */
  masking: { whole: number; masked: number; none: number };
  /** booking delay: 0 = every transfer within minutes; 1 = usual; 2 = a slow bank (more after-cutoff and next-business-day bookings, up to 3½ days later) */
  bookingDelay: number;
  /** error in the reported time: 0 = the exact minute; 1 = usual (typed in later, sometimes hours off); 2 = sloppy (often hours, sometimes a day off either way) */
  reportTimeError: number;
  /** share of reports whose last five has one wrong digit */
  typoRate: number;
  /** share of reports whose last five has two adjacent digits swapped */
  swapRate: number;
  /** share of customers who share their last five with another customer of the same store */
  sharedLastFive: number;
  /** share of transfers that pay 2–3 reports at once (one credit, several reports) */
  combined: number;
  /** share of reports paid in two transfers (several credits, one report) */
  split: number;
  /** share of credits nobody reported */
  unreported: number;
  /** share of reports never paid */
  unpaid: number;
  /** share of the banks whose export has no counterparty column and writes the account inside 備註 / 摘要 instead */
  digitsInNote: number;
  /** reports a day over all stores */
  perDay: number;
  /** number of stores, each with its own bank */
  stores: number;
}

export const DEFAULT_KNOBS: MonthKnobs = {
  amountDiversity: 18,
  regularShare: 0.15,
  masking: { whole: 0.6, masked: 0.35, none: 0.05 },
  bookingDelay: 1,
  reportTimeError: 1,
  typoRate: 0.03,
  swapRate: 0.01,
  sharedLastFive: 0.02,
  combined: 0.01,
  split: 0.01,
  unreported: 0.02,
  unpaid: 0.02,
  digitsInNote: 0,
  perDay: 50,
  stores: 5,
};
