/**
 * The first request of a resource list, known from the address alone: what `ResourceList`
 * asks for when it mounts (page 1 in the remembered page size, the search form's defaults,
 * the remembered switches, the collection for the role). The entry starts it while the
 * screen's scripts load (`screen-preload.ts`, `wire/prefetch.ts`), so the rows can come with
 * the screen's first render rather than a render later. Built with the data provider's own
 * URL rules; should the two ever differ, the list simply asks again.
 */
import dayjs, { type Dayjs } from 'dayjs';
import { RESOURCES } from '../../../resources';
import type { ResourceDefinition } from '../../shared/resources/definition';
import { getStoredUser, hasRole } from '../auth-provider';
import { matchesPattern } from '../route-pattern';
import { transportDeps } from '../state/wire';
import { listUrl } from '../wire/mappings';
import { prefetch } from '../wire/prefetch';
import { requestHeaders } from '../wire/replies';
import { loadPageSize } from './list-prefs';
import { apiFor, forRole, searchDefaults, toggleQuery, valuesToFilters } from './list-query';
import { initialToggles } from './use-list-toggles';

/**
 * The time a prefetched list's search defaults were taken at ("now + 1 h" must be the same
 * second in both requests): the list mounting next takes it (once), any other uses the clock.
 */
let clock: { resource: string; now: Dayjs } | undefined;

/** The "now" of the search defaults of the list of `resource` that is mounting. */
export function listClock(resource: string): Dayjs {
  const taken = clock?.resource === resource ? clock.now : undefined;
  clock = undefined;
  return taken ?? dayjs();
}

/** The list's first request for `role` at `now` (the query `useTable` and the data provider make of it). */
export function firstListUrl(resource: ResourceDefinition, role: number, now: Dayjs): string {
  const filters = valuesToFilters(searchDefaults(forRole(resource.search?.fields, role), now));
  const own = { api: apiFor(resource, role), search: resource.search };
  return listUrl(own, { currentPage: 1, pageSize: loadPageSize() }, filters, toggleQuery(initialToggles(resource.toggles)));
}

/** Starts the first request of the list at `pathname`, if it is a list the signed-in user may see. */
export function prefetchFirstList(pathname: string): void {
  const user = getStoredUser();
  const resource = RESOURCES.find((r) => matchesPattern(r.routes.list, pathname));
  if (!user || !resource || !hasRole(user, resource.minRole)) return;
  const now = dayjs();
  clock = { resource: resource.name, now };
  prefetch(firstListUrl(resource, user.role, now), (url) => window.fetch(url, { headers: requestHeaders(transportDeps), credentials: 'same-origin' }));
}
