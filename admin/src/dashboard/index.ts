import { lazy } from 'react';

/** Fetched when opened, so the first screen does not load it. */
export const Dashboard = lazy(() => import('./Dashboard').then((m) => ({ default: m.Dashboard })));
