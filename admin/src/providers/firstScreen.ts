/**
 * The first screen's calls, started together as the script loads (issue 24, item 10). Left to
 * react-admin they came one after another: `me` once React had drawn, then the stores, then the
 * stores again, then the count, then the list, about 2 s on a desk. Now `me` and the stores leave
 * at once, before React draws anything; as soon as `me` answers, the list and its count leave with
 * exactly the parameters the list will ask for (react-admin's own `getQuery`, from the URL or the
 * filters kept from last time), and the list picks those answers up (dataProvider `getListEarly`).
 */
import { getQuery, type SortPayload } from 'react-admin';
import { gates } from '../../../core/browser';
import { ADMIN_PATH, LOGIN_PATH } from '../config';
import { STORES_PARAMS } from '../common/useStores';
import { countParams, MULTI_STORE_KEY, PAYMENTS_PER_PAGE, PAYMENTS_SORT, paymentsFilterDefaults, permanentFilter, SELECTED_STORE_KEY } from '../payments/listParams';
import { getListEarly } from './dataProvider';
import { loadMe } from './me';
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

export function startFirstScreen(location: Pick<Location, 'pathname' | 'search'>): void {
  const path = location.pathname.replace(/\/+$/, '');
  if (path.startsWith(LOGIN_PATH)) return;
  const me = loadMe();
  me.catch(() => undefined); // checkAuth asks again and sends the user to sign in
  getListEarly('stores', STORES_PARAMS);
  // /admin lands on the list for whoever may see payments (initialTab); /admin/payments is the list
  if (path !== ADMIN_PATH && path !== `${ADMIN_PATH}/payments`) return;
  void me.then(
    (user) => {
      if (!gates.viewPayments(user)) return;
      const permanent = permanentFilter(user, store.getItem<number | null>(SELECTED_STORE_KEY, null) ?? null, Boolean(store.getItem<boolean>(MULTI_STORE_KEY, false)));
      const query = getQuery({
        queryFromLocation: path === ADMIN_PATH ? {} : queryFromLocation(location.search),
        params: store.getItem('payments.listParams', {}),
        filterDefaultValues: paymentsFilterDefaults(),
        sort: PAYMENTS_SORT as SortPayload,
        perPage: PAYMENTS_PER_PAGE,
      });
      getListEarly('payments', { pagination: { page: query.page, perPage: query.perPage }, sort: { field: query.sort, order: query.order }, filter: { ...query.filter, ...permanent } });
      getListEarly('payments', countParams(permanent));
    },
    () => undefined,
  );
}
