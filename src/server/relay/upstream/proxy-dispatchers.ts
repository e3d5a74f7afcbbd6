/**
 * One undici dispatcher per channel proxy, kept for the life of the process like the direct
 * pools: inside it one connection pool per upstream origin, so calls through the same proxy
 * to the same provider reuse their warm tunnels. http/https proxies go through undici's
 * ProxyAgent (a CONNECT tunnel per connection, also for http upstreams); SOCKS5 proxies
 * through an Agent whose connections are opened by `socksConnector`.
 */
import { Agent, ProxyAgent, type Dispatcher, type Pool } from 'undici';
import { parseProxyUrl } from './proxy-url';
import { socksConnector } from './socks-connector';

/**
 * Distinct proxies kept. Channels name few; past this (many edits of proxy addresses) the
 * oldest is closed, which lets its calls in flight finish first.
 */
const MAX_PROXIES = 64;

export class ProxyDispatchers {
  readonly #byUrl = new Map<string, Dispatcher>();

  /** `pool`: the options of each origin's pool, as for direct calls. */
  constructor(private readonly pool: Pool.Options) {}

  /** The dispatcher for `raw` (made at its first use); throws a ProxyUrlError for an unusable address. */
  get(raw: string): Dispatcher {
    let dispatcher = this.#byUrl.get(raw);
    if (dispatcher) return dispatcher;
    const url = parseProxyUrl(raw);
    dispatcher = url.protocol === 'http:' || url.protocol === 'https:' ? new ProxyAgent({ ...this.pool, uri: url.href }) : new Agent({ ...this.pool, connect: socksConnector(url) });
    if (this.#byUrl.size >= MAX_PROXIES) {
      const [oldest, old] = this.#byUrl.entries().next().value as [string, Dispatcher];
      this.#byUrl.delete(oldest);
      old.close().catch(() => undefined);
    }
    this.#byUrl.set(raw, dispatcher);
    return dispatcher;
  }

  async close(): Promise<void> {
    const all = [...this.#byUrl.values()];
    this.#byUrl.clear();
    await Promise.all(all.map((d) => d.destroy().catch(() => undefined)));
  }
}
