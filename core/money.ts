/** Money is whole NT$ held as integers; this is the one place that formats it. */
const formatter = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `NT$1,234` (negative amounts, which payments never have, as `-NT$1,234`). */
export function formatNTD(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}NT$${formatter.format(Math.abs(Math.round(amount)))}`;
}

export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 100_000_000;
