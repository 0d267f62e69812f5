import { useGetList } from 'react-admin';
import { STORES_PARAMS } from '../../../core/browser';

export interface StoreRecord {
  id: number;
  name: string;
  code: string;
}

/** The one call for the stores, the same for every page (and the first screen's early call; core/listDefaults.ts). */
export { STORES_PARAMS };

/**
 * Every store (any signed-in user may read the list), sorted by id. Asked once per minute at most:
 * the top bar, the list and its filters all want it as the page opens, and react-admin refreshes
 * it by itself after a store is added, renamed or deleted.
 */
export function useStores(): {
  stores: StoreRecord[];
  isPending: boolean;
  byId: (id: number) => StoreRecord | undefined;
} {
  const { data, isPending } = useGetList<StoreRecord>('stores', STORES_PARAMS, { staleTime: 60_000 });
  const stores = data ?? [];
  return { stores, isPending, byId: (id) => stores.find((s) => s.id === id) };
}
