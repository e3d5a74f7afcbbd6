/**
 * A call to an upstream and its answer, the same whichever transport carries it: an undici
 * pool (pools.ts) or a WebSocket (websocket.ts).
 */
import type { UpstreamAbort } from './abort';
import type { UpstreamBody } from './body';

export interface UpstreamResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

export interface UpstreamCall {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** Cancels the request, before or after its answer started. */
  signal: UpstreamAbort;
  /** The channel's proxy (`setting.proxy`), if it has one. */
  proxy?: string;
}
