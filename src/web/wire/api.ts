/**
 * The hand-written pages' transport: `api.request` for any /api call, `api.endpoint` for a
 * resource's named endpoint. Plain fetch, so the public screens (sign-in first) carry no HTTP
 * library; refine's provider sends through `http-client.ts` under the same rules (`replies.ts`).
 */
import { bodyFor, buildUrl, endpointCall, type Method, type Query } from './mappings';
import { judgeReply, parseBody, requestHeaders, transportError, type WireDeps } from './replies';

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
    const headers = requestHeaders(deps);
    const init: RequestInit = { method: method.toUpperCase(), headers, credentials: 'same-origin' };
    const body = bodyFor(method, options.body);
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await deps.fetch(buildUrl(path, options.query), init);
    } catch (err) {
      throw transportError(deps, err);
    }
    const reply = parseBody(await response.text());
    const data = judgeReply<T>(deps, response.status, reply);
    return options.whole ? (reply as T) : data;
  }

  function endpoint<T>(resourceName: string, name: string, options: RequestOptions & { id?: string | number } = {}): Promise<T> {
    const call = endpointCall(deps.resources, resourceName, name, options.id);
    return request<T>(call.method, call.path, { query: { ...call.query, ...options.query }, body: options.body, whole: options.whole });
  }

  return { request, endpoint };
}
