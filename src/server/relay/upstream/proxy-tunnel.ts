/**
 * One raw connection to an upstream through a channel's proxy, for the callers that speak their
 * own protocol over it (the Realtime relay's WebSockets, which undici's dispatchers do not
 * carry): a CONNECT tunnel through an http/https proxy (Node's own client, with the proxy's
 * user:pass as Basic credentials) or a SOCKS5 tunnel (the `socks` client, as socks-connector.ts
 * opens them). TLS to the upstream is the caller's, over the socket answered here
 * (`webSocketThroughProxy` adds it for `ws` clients).
 */
import { packageOnFirstUse } from '../../plumbing/on-first-use';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import type WebSocket from 'ws';
import { decoded, parseProxyUrl, withoutProxySecrets } from './proxy-url';

const socks = packageOnFirstUse<typeof import('socks')>('socks');

/** How long the proxy may take to open the tunnel. */
const TUNNEL_TIMEOUT_MS = 10_000;
const SOCKS_DEFAULT_PORT = 1080;

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** A socket to `host:port` through the proxy `raw`; rejects (never goes direct) when it cannot. */
export async function proxyTunnel(raw: string, host: string, port: number): Promise<Socket> {
  const proxy = parseProxyUrl(raw);
  try {
    if (proxy.protocol === 'http:' || proxy.protocol === 'https:') return await connectTunnel(proxy, bareHost(host), port);
    const { socket } = await socks().SocksClient.createConnection({
      proxy: {
        host: bareHost(proxy.hostname),
        port: Number(proxy.port) || SOCKS_DEFAULT_PORT,
        type: 5,
        ...(proxy.username ? { userId: decoded(proxy.username), password: decoded(proxy.password) } : {}),
      },
      command: 'connect',
      destination: { host: bareHost(host), port },
      timeout: TUNNEL_TIMEOUT_MS,
      set_tcp_nodelay: true,
    });
    return socket;
  } catch (err) {
    throw new Error(withoutProxySecrets(`proxy tunnel failed: ${err instanceof Error ? err.message : String(err)}`, raw));
  }
}

function connectTunnel(proxy: URL, host: string, port: number): Promise<Socket> {
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username) headers['proxy-authorization'] = `Basic ${Buffer.from(`${decoded(proxy.username)}:${decoded(proxy.password)}`).toString('base64')}`;
  const request = proxy.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({
      host: bareHost(proxy.hostname),
      port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers,
      timeout: TUNNEL_TIMEOUT_MS,
      agent: false,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) {
        socket.setNoDelay(true);
        resolve(socket);
        return;
      }
      socket.destroy();
      reject(new Error(`the proxy answered ${res.statusCode ?? 0}`));
    });
    req.once('timeout', () => req.destroy(new Error('the proxy did not answer in time')));
    req.once('error', reject);
    req.end();
  });
}

/**
 * A `ws` client's `createConnection` that opens its connection through the channel's proxy
 * (never direct): the tunnel, then TLS over it for wss. `ws` hands the options of the HTTP
 * request it makes (host, port, TLS settings).
 */
export function webSocketThroughProxy(proxy: string, secure: boolean): NonNullable<WebSocket.ClientOptions['createConnection']> {
  const open = (options: TlsConnectionOptions & { host?: string; port?: number | string }, done: (err: Error | null, socket?: Duplex) => void): undefined => {
    const host = options.host ?? 'localhost';
    const port = Number(options.port) || (secure ? 443 : 80);
    proxyTunnel(proxy, host, port).then(
      (socket) => done(null, secure ? tlsConnect({ ...options, socket, servername: isIP(host) ? undefined : host }) : socket),
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
    );
    return undefined;
  };
  // Node's client takes a socket answered later through the callback (`oncreate`).
  return open as unknown as NonNullable<WebSocket.ClientOptions['createConnection']>;
}
