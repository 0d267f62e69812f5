/**
 * The first screen's calls, started together as the script loads. Left to
 * react-admin they came one after another: `me` once React had drawn, then the stores, then the
 * stores again, then the count, then the list, about 2 s on a desk. Now `me` and the stores leave
 * at once, before React draws anything; as soon as `me` answers, the list and its count leave with
 * exactly the parameters the list will ask for (react-admin's own `getQuery`, from the URL or the
 * filters kept from last time), and the list picks those answers up (dataProvider `getListEarly`).
 *
 * Better still, the server writes the first page into /admin itself (http/firstScreen.ts), with
 * the answers to those calls: the rows show before any script has run, the list takes them as
 * its own answers (so it asks nothing and shows the same rows), and `handOffFirstScreen` removes
 * the server's rows in the very commit that draws the list's. Which page the server draws is the
 * one this module computes, kept in the `remit_list` cookie each time the list's parameters change.
 */
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

/** `?filter=…&sort=…` of a react-admin list URL, as useListParams parses it. */
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

/** The list's call and the count line's for `user`, as the list will ask them (react-admin's own getQuery); `defaults`: the dates are the list's default days. */
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

/** A cookie of the back office's (nothing secret) for a year, or gone (`null`). */
function setAdminCookie(name: string, value: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${value ?? ''}; Path=${ADMIN_PATH}; Max-Age=${value === null ? 0 : 31536000}; SameSite=Strict${secure}`;
}

/** The cookie the server reads to draw the first page (http/firstScreen.ts LIST_COOKIE): the page /admin opens on. */
const LIST_COOKIE = 'remit_list';
function keepListParams(user: Me): void {
  if (!gates.viewPayments(user)) return;
  const p = firstPageParams(user, ADMIN_PATH, '');
  const value = encodeURIComponent(JSON.stringify({ q: p.list, c: p.count.filter, d: p.defaults, m: p.multi }));
  if (value.length > 2000) return; // a filter that long is not drawn ahead
  setAdminCookie(LIST_COOKIE, value);
}

/** The side menu at a desk, open or closed, for the server's next first page (MENU_COOKIE). */
export function keepMenuState(open: boolean): void {
  const closed = document.cookie.split('; ').includes(`${MENU_COOKIE}=closed`);
  if (closed === !open) return;
  setAdminCookie(MENU_COOKIE, open ? null : 'closed');
}

/** What the server wrote into the page with its first page (http/firstScreen.ts), if it did. */
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

/**
 * The list has drawn its rows (or the page is not the list): the server's first page goes, in
 * the same commit, so no frame shows both or neither.
 */
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
    // the server drew what the list will ask for: its answers are the list's (no second call, the same rows)
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
    // another page than the list will show (a filter kept in this browser only): not a glimpse of the wrong rows
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

/** Keeps the cookie current as the list's filters, sort or store change (react-admin's store tells). */
let watching = false;
function watchListParams(): void {
  if (watching) return;
  watching = true;
  const again = () => void loadMe().then(keepListParams, () => undefined);
  for (const key of ['payments.listParams', SELECTED_STORE_KEY, MULTI_STORE_KEY]) store.subscribe(key, again);
}
