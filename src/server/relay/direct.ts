/**
 * The direct path: the relay's busiest routes answered straight from Node's http server,
 * ahead of Fastify. The framework's per-request lifecycle (routing, hooks, body parser,
 * reply bookkeeping) measured about 15 µs of CPU per request here, a tenth of a relayed
 * request; the relay needs none of it for a plain API call. The pipeline is the very same
 * (relayWithToken), and so are the answers: the request id header, the error shapes and
 * statuses, the body limit.
 *
 * Anything out of the ordinary goes the Fastify way, which handles it in full: a query
 * string, a compressed or length-less (chunked) body, a body over the limit, no JSON content
 * type, a browser (Origin: CORS), trusted proxies (the client address comes from headers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayRuntime } from './runtime';
import { ENDPOINTS, type EndpointSpec } from './pipeline/endpoints';
import type { RelayReply } from './pipeline/exchange';
import type { RawBody } from './pipeline/body';
import { relayWithToken } from './pipeline/relay';
import { assignRequestId } from './pipeline/request-context';
import { REQUEST_ID_HEADER } from './request-id';
import { refuse, type RelayError } from './errors';
import { relayErrorBody, toRelayError } from './routes';
import { finishIfSilent } from './silent-reply';

/** Served directly: POST with exactly these paths. */
const DIRECT_ROUTES: ReadonlyMap<string, EndpointSpec> = new Map<string, EndpointSpec>([
  ['/v1/chat/completions', ENDPOINTS.chat],
  ['/v1/completions', ENDPOINTS.completions],
  ['/v1/embeddings', ENDPOINTS.embeddings],
  ['/v1/messages', ENDPOINTS.messages],
  ['/v1/responses', ENDPOINTS.responses],
]);

/** Handles the request when it is one for the direct path (answers true), else leaves it. */
export interface DirectHandler {
  (req: IncomingMessage, res: ServerResponse): boolean;
  /** Requests taken so far (diagnostics, tests). */
  served: number;
}

export function directRelay(rt: RelayRuntime): DirectHandler {
  const limit = rt.ctx.config.bodyLimit;
  const direct = rt.ctx.config.trustedProxies.length === 0;
  const handler: DirectHandler = Object.assign(
    (req: IncomingMessage, res: ServerResponse): boolean => {
      if (!direct || !takes(req, limit)) return false;
      handler.served++;
      void serve(rt, DIRECT_ROUTES.get(req.url!)!, req, res, Number(req.headers['content-length']));
      return true;
    },
    { served: 0 },
  );
  return handler;
}

function takes(req: IncomingMessage, limit: number): boolean {
  if (req.method !== 'POST' || !DIRECT_ROUTES.has(req.url ?? '')) return false;
  const h = req.headers;
  if (h.origin !== undefined || h['content-encoding'] !== undefined) return false;
  if (!h['content-type']?.toLowerCase().startsWith('application/json')) return false;
  const length = Number(h['content-length']);
  return Number.isInteger(length) && length >= 0 && length <= limit;
}

class DirectReply implements RelayReply {
  #taken = false;

  constructor(
    readonly raw: ServerResponse,
    private readonly headers: Record<string, string>,
  ) {}

  hijack(): void {
    this.#taken = true;
  }

  getHeaders(): Record<string, string> {
    return this.headers;
  }

  get statusCode(): number {
    return this.raw.statusCode;
  }

  get sent(): boolean {
    return this.#taken || this.raw.headersSent;
  }
}

/** The whole body, which must have the announced length (Fastify's rule: 400 otherwise). */
function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (received !== length) reject(refuse(400, 'Invalid request, 无效的请求, Request body size did not match Content-Length', 'invalid_request'));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    });
    req.on('error', reject);
  });
}

async function serve(rt: RelayRuntime, spec: EndpointSpec, req: IncomingMessage, res: ServerResponse, length: number): Promise<void> {
  const request: { headers: IncomingMessage['headers']; body: RawBody | undefined; ip: string; query: Record<string, string> } = {
    headers: req.headers,
    body: undefined,
    ip: req.socket.remoteAddress ?? '',
    query: {},
  };
  const reply = new DirectReply(res, { [REQUEST_ID_HEADER]: assignRequestId(request) });
  try {
    request.body = { raw: await readBody(req, length), contentType: req.headers['content-type'] ?? '' };
    await relayWithToken(rt, spec, request, reply);
    finishIfSilent(reply);
  } catch (err) {
    sendError(toRelayError(err, request, rt), spec, reply);
  }
}

function sendError(error: RelayError, spec: EndpointSpec, reply: DirectReply): void {
  const res = reply.raw;
  // A stream already under way cannot change its status: end it.
  if (reply.sent) {
    if (!res.writableEnded) res.end();
    return;
  }
  if (res.destroyed) return;
  const requestId = reply.getHeaders()[REQUEST_ID_HEADER]!;
  const body = JSON.stringify(relayErrorBody(error, spec.clientFormat, requestId));
  const headers: Record<string, string | number> = { ...reply.getHeaders(), 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter);
  res.writeHead(error.status, headers);
  res.end(body);
}
