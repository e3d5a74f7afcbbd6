/**
 * The console's one data provider: refine's REST provider (`@refinedev/simple-rest`) over the
 * console's HTTP client, which already unwraps envelopes and turns failures into `HttpError`s.
 * The library keeps what matches the wire (`GET <collection>/<id>`, `POST <collection>`,
 * `DELETE <collection>/<id>`), handed the declared collection instead of refine's resource
 * name; only what differs is written here:
 * - lists and search: `p` from 0 and `page_size`, the search route, `{items, total}` replies;
 * - updates: `PUT <collection>` with the id in the body, or status-only (`meta.statusOnly`);
 * - `custom`: a resource's named endpoint (`meta.resource` + `meta.endpoint`), or a URL;
 * - no `getMany` (the wire has no several-ids route): refine asks `getOne` for each id.
 */
import type { BaseRecord, DataProvider } from '@refinedev/core';
import simpleRest from '@refinedev/simple-rest';
import type { AxiosInstance } from 'axios';
import { createHttpClient } from './http-client';
import { API_ROOT, bodyFor, type Call, buildUrl, collectionOf, endpointCall, findResource, listUrl, toListResult, type Query } from './mappings';
import type { WireDeps } from './replies';

export function createDataProvider(deps: WireDeps, httpClient: AxiosInstance = createHttpClient(deps)): DataProvider {
  const rest = simpleRest(API_ROOT, httpClient);
  const declared = (name: string) => findResource(deps.resources, name);
  const collection = (name: string) => collectionOf(declared(name).api);

  return {
    ...rest,
    getMany: undefined,
    getOne: (params) => rest.getOne({ ...params, resource: collection(params.resource) }),
    create: (params) => rest.create({ ...params, resource: collection(params.resource) }),
    deleteOne: (params) => rest.deleteOne({ ...params, resource: collection(params.resource) }),

    async getList<TData extends BaseRecord>({ resource, pagination, filters, meta }: Parameters<DataProvider['getList']>[0]) {
      // `meta.api`: the collection for this user's role (logs: /api/log/ or /api/log/self/).
      const own = meta?.api ? { ...declared(resource), api: String(meta.api) } : declared(resource);
      const { data } = await httpClient.get(listUrl(own, pagination, filters, meta?.query as Query | undefined));
      return toListResult<TData>(data);
    },

    async update<TData extends BaseRecord>({ resource, id, variables, meta }: Parameters<DataProvider['update']>[0]) {
      const vars = variables as Record<string, unknown>;
      const statusOnly = Boolean(meta?.statusOnly);
      const body = statusOnly ? { id: Number(id), status: vars.status } : { ...vars, id: Number(id) };
      const { data } = await httpClient.put(buildUrl(declared(resource).api, statusOnly ? { status_only: 'true' } : undefined), body);
      return { data: (data ?? body) as TData };
    },

    async custom<TData extends BaseRecord>({ url, method, payload, query, meta }: Parameters<NonNullable<DataProvider['custom']>>[0]) {
      const call: Call = meta?.resource && meta?.endpoint ? endpointCall(deps.resources, meta.resource, meta.endpoint, meta.id) : { method, path: url };
      const { data } = await httpClient.request<TData>({
        method: call.method,
        url: buildUrl(call.path, { ...call.query, ...(query as Query | undefined) }),
        data: bodyFor(call.method, payload),
        whole: Boolean(meta?.whole),
      });
      return { data };
    },
  };
}
