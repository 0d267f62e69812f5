import { useGetList } from 'react-admin';
import { STORES_PARAMS } from '../../../core/browser';

export interface StoreRecord {
  id: number;
  name: string;
  code: string;
}

/** The same call on every page and the first screen, so they share one answer. */
export { STORES_PARAMS };

// Asked once a minute at most: the top bar, the list and its filters all want it as the page opens, and
// react-admin refreshes it after a store changes.
export function useStores(): {
  stores: StoreRecord[];
  isPending: boolean;
  byId: (id: number) => StoreRecord | undefined;
} {
  const { data, isPending } = useGetList<StoreRecord>('stores', STORES_PARAMS, { staleTime: 60_000 });
  const stores = data ?? [];
  return { stores, isPending, byId: (id) => stores.find((s) => s.id === id) };
}
