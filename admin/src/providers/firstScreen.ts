// The first screen's calls, started together before React draws, with exactly the parameters the list will
// ask for, so it picks the answers up instead of asking one call after another. When the server has already
// drawn the first page (http/firstScreen.ts), its answers are taken as the list's; the `remit_list` cookie
// tells the server which page to draw.
import { getQuery, type GetListParams, type SortPayload } from 'react-admin';
import { gates, MENU_COOKIE, scopeIsEmpty, type Me } from '../../../core/browser';
import { ADMIN_PATH, LOGIN_PATH } from '../config';
import { STORES_PARAMS } from '../common/useStores';
import {
  countParams,
  MULTI_STORE_KEY,
  PAYMENTS_PER_PAGE,
  PAYMENTS_SORT,
  paymentsFilterDefaults,
  permanentFilter,
  SELECTED_STORE_KEY,
} from '../payments/listParams';
import { getListEarly, listKey, seedListEarly } from './dataProvider';
import { loadMe, seedMe } from './me';
import { store } from './store';

/** As useListParams parses it. */
function queryFromLocation(search: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    try {
      out[k] = k === 'filter' || k === 'displayedFilters' ? JSON.parse(v) : v;
    } catch {
      return {};
    }
  }
  return out;
}

/** With react-admin's own getQuery, so they match the list's; `defaults`: the dates are the default days. */
function firstPageParams(
  user: Me,
  path: string,
  search: string,
): { list: GetListParams; count: GetListParams; defaults: boolean; multi: boolean } {
  const multi = Boolean(store.getItem<boolean>(MULTI_STORE_KEY, false));
  const permanent = permanentFilter(user, store.getItem<number | null>(SELECTED_STORE_KEY, null) ?? null, multi);
  const filterDefaultValues = paymentsFilterDefaults();
  const query = getQuery({
    queryFromLocation: path === ADMIN_PATH ? {} : queryFromLocation(search),
    params: store.getItem('payments.listParams', {}),
    filterDefaultValues,
    sort: PAYMENTS_SORT as SortPayload,
    perPage: PAYMENTS_PER_PAGE,
  });
  return {
    list: {
      pagination: { page: query.page, perPage: query.perPage },
      sort: { field: query.sort, order: query.order },
      filter: { ...query.filter, ...permanent },
    },
    count: countParams(permanent) as GetListParams,
    defaults: query.filter === filterDefaultValues,
    multi,
  };
}

/** Nothing secret; a year, or gone (`null`). */
function setAdminCookie(name: string, value: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${value ?? ''}; Path=${ADMIN_PATH}; Max-Age=${value === null ? 0 : 31536000}; SameSite=Strict${secure}`;
}

/** Read by the server to draw the first page (http/firstScreen.ts). */
const LIST_COOKIE = 'remit_list';
function keepListParams(user: Me): void {
  if (!gates.viewPayments(user)) return;
  const p = firstPageParams(user, ADMIN_PATH, '');
  const value = encodeURIComponent(JSON.stringify({ q: p.list, c: p.count.filter, d: p.defaults, m: p.multi }));
  if (value.length > 2000) return; // a filter that long is not drawn ahead
  setAdminCookie(LIST_COOKIE, value);
}

/** For the server's next first page. */
export function keepMenuState(open: boolean): void {
  const closed = document.cookie.split('; ').includes(`${MENU_COOKIE}=closed`);
  if (closed === !open) return;
  setAdminCookie(MENU_COOKIE, open ? null : 'closed');
}

interface Drawn {
  me: Me;
  stores: { params: GetListParams; data: unknown[]; total: number };
  list: { params: GetListParams; data: unknown[]; total: number };
  count: { params: GetListParams; data: unknown[]; total: number };
}
function drawnByServer(): Drawn | null {
  const el = document.getElementById('first-screen-data');
  if (!el) return null;
  try {
    return JSON.parse(el.textContent ?? '') as Drawn;
  } catch {
    return null;
  }
}

/** Called in the commit that draws the list's rows, so no frame shows both or neither. */
export function handOffFirstScreen(): void {
  document.getElementById('first-screen')?.remove();
  document.getElementById('first-screen-data')?.remove();
}

export function startFirstScreen(location: Pick<Location, 'pathname' | 'search'>): void {
  const path = location.pathname.replace(/\/+$/, '');
  const onList = path === ADMIN_PATH || path === `${ADMIN_PATH}/payments`;
  const drawn = onList ? drawnByServer() : null;
  if (!drawn) handOffFirstScreen();
  if (path.startsWith(LOGIN_PATH)) return;
  if (drawn) {
    const p =
      gates.viewPayments(drawn.me) && !scopeIsEmpty(drawn.me) ? firstPageParams(drawn.me, path, location.search) : null;
    // the server drew what the list will ask for: no second call, the same rows
    if (
      p &&
      listKey('payments', p.list) === listKey('payments', drawn.list.params) &&
      listKey('payments', p.count) === listKey('payments', drawn.count.params)
    ) {
      seedMe(drawn.me);
      seedListEarly('stores', drawn.stores.params, { data: drawn.stores.data, total: drawn.stores.total });
      seedListEarly('payments', drawn.list.params, { data: drawn.list.data, total: drawn.list.total });
      seedListEarly('payments', drawn.count.params, { data: drawn.count.data, total: drawn.count.total });
      keepListParams(drawn.me);
      watchListParams();
      return;
    }
    // another page than the list will show (a filter kept in this browser only): no glimpse of the wrong rows
    handOffFirstScreen();
  }
  const me = loadMe();
  me.catch(() => undefined); // checkAuth asks again and sends the user to sign in
  getListEarly('stores', STORES_PARAMS);
  void me.then(
    (user) => {
      keepListParams(user);
      watchListParams();
      if (!onList || !gates.viewPayments(user)) return;
      const p = firstPageParams(user, path, location.search);
      getListEarly('payments', p.list);
      getListEarly('payments', p.count);
    },
    () => undefined,
  );
}

let watching = false;
function watchListParams(): void {
  if (watching) return;
  watching = true;
  const again = () => void loadMe().then(keepListParams, () => undefined);
  for (const key of ['payments.listParams', SELECTED_STORE_KEY, MULTI_STORE_KEY]) store.subscribe(key, again);
}
