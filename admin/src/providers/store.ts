import { localStorageStore } from 'react-admin';

/** Read by the first screen before React runs. */
export const store = localStorageStore();
