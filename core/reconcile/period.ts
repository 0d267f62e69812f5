/** The period proposals default to after an import: the first to the last day the statements list. */
export function statementPeriod(
  statements: ReadonlyArray<{ from: string | null; to: string | null }>,
): { from: string; to: string } | null {
  const days = statements
    .flatMap((s) => [s.from, s.to])
    .filter((d): d is string => !!d)
    .sort();
  return days.length ? { from: days[0], to: days[days.length - 1] } : null;
}
