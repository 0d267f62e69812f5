import { lazy } from 'react';

/** 稽核紀錄, fetched when someone opens it: the first screen (匯款記錄) does not load it. */
export default { list: lazy(() => import('./AuditList').then((m) => ({ default: m.AuditList }))) };
