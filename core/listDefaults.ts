// The back office's first calls (匯款記錄's first page, the stores), said once for the page and for the
// server, which answers these very calls in /admin's HTML (http/firstScreen.ts).
import { defaultDateRange } from './time.js';

export const PAYMENTS_PER_PAGE = 25;
export const PAYMENTS_SORT = { field: 'paid_at', order: 'DESC' } as const;

/** The list opens on the last three days (spec section 2). */
export function paymentsFilterDefaults(): { paid_at_gte: string; paid_at_lte: string } {
  const range = defaultDateRange();
  return { paid_at_gte: range.from, paid_at_lte: range.to };
}

export const STORES_PARAMS = {
  pagination: { page: 1, perPage: 1000 },
  sort: { field: 'id', order: 'ASC' } as const,
  filter: {},
};

/** Below this list width (px) times stack date over time, else they run under 操作; http/firstScreen.ts uses it too. */
export const PAYMENTS_TABLE_STACK_TIMES_BELOW = 1160;

/** `closed` when the side menu was closed at a desk, so the server draws its first page beside the narrow menu. */
export const MENU_COOKIE = 'remit_menu';
