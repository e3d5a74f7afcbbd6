/** Loads the usage rows of a range: administrators from `/api/data/` (optionally one username), others from `/api/data/self`. */
import { useCallback, useState } from 'react';
import { api } from '../../state/wire';
import type { UsageRow } from './dashboard-model';
import { useApp } from '../../state/feedback-app';

export interface UsageQuery {
  start: number;
  end: number;
  username?: string;
}

export function useUsageData(admin: boolean): { rows: UsageRow[]; loading: boolean; load: (q: UsageQuery) => void } {
  const { message } = useApp();
  const [rows, setRows] = useState<UsageRow[]>([]);
  const [loading, setLoading] = useState(false);
  const load = useCallback(
    ({ start, end, username }: UsageQuery) => {
      setLoading(true);
      const query = { start_timestamp: start, end_timestamp: end, ...(admin && username ? { username } : {}) };
      api
        .request<UsageRow[]>('get', admin ? '/api/data/' : '/api/data/self', { query })
        .then((data) => setRows(Array.isArray(data) ? data : []))
        .catch((err: Error) => void message.error(err.message))
        .finally(() => setLoading(false));
    },
    [admin, message],
  );
  return { rows, loading, load };
}
