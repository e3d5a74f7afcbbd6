/**
 * The stored options (GET /api/option/, admins; secrets blank with `is_set`) by key, with a
 * reload and a way to record what a section saved so a re-rendered section starts from it.
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../state/wire';
import type { OptionEntry } from './form-values';

export interface OptionEntries {
  entries: Map<string, OptionEntry> | undefined;
  error: string;
  /** Increases on every load, so sections can start again from the new values. */
  version: number;
  reload: () => void;
  recordSaved: (rows: OptionEntry[]) => void;
}

export function useOptionEntries(): OptionEntries {
  const [entries, setEntries] = useState<Map<string, OptionEntry>>();
  const [error, setError] = useState('');
  const [version, setVersion] = useState(0);

  const reload = useCallback(() => {
    api
      .request<OptionEntry[]>('get', '/api/option/')
      .then((rows) => {
        setEntries(new Map((Array.isArray(rows) ? rows : []).map((r) => [r.key, r])));
        setError('');
        setVersion((v) => v + 1);
      })
      .catch((err: Error) => setError(err.message));
  }, []);

  useEffect(reload, [reload]);

  const recordSaved = useCallback((rows: OptionEntry[]) => {
    setEntries((current) => {
      const next = new Map(current);
      for (const row of rows) next.set(row.key, row);
      return next;
    });
  }, []);

  return { entries, error, version, reload, recordSaved };
}
