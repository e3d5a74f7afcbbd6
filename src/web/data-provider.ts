/**
 * The one place in the console that knows the wire (house rule 2):
 * - every /api reply is `{success, message, data}`; `success: false` becomes an `ApiError`
 *   carrying the server's message (translated through the `server` namespace when known);
 * - lists take `p` (first page 0) and `page_size`, and answer `{items, total, page, page_size}`;
 *   a resource's search route is used whenever a search value is set;
 * - updates may be status-only (`?status_only=true` with `{id, status}`), and resources name
 *   their extra endpoints (`manage`) that actions call through `custom`;
 * - every request carries `New-Api-User` with the stored user's id (-1 when none);
 * - 401 sends the visitor to `/login?expired=true`; 429, 500 and 405 get the seed's texts.
 * Pages call `api.request`; refine hooks call the `DataProvider`. Both share `send`.
 */
import type { BaseRecord, CrudFilter, DataProvider, HttpError, Pagination } from '@refinedev/core';
import type { Envelope } from '../shared/api/envelope';
import type { EndpointDef, ResourceDefinition } from '../shared/resources/definition';

export type Translate = (key: string, options?: Record<string, unknown>) => string;
export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';
export type Query = Record<string, string | number | boolean | undefined | null>;

/** An error the console shows: the message is ready for a toast. */
export class ApiError extends Error implements HttpError {
  statusCode: number;
  errors?: HttpError['errors'];
  constructor(message: string, statusCode: number, errors?: HttpError['errors']) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    if (errors) this.errors = errors;
  }
}

export interface WireDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** The stored user's id for `New-Api-User`, or undefined. */
  userId: () => number | undefined;
  translate: Translate;
  /** Called once a reply says the session is gone (HTTP 401). */
  onUnauthorized: () => void;
  resources: ResourceDefinition[];
}

// ---------------------------------------------------------------- pure mappings

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

/** The declaration of a resource, or a plain `/api/<name>/` collection for undeclared ones. */
export function findResource(resources: ResourceDefinition[], name: string): Pick<ResourceDefinition, 'api' | 'search' | 'endpoints'> {
  return resources.find((r) => r.name === name) ?? { api: `/api/${name}/` };
}

/** The list URL: the search route when a search value is set and the resource has one. */
export function listUrl(resource: Pick<ResourceDefinition, 'api' | 'search'>, pagination: Pagination | undefined, filters: CrudFilter[] | undefined): string {
  const search = filtersToQuery(filters);
  const searching = Object.keys(search).length > 0;
  const path = searching && resource.search?.path ? joinPath(resource.api, resource.search.path) : resource.api;
  return buildUrl(path, { ...toPageQuery(pagination), ...search });
}

/** A list reply (`{items, total}`, or a bare array) → refine's `{data, total}`. */
export function toListResult<T>(data: unknown): { data: T[]; total: number } {
  if (Array.isArray(data)) return { data: data as T[], total: data.length };
  const page = (data ?? {}) as { items?: T[] | null; total?: number };
  const items = page.items ?? [];
  return { data: items, total: typeof page.total === 'number' ? page.total : items.length };
}

/** The seed's texts for transport failures (seed 000 §8). */
const STATUS_TEXT: Record<number, string> = {
  401: 'errors.expired',
  405: 'errors.demoSite',
  429: 'errors.tooManyRequests',
  500: 'errors.serverError',
};

/** Turns one reply into its data or an `ApiError` with a message ready to show. */
export function unwrap<T>(status: number, body: unknown, translate: Translate): T {
  const envelope = body && typeof body === 'object' && 'success' in body ? (body as Envelope<T> & { errors?: HttpError['errors'] }) : undefined;
  const serverText = (message: string) => translate(message, { ns: 'server', keySeparator: false, defaultValue: message });
  if (STATUS_TEXT[status]) throw new ApiError(translate(STATUS_TEXT[status]), status);
  if (envelope) {
    if (envelope.success) return envelope.data as T;
    throw new ApiError(serverText(envelope.message || translate('errors.unknown')), status, envelope.errors);
  }
  if (status >= 200 && status < 300) return body as T;
  throw new ApiError(translate('errors.withPrefix', { message: `HTTP ${status}` }), status);
}

// ---------------------------------------------------------------- transport

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Answer the whole reply instead of its `data` (replies with fields beside it: test time, balance). */
  whole?: boolean;
}

