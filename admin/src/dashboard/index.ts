import { lazy } from 'react';

/** 統計儀表板, fetched when someone opens it: the first screen (匯款記錄) does not load it. */
export const Dashboard = lazy(() => import('./Dashboard').then((m) => ({ default: m.Dashboard })));
