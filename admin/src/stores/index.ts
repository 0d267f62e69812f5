import { lazy } from 'react';

/** Fetched when opened, so the first screen does not load it. */
export default { list: lazy(() => import('./StoreList').then((m) => ({ default: m.StoreList }))) };
