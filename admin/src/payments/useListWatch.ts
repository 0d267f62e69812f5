import { useEffect, useRef } from 'react';
import { useDataProvider, useListContext, useRefresh } from 'react-admin';
import { undoPending } from './undoPending';

/** A new report shows within 30 s. */
const WATCH_MS = 10_000;

// Keeps an open list current: a light request (first row and count) and a refresh only when it changed.
// Idle while the tab is hidden or a change waits behind its 復原 notice.
export function useListWatch(permanent: Record<string, unknown>) {
  const { filterValues, sort, data, total, page, isPending } = useListContext();
  const dataProvider = useDataProvider();
  const refresh = useRefresh();
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const key = JSON.stringify({ filter: { ...filterValues, ...permanent }, sort });
  // the list's own first page: the first load costs no extra request, and a report sent meanwhile is not missed
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!isPending && page === 1 && data) seen.current = signature(total, data[0]);
  }, [data, total, page, isPending]);

  useEffect(() => {
    const { filter, sort: order } = JSON.parse(key) as {
      filter: Record<string, unknown>;
      sort: { field: string; order: 'ASC' | 'DESC' };
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const visible = () => document.visibilityState === 'visible';
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && visible()) timer = setTimeout(look, WATCH_MS);
    };
    async function look() {
      if (stopped || !visible()) return;
      if (!undoPending()) {
        try {
          const { data, total } = await dataProvider.getList('payments', {
            pagination: { page: 1, perPage: 1 },
            sort: order,
            filter,
          });
          const now = signature(total, data[0]);
          if (seen.current !== null && now !== seen.current && !stopped && !undoPending()) refreshRef.current();
          seen.current = now;
        } catch {
          // offline or signed out: the page's own requests will say so
        }
      }
      schedule();
    }
    const onVisibility = () => (visible() ? void look() : clearTimeout(timer));
    document.addEventListener('visibilitychange', onVisibility);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [key, dataProvider]);
}

function signature(total: number | undefined, first: unknown): string {
  const r = (first ?? {}) as { id?: unknown; status?: unknown; note?: unknown; updated_at?: unknown };
  return JSON.stringify([total ?? null, r.id ?? null, r.status ?? null, r.note ?? null, r.updated_at ?? null]);
}
