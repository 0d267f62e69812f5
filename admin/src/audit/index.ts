import { lazy } from 'react';

/** Fetched when opened, so the first screen does not load it. */
export default { list: lazy(() => import('./AuditList').then((m) => ({ default: m.AuditList }))) };
