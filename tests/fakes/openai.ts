/**
 * A minimal OpenAI-compatible upstream on 127.0.0.1 (ephemeral port), for tests.
 *
 * It is a small router: `fake.route(method, path, handler)` adds or replaces an endpoint,
 * so suites can extend it (chat, embeddings, broken replies) without touching this file.
 * Built in: `GET /v1/models` and Gemini's `GET /v1beta/openai/models` (ids prefixed
 * `models/`), both requiring `Authorization: Bearer <one of keys>`. Every request is
 * recorded in `requests`.
 *
 * The model endpoints (chat, completions, embeddings, images, audio, moderations, rerank, and
 * Azure deployment paths) come from openai-routes.ts, the Responses API from openai-responses.ts; `fake.script(reply)` queues what the
 * next of them answers (text, tool calls, usage, errors, slow or reset streams: script.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BILLING, installBillingRoutes, type FakeBilling } from './openai-billing';
import { installModelRoutes } from './openai-routes';
import { installResponsesRoutes } from './openai-responses';
import { type ScriptEntry, ScriptQueue, type ScriptedReply } from './script';

export interface FakeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The raw body ('' when none). */
  body: string;
  /** The body bytes (multipart uploads). */
  raw: Buffer;
  /** The Bearer token, or undefined. */
  bearer: string | undefined;
  /** The port the caller's connection came from (which proxy tunnel carried it: helpers/proxies.ts). */
  remotePort: number | undefined;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as they are. */
  body?: unknown;
}

export type FakeHandler = (request: FakeRequest, fake: FakeOpenAI, res: ServerResponse) => FakeReply | void | Promise<FakeReply | void>;

export interface FakeOpenAIOptions {
  /** Accepted API keys. */
  keys?: string[];
  /** Model ids served by the model lists. */
  models?: string[];
}

export interface FakeOpenAI {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:40123 */
  url: string;
  keys: Set<string>;
  models: string[];
  requests: FakeRequest[];
  /** Adds or replaces an endpoint. A handler that writes to `res` itself returns nothing. */
  route(method: string, path: string, handler: FakeHandler): void;
  /** Adds an endpoint for every path the pattern matches whole (used when no exact route does). */
  routePattern(method: string, pattern: RegExp, handler: FakeHandler): void;
  /** Queues the replies of the next model requests (first in, first out). */
  script(...replies: ScriptEntry<FakeRequest>[]): void;
  /** What model requests get when nothing is queued. */
  defaultReply: ScriptedReply;
  /** The OpenAI error reply for a missing or unknown key, or undefined when the key is good. */
  checkAuth(request: FakeRequest): FakeReply | undefined;
  /** What the dashboard billing endpoints answer (openai-billing.ts). */
  billing: FakeBilling;
  close(): Promise<void>;
}

export function openaiError(status: number, message: string, type = 'invalid_request_error', code: string | null = null): FakeReply {
  return { status, body: { error: { message, type, param: null, code } } };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: FakeReply): void {
  const isText = typeof reply.body === 'string';
  const payload = reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { 'content-type': isText ? 'text/plain' : 'application/json', ...reply.headers });
  res.end(payload);
}

function modelList(fake: FakeOpenAI, prefix: string): FakeReply {
  return {
    body: { object: 'list', data: fake.models.map((id) => ({ id: prefix + id, object: 'model', created: 1700000000, owned_by: 'fake' })) },
  };
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const routes = new Map<string, FakeHandler>();
  const patterns: { method: string; pattern: RegExp; handler: FakeHandler }[] = [];
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
  const queue = new ScriptQueue<FakeRequest>();

  const fake: FakeOpenAI = {
    url: '',
    keys: new Set(options.keys ?? ['sk-fake-good']),
    models: options.models ?? ['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small'],
    requests: [],
    route(method, path, handler) {
      routes.set(key(method, path), handler);
    },
    routePattern(method, pattern, handler) {
      patterns.push({ method: method.toUpperCase(), pattern, handler });
    },
    script: (...replies) => queue.push(...replies),
    get defaultReply() {
      return queue.defaultReply;
    },
    set defaultReply(reply) {
      queue.defaultReply = reply;
    },
    billing: { ...DEFAULT_BILLING },
    checkAuth(request) {
      if (request.bearer && fake.keys.has(request.bearer)) return undefined;
      return openaiError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Clients keep connections alive; they must not hold the close up.
        server.closeAllConnections();
      }),
  };

  fake.route('GET', '/v1/models', (request) => fake.checkAuth(request) ?? modelList(fake, ''));
  fake.route('GET', '/v1beta/openai/models', (request) => fake.checkAuth(request) ?? modelList(fake, 'models/'));
  installModelRoutes(fake, queue);
  installResponsesRoutes(fake, queue);
  installBillingRoutes(fake);

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const auth = req.headers.authorization;
      const raw = await readBody(req);
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: raw.toString('utf8'),
        raw,
        bearer: auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined,
        remotePort: req.socket.remotePort,
      };
      fake.requests.push(request);
      const handler = routes.get(key(request.method, request.path)) ?? patterns.find((p) => p.method === request.method && new RegExp(`^(?:${p.pattern.source})$`).test(request.path))?.handler;
      if (!handler) return send(res, openaiError(404, `Invalid URL (${request.method} ${request.path})`));
      const reply = await handler(request, fake, res);
      if (reply) send(res, reply);
    })().catch(() => {
      if (!res.headersSent) send(res, openaiError(500, 'fake upstream failure', 'server_error'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
