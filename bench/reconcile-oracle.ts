/**
 * The bound of a month: the product's matcher as if it knew the month's true habits. Its booking
 * times, accounts, payer names and digits are learned from every true pair instead of the
 * unambiguous ones, with the true share of reports paid; everything else (the one-to-one
 * assignment, the safety rules, the queues) is the product's own.
 */
import { analyse, type Analysis, type MatchOptions } from '../core/reconcile/match.js';
import type { Candidate, MonthCandidates, Teacher } from '../core/reconcile/model.js';
import type { Truth } from './reconcile-data.js';

/** the true share of the period's reports that a credit pays */
export function truePaidShare(t: Truth): number {
  const asked = t.reports.filter((r) => r.paid_at >= t.period.from && r.paid_at < t.period.to);
  return Math.min(0.995, asked.filter((r) => t.pair.has(r.uuid)).length / Math.max(1, asked.length));
}

export function knowingTeacher(t: Truth): Teacher {
  const truePairs = ({ reports, lines, ofReport }: MonthCandidates) =>
    ofReport.flatMap((cands) =>
      cands.filter((c: Candidate) => t.pair.get(reports[c.report].uuid) === lines[c.line].id),
    );
  const share = truePaidShare(t);
  return { anchors: truePairs, unbiased: truePairs, digitPairs: truePairs, paidShare: () => share };
}

/** The month analysed as the product does (`knowing`: as if it knew the month's habits). */
export function analyseTruth(t: Truth, knowing: boolean, opts: MatchOptions = {}): Analysis {
  const base = { coverage: t.coverage, period: t.period, reportsCover: t.reportsCover, ...opts };
  return knowing ? analyse(t.reports, t.lines, base, knowingTeacher(t)) : analyse(t.reports, t.lines, base);
}
