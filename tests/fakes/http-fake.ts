/**
 * A tiny HTTP server for provider fakes on 127.0.0.1 (ephemeral port): routes by method and
 * path pattern, records every request, and serves scripted replies (see script.ts).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ScriptEntry, type ScriptQueue, type ScriptedReply, sleep } from './script';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body as text ('' when none). */
  body: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: unknown;
  /** Captures of the route pattern. */
  params: string[];
}

export type RouteHandler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeHttpServer {
  url: string;
  requests: RecordedRequest[];
  /** Adds a route; a string path matches exactly, a RegExp matches the whole path. Later routes win. */
  route(method: string, path: string | RegExp, handler: RouteHandler): void;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, body: string, contentType = 'text/plain'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

/** Applies the reply's first-byte delay. */
export async function firstByteDelay(ms: number | undefined): Promise<void> {
  if (ms) await sleep(ms);
}

export async function startFakeHttpServer(notFound: (request: RecordedRequest, res: ServerResponse) => void): Promise<FakeHttpServer> {
  const routes: { method: string; match: (path: string) => string[] | undefined; handler: RouteHandler }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = body ? JSON.parse(body) : undefined;
        } catch {
          json = undefined;
        }
        const request: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, json, params: [] };
        fake.requests.push(request);
        for (let i = routes.length - 1; i >= 0; i--) {
          const route = routes[i];
          if (route.method !== request.method) continue;
          const params = route.match(request.path);
          if (!params) continue;
          request.params = params;
          return route.handler(request, res);
        }
        notFound(request, res);
      })().catch(() => {
        if (!res.headersSent) sendJson(res, 500, { error: 'fake upstream failure' });
        else res.destroy();
      });
    });
  });
  const fake: FakeHttpServer = {
    url: '',
    requests: [],
    route(method, path, handler) {
      const match =
        typeof path === 'string'
          ? (p: string) => (p === path ? [] : undefined)
          : (p: string) => {
              const m = new RegExp(`^(?:${path.source})$`).exec(p);
              return m ? m.slice(1) : undefined;
            };
      routes.push({ method: method.toUpperCase(), match, handler });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** What every scripted model-API fake has (see script.ts). */
export interface ScriptedFake {
  url: string;
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  defaultReply: ScriptedReply;
  close(): Promise<void>;
}

/** A fake's shared members over its server and script queue, with its own members (`own`'s getters stay getters). */
export function scriptedFake<T extends object>(server: FakeHttpServer, queue: ScriptQueue<RecordedRequest>, own: T): ScriptedFake & T {
  const base: ScriptedFake = {
    get url() {
      return server.url;
    },
    get requests() {
      return server.requests;
    },
    script: (...replies) => queue.push(...replies),
    get defaultReply() {
      return queue.defaultReply;
    },
    set defaultReply(reply) {
      queue.defaultReply = reply;
    },
    close: () => server.close(),
  };
  return Object.defineProperties(base, Object.getOwnPropertyDescriptors(own)) as ScriptedFake & T;
}
