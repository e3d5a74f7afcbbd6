/**
 * What a list asks the server, from its declaration and the user: the collection path for
 * the user's role, the columns, filters and actions the role may see, the initial filter
 * values (date-time filters start relative to now) and search values as query filters.
 * Pure, so each rule is unit-tested.
 */
import type { CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import type { ResourceDefinition } from '../../shared/resources/definition';
import type { SearchFieldDef, TimeDefault } from '../../shared/resources/search';

/** Administrators read `adminApi` (every user's rows) when the resource has one. */
export function apiFor(resource: Pick<ResourceDefinition, 'api' | 'adminApi'>, role: number, adminRole = 10): string {
  return resource.adminApi && role >= adminRole ? resource.adminApi : resource.api;
}

/** Keeps the declared items whose `minRole` the role reaches. */
export function forRole<T extends { minRole?: number }>(items: readonly T[] | undefined, role: number): T[] {
  return (items ?? []).filter((item) => item.minRole === undefined || role >= item.minRole);
}

/** A relative start: today's midnight or now, moved by `offsetSeconds`. */
export function timeFromDefault(def: TimeDefault, now: Dayjs): Dayjs {
  const base = def.base === 'today' ? now.startOf('day') : now;
  return base.add(def.offsetSeconds ?? 0, 'second');
}

/** The search form's initial values: date-time filters with a default, as dayjs values. */
export function searchDefaults(fields: readonly SearchFieldDef[], now: Dayjs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f.kind === 'datetime' && f.defaultTime) out[f.field] = timeFromDefault(f.defaultTime, now);
  return out;
}

/** Search values as filters; date-times become unix seconds. */
export function valuesToFilters(values: Record<string, unknown>): CrudFilter[] {
  return Object.entries(values).map(([field, value]) => ({ field, operator: 'eq', value: dayjs.isDayjs(value) ? value.unix() : value }));
}

/** The query the list's toggles add (`id_sort=true`); switched-off toggles add nothing. */
export function toggleQuery(state: Record<string, boolean>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(state)
      .filter(([, on]) => on)
      .map(([param]) => [param, 'true']),
  );
}
