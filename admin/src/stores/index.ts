import { lazy } from 'react';

/** 分店管理, fetched when someone opens it: the first screen (匯款記錄) does not load it. */
export default { list: lazy(() => import('./StoreList').then((m) => ({ default: m.StoreList }))) };
