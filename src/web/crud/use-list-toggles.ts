/** The list's switches (`id_sort`, `tag_mode`), each remembered locally when it names a key (`id-sort`). */
import { useState } from 'react';
import type { ListToggleDef } from '../../shared/resources/lists';
import { readText, writeText } from '../storage';

export function useListToggles(toggles: readonly ListToggleDef[] | undefined): [Record<string, boolean>, (param: string, on: boolean) => void] {
  const [state, setState] = useState<Record<string, boolean>>(() => Object.fromEntries((toggles ?? []).map((t) => [t.param, t.storageKey ? readText(t.storageKey) === 'true' : false])));
  const set = (param: string, on: boolean) => {
    const def = toggles?.find((t) => t.param === param);
    if (def?.storageKey) writeText(def.storageKey, String(on));
    setState((s) => ({ ...s, [param]: on }));
  };
  return [state, set];
}
