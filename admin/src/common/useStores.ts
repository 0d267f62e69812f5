import { useGetList } from 'react-admin';

export interface StoreRecord {
  id: number;
  name: string;
  code: string;
}

/** Every store (any signed-in user may read the list), sorted by id. */
export function useStores(): { stores: StoreRecord[]; isPending: boolean; byId: (id: number) => StoreRecord | undefined } {
  const { data, isPending } = useGetList<StoreRecord>('stores', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' } });
  const stores = data ?? [];
  return { stores, isPending, byId: (id) => stores.find((s) => s.id === id) };
}
