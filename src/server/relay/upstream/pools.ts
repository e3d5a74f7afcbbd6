/**
 * One undici Pool per upstream origin, kept for the life of the process, so every request to
 * a provider reuses warm keep-alive connections instead of paying a TCP/TLS handshake. A call
 * of a channel with a proxy goes through that proxy's dispatcher instead (proxy-dispatchers.ts:
 * one per proxy, one pool per origin inside, same options).
 * Timeouts: the wait for response headers is RELAY_TIMEOUT when set (else undici's 300 s);
 * body reading has no undici timeout — the relay runs its own inactivity timer
 * (STREAMING_TIMEOUT) so it can still finish and bill a stream that went silent.
 * WebSocket upstreams (`ws://`, `wss://`) take websocket.ts, behind the same interface.
 */
import { Pool, type Dispatcher } from 'undici';
import type { UpstreamAbort } from './abort';
import { UpstreamBody } from './body';
import { ProxyDispatchers } from './proxy-dispatchers';
import { withoutProxySecrets } from './proxy-url';
import { websocketCall } from './websocket';
import type { UpstreamCall, UpstreamResponse } from './call';

/**
 * Connections per origin: not limited (as Go's default transport in the reference). A stream
 * holds its connection for as long as the model writes, so any bound would queue the streams
 * beyond it behind the running ones.
 */
const CONNECTIONS_PER_ORIGIN = null;
/** Distinct upstream URLs remembered (cleared when full); keys travel in headers, never in URLs. */
const URL_CACHE = 1024;

/**
 * One call through a pool, as undici's dispatch handler: the answer resolves at its headers,
 * its body is an UpstreamBody fed from here. (undici's request() would add a Readable and an
 * AsyncResource per answer; see body.ts.)
 */
class RelayExchange implements Dispatcher.DispatchHandler {
  #body: UpstreamBody | undefined;

  constructor(
    private readonly signal: UpstreamAbort,
    private readonly resolve: (response: UpstreamResponse) => void,
    private readonly reject: (err: Error) => void,
    private readonly proxy?: string,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.signal.bind((reason) => controller.abort(reason));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return; // 1xx: the answer is still to come
    this.#body = new UpstreamBody(
      () => controller.resume(),
      (reason) => controller.abort(reason),
    );
    this.resolve({ statusCode, headers, body: this.#body });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#body!.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.signal.bind(undefined);
    this.#body!.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.signal.bind(undefined);
    if (this.proxy) err.message = withoutProxySecrets(err.message, this.proxy);
    if (this.#body) this.#body.fail(err);
    else this.reject(err);
  }
}

export class UpstreamPools {
  readonly #pools = new Map<string, Pool>();
  readonly #options: Pool.Options;
  readonly #proxies: ProxyDispatchers;

  constructor(headersTimeoutMs: number) {
    this.#options = { connections: CONNECTIONS_PER_ORIGIN, keepAliveTimeout: 30_000, headersTimeout: headersTimeoutMs, bodyTimeout: 0 };
    this.#proxies = new ProxyDispatchers(this.#options);
  }

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, this.#options);
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /**
   * The dispatcher of a channel's proxy for callers of undici's `request()` (balances, model
   * lists, task calls); undefined without a proxy (undici's global dispatcher). Throws a
   * ProxyUrlError (proxy-url.ts) for an unusable address: never a silent direct call instead.
   */
  proxyDispatcher(proxy: string | undefined): Dispatcher | undefined {
    return proxy ? this.#proxies.get(proxy) : undefined;
  }

  /** Origin and path of the URLs seen last (few per channel): parsed once, not per request. */
  readonly #urls = new Map<string, { origin: string; path: string }>();

  #split(raw: string): { origin: string; path: string } {
    let split = this.#urls.get(raw);
    if (!split) {
      const url = new URL(raw);
      split = { origin: url.origin, path: url.pathname + url.search };
      if (this.#urls.size >= URL_CACHE) this.#urls.clear();
      this.#urls.set(raw, split);
    }
    return split;
  }

  /** Sends the request; resolves when the response headers arrived (the body is a stream). */
  async request(call: UpstreamCall): Promise<UpstreamResponse> {
    // `ws://` and `wss://` (Xunfei Spark): one character looked at on the HTTP path.
    if (call.url.charCodeAt(0) === 0x77) return websocketCall(call);
    const url = this.#split(call.url);
    let { headers, body } = call;
    if (body instanceof FormData) {
      // Node's global FormData belongs to its bundled undici, which this undici cannot encode:
      // the platform's Response writes the multipart body (and its boundary) instead.
      const encoded = new Response(body);
      headers = { ...headers, 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data' };
      body = new Uint8Array(await encoded.arrayBuffer());
    }
    const options: Dispatcher.DispatchOptions = { path: url.path, method: call.method, headers, body: body as Dispatcher.DispatchOptions['body'] };
    let dispatcher: Dispatcher;
    if (call.proxy) {
      dispatcher = this.#proxies.get(call.proxy);
      // An agent picks the origin's pool from the request.
      options.origin = url.origin;
    } else {
      dispatcher = this.#pool(url.origin);
    }
    return new Promise<UpstreamResponse>((resolve, reject) => {
      dispatcher.dispatch(options, new RelayExchange(call.signal, resolve, reject, call.proxy));
    });
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all([...pools.map((p) => p.destroy().catch(() => undefined)), this.#proxies.close()]);
  }
}
