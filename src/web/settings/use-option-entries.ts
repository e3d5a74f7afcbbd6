/**
 * The stored options by key, with a reload and a way to record what a section saved so a
 * re-rendered section starts from it. GET /api/option/ leaves the secrets out; GET
 * /api/option/secrets says which of them hold a value, kept here as blank entries with
 * `is_set` (a secret's value never reaches the console).
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../state/wire';
import type { OptionEntry } from './form-values';

interface SecretStatus {
  key: string;
  is_set: boolean;
}

/** Both lists, as one map: the secrets as blank entries that say whether they are set. */
async function loadEntries(): Promise<Map<string, OptionEntry>> {
  const [rows, secrets] = await Promise.all([api.request<OptionEntry[]>('get', '/api/option/'), api.request<SecretStatus[]>('get', '/api/option/secrets')]);
  const entries = new Map((Array.isArray(rows) ? rows : []).map((r) => [r.key, r]));
  for (const s of Array.isArray(secrets) ? secrets : []) entries.set(s.key, { key: s.key, value: '', is_set: s.is_set });
  return entries;
}

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
    loadEntries()
      .then((loaded) => {
        setEntries(loaded);
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
