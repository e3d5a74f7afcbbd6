/** The list's switches (`id_sort`, `tag_mode`), each remembered locally when it names a key (`id-sort`). */
import { useState } from 'react';
import type { ListToggleDef } from '../../shared/resources/lists';
import { readText, writeText } from '../storage';

/** The switches as a list opens: the remembered ones as left, the others off. */
export function initialToggles(toggles: readonly ListToggleDef[] | undefined): Record<string, boolean> {
  return Object.fromEntries((toggles ?? []).map((t) => [t.param, t.storageKey ? readText(t.storageKey) === 'true' : false]));
}

export function useListToggles(toggles: readonly ListToggleDef[] | undefined): [Record<string, boolean>, (param: string, on: boolean) => void] {
  const [state, setState] = useState<Record<string, boolean>>(() => initialToggles(toggles));
  const set = (param: string, on: boolean) => {
    const def = toggles?.find((t) => t.param === param);
    if (def?.storageKey) writeText(def.storageKey, String(on));
    setState((s) => ({ ...s, [param]: on }));
  };
  return [state, set];
}
