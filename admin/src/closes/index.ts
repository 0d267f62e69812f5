import { lazy } from 'react';

/** 日結 and 日結總覽, each fetched when someone opens it: the first screen (匯款記錄) does not load them. */
export const ClosePage = lazy(() => import('./ClosePage').then((m) => ({ default: m.ClosePage })));
export const BoardPage = lazy(() => import('./BoardPage').then((m) => ({ default: m.BoardPage })));
