import { compareDigits } from '../../../core/browser';

/** The choice 都不是 (mark the report 未入帳). */
export const NONE = 'none';

/**
 * What a review card has chosen when it appears: the first candidate line, unless its visible
 * digits are another account's (not even one typo away from the last five): then nothing is
 * chosen, so that one hurried click never confirms a line whose digits say it is someone else's.
 * '' is "nothing chosen yet"; NONE when there is no candidate at all.
 */
export function firstChoice(
  lastFive: string,
  candidates: ReadonlyArray<{ line: { id: number; digits: string } }>,
): string {
  const first = candidates[0];
  if (!first) return NONE;
  return compareDigits(lastFive, first.line.digits).verdict === 'different' ? '' : String(first.line.id);
}
