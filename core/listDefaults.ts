/**
 * How the back office asks for its first screen: 匯款記錄's first page when
 * nothing was chosen, and the stores' call every page makes. Said once for the page
 * (admin/src/payments/listParams.ts, admin/src/common/useStores.ts) and for the server, which
 * answers these very calls in /admin's HTML (http/firstScreen.ts).
 */
import { defaultDateRange } from './time.js';

export const PAYMENTS_PER_PAGE = 25;
export const PAYMENTS_SORT = { field: 'paid_at', order: 'DESC' } as const;

/** The list opens on the last three days (spec section 2). */
export function paymentsFilterDefaults(): { paid_at_gte: string; paid_at_lte: string } {
  const range = defaultDateRange();
  return { paid_at_gte: range.from, paid_at_lte: range.to };
}

/** The one call for the stores, the same for every page. */
export const STORES_PARAMS = {
  pagination: { page: 1, perPage: 1000 },
  sort: { field: 'id', order: 'ASC' } as const,
  filter: {},
};

/**
 * 匯款記錄's table writes its two times (時間, 建立時間) as the date over the time when the list is
 * narrower than this (px): a 1280 px laptop beside the menu leaves it 1024 px, and on one line
 * the columns ran under the sticky 操作 column. The list (admin/src/payments/PaymentList.tsx) and
 * the server's first page (http/firstScreen.ts) switch at the same width of the same box.
 */
export const PAYMENTS_TABLE_STACK_TIMES_BELOW = 1160;

/**
 * The cookie that says the back office's side menu was closed at a desk (`closed`; absent: open),
 * so the server's first page of 匯款記錄 (http/firstScreen.ts) is drawn beside the narrow menu
 * where the list will be, not beside the open one. Written by admin/src/layout/Sidebar.tsx.
 */
export const MENU_COOKIE = 'remit_menu';
