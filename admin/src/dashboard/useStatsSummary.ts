import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { StatsSummary } from '../../../core/browser';
import { DASHBOARD_UI } from '../messages';
import type { RemitDataProvider } from '../providers/dataProvider';

export interface StatsParams {
  /** null: every store the user may see */
  store_id: number | null;
  /** Taiwan dates `YYYY-MM-DD`, inclusive; empty for no bound */
  from: string;
  to: string;
}

// Through react-admin's query cache, so the top bar's refresh fetches it again too. A failure is only logged:
// the last good numbers stay on screen.
export function useStatsSummary({ store_id, from, to }: StatsParams, enabled: boolean) {
  const dataProvider = useDataProvider<RemitDataProvider>();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['stats', 'summary', { store_id, from, to }],
    enabled,
    retry: false,
    queryFn: async (): Promise<StatsSummary | null> => {
      try {
        const summary = await dataProvider.statsSummary({ store_id, from: from || undefined, to: to || undefined });
        // after a 401 react-admin answers an empty object while it leaves for the login page
        return Array.isArray(summary?.storeStats) ? summary : null;
      } catch (err) {
        console.error(DASHBOARD_UI.loadFailed, err);
        throw err;
      }
    },
  });
  return {
    data: query.data ?? null,
    loading: query.isFetching,
    refresh: () => void client.invalidateQueries({ queryKey: ['stats'] }),
  }; // the charts too
}
