/** An invitation code from `?aff=` is kept locally for a later registration (docs/console.md#account-pages). */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { readText, STORAGE_KEYS, writeText } from '../../storage';

export function useRememberedAff(): string {
  const [params] = useSearchParams();
  const fromQuery = params.get('aff') ?? '';
  useEffect(() => {
    if (fromQuery) writeText(STORAGE_KEYS.aff, fromQuery);
  }, [fromQuery]);
  return fromQuery || readText(STORAGE_KEYS.aff) || '';
}
