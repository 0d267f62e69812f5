/**
 * Options of every /api router: paths are matched as spelled, so `/API/...`
 * or `/api/ADMIN/me` is a 404, never an answer that misses the rules keyed on `/api/`.
 */
export const API_ROUTER = { sensitive: true } as const;
