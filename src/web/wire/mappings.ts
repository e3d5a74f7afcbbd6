/**
 * How refine's questions map onto the wire's addresses and answers, pure:
 * - lists take `p` (first page 0) and `page_size`, and answer `{items, total, page, page_size}`;
 * - a resource's search route is used whenever a search value is set;
 * - resources name their extra endpoints (`manage`) by method, path and fixed query.
 * The page transport (`api.ts`) and refine's data provider (`data-provider.ts`) both use these.
 */
import type { CrudFilter, Pagination } from '@refinedev/core';
import type { EndpointDef } from '../../shared/resources/common';
import type { ResourceDefinition } from '../../shared/resources/definition';
import { ApiError } from './replies';

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';
export type Query = Record<string, string | number | boolean | undefined | null>;

/** refine's 1-based page → the wire's `p` (0-based) and `page_size`. */
export function toPageQuery(pagination?: Pagination): { p: number; page_size: number } {
  const current = pagination?.currentPage ?? 1;
  return { p: Math.max(0, current - 1), page_size: pagination?.pageSize ?? 10 };
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Search values as query parameters; blank ones are dropped, lists are comma-joined. */
export function filtersToQuery(filters: CrudFilter[] | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  for (const filter of filters ?? []) {
    if (!('field' in filter) || isBlank(filter.value)) continue;
    query[filter.field] = Array.isArray(filter.value) ? filter.value.join(',') : String(filter.value);
  }
  return query;
}

/** `/api/user/` + `search` → `/api/user/search`; `:id` is replaced. */
export function joinPath(api: string, path: string, id?: string | number): string {
  const base = api.endsWith('/') ? api : `${api}/`;
  const rel = path.replace(/^\//, '').replace(':id', id === undefined ? '' : encodeURIComponent(String(id)));
  return base + rel;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** GET and HEAD carry no body (an action's empty body is dropped, not refused by fetch). */
export function bodyFor(method: Method, body: unknown): unknown {
  return method === 'get' || method === 'head' ? undefined : body;
}

/** The declaration of a resource, or a plain `/api/<name>/` collection for undeclared ones. */
export function findResource(resources: ResourceDefinition[], name: string): Pick<ResourceDefinition, 'api' | 'search' | 'endpoints'> {
  return resources.find((r) => r.name === name) ?? { api: `/api/${name}/` };
}

/** The root every collection sits under, as refine's REST provider takes it (`<root>/<collection>/<id>`). */
export const API_ROOT = '/api';

/**
 * A collection as refine's REST provider names a resource: its declared path under
 * `API_ROOT`, without the slashes around it (`/api/task/self/` → `task/self`), so the provider's
 * `<root>/<collection>/<id>` is the record's route (`/api/task/self/7`).
 */
export function collectionOf(api: string): string {
  if (!api.startsWith(`${API_ROOT}/`)) throw new Error(`${api}: a collection lies under ${API_ROOT}/`);
  return api.slice(API_ROOT.length + 1).replace(/\/+$/, '');
}

/**
 * The list URL: the search route when a search value is set and the resource has one; `query`
 * (the list's switches, `id_sort=true`) after the page and the search. The data provider and
 * the entry's prefetch of a list's first page (`crud/first-list.ts`) both build it here.
 */
export function listUrl(resource: Pick<ResourceDefinition, 'api' | 'search'>, pagination: Pagination | undefined, filters: CrudFilter[] | undefined, query?: Query): string {
  const search = filtersToQuery(filters);
  const searching = Object.keys(search).length > 0;
  const path = searching && resource.search?.path ? joinPath(resource.api, resource.search.path) : resource.api;
  return buildUrl(buildUrl(path, { ...toPageQuery(pagination), ...search }), query);
}

/** A list reply (`{items, total}`, or a bare array) → refine's `{data, total}`. */
export function toListResult<T>(data: unknown): { data: T[]; total: number } {
  if (Array.isArray(data)) return { data: data as T[], total: data.length };
  const page = (data ?? {}) as { items?: T[] | null; total?: number };
  const items = page.items ?? [];
  return { data: items, total: typeof page.total === 'number' ? page.total : items.length };
}

/** A call's method, path and fixed query. */
export interface Call {
  method: Method;
  path: string;
  query?: Query;
}

/** A resource's named endpoint (`manage`) for the record `id`. */
export function endpointCall(resources: ResourceDefinition[], resourceName: string, name: string, id?: string | number): Call {
  const resource = findResource(resources, resourceName);
  const def: EndpointDef | undefined = resource.endpoints?.[name];
  if (!def) throw new ApiError(`${resourceName}: no endpoint "${name}"`, 0);
  return { method: def.method, path: joinPath(resource.api, def.path, id), query: def.query };
}