export interface Api {
  request<T = unknown>(method: Method, path: string, options?: RequestOptions): Promise<T>;
  /** A resource's named endpoint (`manage`) for the record `id`. */
  endpoint<T = unknown>(resource: string, name: string, options?: RequestOptions & { id?: string | number }): Promise<T>;
}

export function createApi(deps: WireDeps): Api {
  async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { 'New-Api-User': String(deps.userId() ?? -1) };
    const init: RequestInit = { method: method.toUpperCase(), headers, credentials: 'same-origin' };
    // GET and HEAD carry no body (an action's empty body is dropped, not refused by fetch).
    if (options.body !== undefined && method !== 'get' && method !== 'head') {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await deps.fetch(buildUrl(path, options.query), init);
    } catch (err) {
      throw new ApiError(deps.translate('errors.withPrefix', { message: (err as Error).message }), 0);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (an empty 429, a proxy's HTML page): unwrap judges by the status alone.
    }
    if (response.status === 401) deps.onUnauthorized();
    const data = unwrap<T>(response.status, body, deps.translate);
    return options.whole ? (body as T) : data;
  }

  function endpoint<T>(resourceName: string, name: string, options: RequestOptions & { id?: string | number } = {}): Promise<T> {
    const resource = findResource(deps.resources, resourceName);
    const def: EndpointDef | undefined = resource.endpoints?.[name];
    if (!def) throw new ApiError(`${resourceName}: no endpoint "${name}"`, 0);
    return request<T>(def.method, joinPath(resource.api, def.path, options.id), {
      query: { ...def.query, ...options.query },
      body: options.body,
      whole: options.whole,
    });
  }

  return { request, endpoint };
}

// ---------------------------------------------------------------- refine

/** refine's data provider over `api`. `meta.statusOnly` makes `update` a status-only update. */
export function createDataProvider(deps: WireDeps, api: Api = createApi(deps)): DataProvider {
  const resourceOf = (name: string) => findResource(deps.resources, name);
  return {
    getApiUrl: () => '/api',

    async getList<TData extends BaseRecord>({ resource, pagination, filters, meta }: Parameters<DataProvider['getList']>[0]) {
      // `meta.api`: the collection path for this user's role (logs: /api/log/ or /api/log/self/).
      const declared = resourceOf(resource);
      const url = listUrl(meta?.api ? { ...declared, api: String(meta.api) } : declared, pagination, filters);
      return toListResult<TData>(await api.request('get', url, { query: meta?.query }));
    },

    async getOne<TData extends BaseRecord>({ resource, id }: Parameters<DataProvider['getOne']>[0]) {
      return { data: await api.request<TData>('get', joinPath(resourceOf(resource).api, String(id))) };
    },

    async create<TData extends BaseRecord>({ resource, variables }: Parameters<DataProvider['create']>[0]) {
      const data = await api.request<TData>('post', resourceOf(resource).api, { body: variables });
      return { data: (data ?? variables) as TData };
    },

    async update<TData extends BaseRecord>({ resource, id, variables, meta }: Parameters<DataProvider['update']>[0]) {
      const vars = variables as Record<string, unknown>;
      const statusOnly = Boolean(meta?.statusOnly);
      const body = statusOnly ? { id: Number(id), status: vars.status } : { ...vars, id: Number(id) };
      const query = statusOnly ? { status_only: 'true' } : undefined;
      const data = await api.request<TData>('put', resourceOf(resource).api, { body, query });
      return { data: (data ?? body) as TData };
    },

    async deleteOne<TData extends BaseRecord>({ resource, id }: Parameters<DataProvider['deleteOne']>[0]) {
      const data = await api.request<TData>('delete', joinPath(resourceOf(resource).api, `${id}/`));
      return { data: (data ?? { id }) as TData };
    },

    /** `meta.resource` + `meta.endpoint` call a named endpoint; otherwise `url` as given. */
    async custom<TData extends BaseRecord>({ url, method, payload, query, meta }: Parameters<NonNullable<DataProvider['custom']>>[0]) {
      const options = { body: payload, query: query as Query | undefined, whole: Boolean(meta?.whole) };
      if (meta?.resource && meta?.endpoint) {
        return { data: await api.endpoint<TData>(meta.resource, meta.endpoint, { ...options, id: meta.id }) };
      }
      return { data: await api.request<TData>(method, url, options) };
    },
  };
}
