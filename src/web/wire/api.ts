/**
 * The hand-written pages' transport: `api.request` for any /api call. Plain fetch, so the
 * public screens (sign-in first) carry no HTTP library, and no resource declarations (a
 * resource's named endpoints are refine's provider's: `data-provider.ts`); refine's provider
 * sends through `http-client.ts` under the same rules (`replies.ts`).
 */
import { bodyFor, buildUrl, type Method, type Query } from './mappings';
import { judgeReply, parseBody, requestHeaders, transportError, type TransportDeps } from './replies';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Answer the whole reply instead of its `data` (replies with fields beside it: test time, balance). */
  whole?: boolean;
}

export interface Api {
  request<T = unknown>(method: Method, path: string, options?: RequestOptions): Promise<T>;
}

export function createApi(deps: TransportDeps): Api {
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

  return { request };
}
