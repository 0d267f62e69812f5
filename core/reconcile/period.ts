/**
 * The period proposals default to after an import: from the first to the last day the imported
 * statements list (Taiwan dates). One rule for the CLI, the API and the 對帳 page.
 */
export function statementPeriod(
  statements: ReadonlyArray<{ from: string | null; to: string | null }>,
): { from: string; to: string } | null {
  const days = statements
    .flatMap((s) => [s.from, s.to])
    .filter((d): d is string => !!d)
    .sort();
  return days.length ? { from: days[0], to: days[days.length - 1] } : null;
}
