import { useStore } from 'react-admin';
import { SELECTED_STORE_KEY } from '../payments/listParams';

/** The top bar's store, null for all; in react-admin's store, so it survives a reload. */
export function useSelectedStore(): [number | null, (id: number | null) => void] {
  const [value, setValue] = useStore<number | null>(SELECTED_STORE_KEY, null);
  return [value ?? null, setValue];
}
