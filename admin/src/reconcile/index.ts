import { lazy } from 'react';

/** The 對帳 page, fetched only when someone opens it. */
export const ReconcilePage = lazy(() => import('./ReconcilePage'));
