/**
 * The HTTP client refine's REST provider (`@refinedev/simple-rest`) sends through: the axios
 * instance it takes, holding the console's wire rules (`replies.ts`). Requests carry
 * `New-Api-User`; every reply is judged here, so the provider's `{data}` is the envelope's
 * `data` and a failure reaches refine as an `ApiError` (its `HttpError`) with the server's
 * message; a 401 signs the visitor out. Only the signed-in screens load it (refine's chunk).
 */
import axios, { type AxiosInstance } from 'axios';
import { judgeReply, parseBody, requestHeaders, transportError, type WireDeps } from './replies';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Answer the whole reply instead of its `data` (replies with fields beside it: test time, balance). */
    whole?: boolean;
  }
}

export function createHttpClient(deps: WireDeps): AxiosInstance {
  const client = axios.create({
    baseURL: deps.origin,
    // The same `fetch` as the pages' transport: one way out of the console.
    adapter: 'fetch',
    env: { fetch: deps.fetch },
    responseType: 'text',
    transformResponse: (text: unknown) => parseBody(text),
    // Every status is a reply to judge (a 200 may be `success: false`, a 429 has its own text).
    validateStatus: () => true,
  });
  client.interceptors.request.use((config) => {
    config.headers.set(requestHeaders(deps));
    return config;
  });
  client.interceptors.response.use(
    (response) => {
      const data = judgeReply(deps, response.status, response.data);
      if (!response.config.whole) response.data = data;
      return response;
    },
    (err: unknown) => Promise.reject(transportError(deps, err)),
  );
  return client;
}
