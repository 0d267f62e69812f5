/** Paths matched as spelled: `/API/...` is a 404, never an answer that misses the rules keyed on `/api/`. */
export const API_ROUTER = { sensitive: true } as const;
