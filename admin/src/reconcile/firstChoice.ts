import { compareDigits } from '../../../core/browser';

/** 都不是: mark the report 未入帳. */
export const NONE = 'none';

// A review card starts on its first candidate, unless its digits are not even one typo away from the last
// five: then '' (nothing chosen), so a hurried click never confirms someone else's line.
export function firstChoice(
  lastFive: string,
  candidates: ReadonlyArray<{ line: { id: number; digits: string } }>,
): string {
  const first = candidates[0];
  if (!first) return NONE;
  return compareDigits(lastFive, first.line.digits).verdict === 'different' ? '' : String(first.line.id);
}
