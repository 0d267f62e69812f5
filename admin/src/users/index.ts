import { lazy } from 'react';

/** 會員管理, fetched when someone opens it: the first screen (匯款記錄) does not load it. */
export default { list: lazy(() => import('./UserList').then((m) => ({ default: m.UserList }))) };
