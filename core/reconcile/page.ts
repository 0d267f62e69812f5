/** One page of each queue, with its total: the worker cuts it, so only the page crosses back to the event loop. */
import type { MatchResult } from './match.js';
import type { ProposalQueue } from './types.js';

export interface PagedMatch {
  result: MatchResult;
  total: Record<ProposalQueue, number>;
}

export const PROPOSAL_QUEUES: readonly ProposalQueue[] = [
  'auto',
  'review',
  'reviewLines',
  'unpaid',
  'unreported',
  'suggestions',
];

export function cutPage(result: MatchResult, page?: { offset: number; limit: number }): PagedMatch {
  const total = Object.fromEntries(PROPOSAL_QUEUES.map((q) => [q, result[q].length])) as Record<ProposalQueue, number>;
  if (!page) return { result, total };
  const cut = <T>(xs: T[]): T[] => xs.slice(page.offset, page.offset + page.limit);
  return {
    result: {
      ...result,
      auto: cut(result.auto),
      review: cut(result.review),
      reviewLines: cut(result.reviewLines),
      unpaid: cut(result.unpaid),
      unreported: cut(result.unreported),
      suggestions: cut(result.suggestions),
    },
    total,
  };
}
