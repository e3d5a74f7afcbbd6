/**
 * An undici connector that opens each upstream connection through a SOCKS5 proxy: the `socks`
 * client sets the tunnel up (with the proxy's user:pass when the URL has them), then undici's
 * own connector speaks TLS to the upstream over it for https origins (its session cache, SNI
 * and certificate checks as on a direct connection). The upstream's host name is sent to
 * the proxy unresolved, for socks5 and socks5h alike.
 */
import { packageOnFirstUse } from '../../plumbing/on-first-use';
import { buildConnector } from 'undici';
import { decoded } from './proxy-url';

const socks = packageOnFirstUse<typeof import('socks')>('socks');

/** How long the proxy may take to open one tunnel (undici's own connect timeout). */
const TUNNEL_TIMEOUT_MS = 10_000;
const SOCKS_DEFAULT_PORT = 1080;

/** `[::1]` → `::1`: the SOCKS client wants the bare address. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export function socksConnector(proxy: URL): buildConnector.connector {
  const tls = buildConnector({ timeout: TUNNEL_TIMEOUT_MS });
  const via = {
    host: bareHost(proxy.hostname),
    port: Number(proxy.port) || SOCKS_DEFAULT_PORT,
    type: 5 as const,
    ...(proxy.username ? { userId: decoded(proxy.username), password: decoded(proxy.password) } : {}),
  };
  return (options, callback) => {
    const https = options.protocol === 'https:';
    const port = Number(options.port) || (https ? 443 : 80);
    socks()
      .SocksClient.createConnection({ proxy: via, command: 'connect', destination: { host: bareHost(options.hostname), port }, timeout: TUNNEL_TIMEOUT_MS, set_tcp_nodelay: true })
      .then(
        ({ socket }) => {
          if (!https) {
            callback(null, socket);
            return;
          }
          tls({ ...options, httpSocket: socket }, callback);
        },
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
      );
  };
}
