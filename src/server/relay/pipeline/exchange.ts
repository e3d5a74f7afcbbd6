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
