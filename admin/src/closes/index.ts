import { lazy } from 'react';

/** Each fetched when opened, so the first screen does not load them. */
export const ClosePage = lazy(() => import('./ClosePage').then((m) => ({ default: m.ClosePage })));
export const BoardPage = lazy(() => import('./BoardPage').then((m) => ({ default: m.BoardPage })));
