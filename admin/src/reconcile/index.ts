import { lazy } from 'react';

/** Fetched only when someone opens it. */
export const ReconcilePage = lazy(() => import('./ReconcilePage'));
