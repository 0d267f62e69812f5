import { localStorageStore } from 'react-admin';

/** react-admin's store (the list's last filters, the top bar's store), read by the first screen before React runs. */
export const store = localStorageStore();
