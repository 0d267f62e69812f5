import { lazy } from 'react';

/** Fetched only when someone opens it. */
export const BackupsPage = lazy(() => import('./BackupsPage'));
