/**
 * What the relay pipeline needs of a request and its reply: a narrow view that Fastify's
 * request/reply satisfy, and so does the direct path (direct.ts) that serves the hottest
 * routes straight from Node's http server.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

export interface RelayRequest {
  readonly headers: IncomingHttpHeaders;
  /** What the relay's body parser stored (see body.ts). */
  readonly body: unknown;
  /** The client's address (after trusted proxies). */
  readonly ip: string;
  readonly query: unknown;
}

export interface RelayReply {
  /** The response the pipeline writes to once it answers. */
  readonly raw: ServerResponse;
  /** Takes the response over from the framework (the pipeline writes `raw` itself). */
  hijack(): unknown;
  /** Headers set before the pipeline ran (request id, CORS). */
  getHeaders(): Record<string, unknown>;
  readonly statusCode: number;
  /** Something was sent, or the response was taken over. */
  readonly sent: boolean;
}

/**
 * The reply's headers followed by `own` (which win over a reply header of the same name), as
 * the flat [name, value, …] list `writeHead` takes: no merged object is built per answer.
 */
export function headerList(reply: RelayReply, own: Readonly<Record<string, string | number>>): (string | number)[] {
  const list: (string | number)[] = [];
  const set = reply.getHeaders();
  for (const name in set) {
    const value = set[name];
    if (value === undefined || hasHeader(own, name)) continue;
    if (Array.isArray(value)) for (const v of value) list.push(name, String(v));
    else list.push(name, typeof value === 'number' ? value : String(value));
  }
  for (const name in own) list.push(name, own[name]!);
  return list;
}

function hasHeader(own: Readonly<Record<string, unknown>>, name: string): boolean {
  if (name in own) return true;
  const lower = name.toLowerCase();
  for (const key in own) if (key.toLowerCase() === lower) return true;
  return false;
}
