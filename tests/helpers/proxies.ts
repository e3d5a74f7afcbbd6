/**
 * Forward proxies of the tests' own on 127.0.0.1, to check that a channel's traffic goes
 * through its `setting.proxy`: an HTTP proxy answering CONNECT (RFC 9110 §9.3.6) and a
 * SOCKS5 proxy (RFC 1928, user/password auth of RFC 1929). Each counts the tunnels it
 * opened and remembers where to (`host:port`) and from which local port it reached the
 * target (`carried`: an upstream that sees a caller on one of them was reached through this
 * proxy); with `auth` set it refuses other credentials.
 */
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TestProxy {
  /** `scheme://[user:pass@]127.0.0.1:port` */
  url: string;
  /** Tunnels opened, in order: the target each asked for. */
  tunnels: string[];
  /** Local ports of the proxy's connections to the targets. */
  carried: Set<number>;
  /** Attempts refused for wrong or missing credentials. */
  refused: number;
  close(): Promise<void>;
}

interface Auth {
  user: string;
  pass: string;
}

function tracked(server: Server): { sockets: Set<Socket>; close: () => Promise<void> } {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Joins two sockets both ways; either closing closes the other. */
function splice(a: Socket, b: Socket): void {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function withAuth(scheme: string, port: number, auth?: Auth): string {
  return `${scheme}://${auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : ''}127.0.0.1:${port}`;
}

/** An HTTP proxy that only tunnels (CONNECT host:port); other requests get 405. */
export async function startConnectProxy(auth?: Auth): Promise<TestProxy> {
  const server = createHttpServer((_req, res) => res.writeHead(405).end());
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}` : undefined;
  const proxy: TestProxy = { url: '', tunnels: [], carried: new Set(), refused: 0, close: async () => undefined };
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => undefined);
    if (expected && req.headers['proxy-authorization'] !== expected) {
      proxy.refused++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
    proxy.tunnels.push(req.url!);
    const upstream = connect(port, host, () => {
      proxy.carried.add(upstream.localPort!);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      splice(client, upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  });
  const { close } = tracked(server);
  proxy.url = withAuth('http', await listen(server), auth);
  proxy.close = close;
  return proxy;
}

/** Reads exact byte counts from a socket that may deliver them in any pieces. */
class ByteReader {
  #buffer = Buffer.alloc(0);
  #wanted: { n: number; resolve: (b: Buffer) => void } | undefined;

  constructor(private readonly socket: Socket) {
    socket.on('data', this.#onData);
  }

  readonly #onData = (chunk: Buffer) => {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#deliver();
  };

  #deliver(): void {
    if (this.#wanted && this.#buffer.length >= this.#wanted.n) {
      const { n, resolve } = this.#wanted;
      this.#wanted = undefined;
      const out = this.#buffer.subarray(0, n);
      this.#buffer = this.#buffer.subarray(n);
      resolve(out);
    }
  }

  read(n: number): Promise<Buffer> {
    return new Promise((resolve) => {
      this.#wanted = { n, resolve };
      this.#deliver();
    });
  }

  /** Stops reading; answers what arrived beyond the last read. */
  release(): Buffer {
    this.socket.off('data', this.#onData);
    return this.#buffer;
  }
}

/** A SOCKS5 proxy (CONNECT only; no auth, or user/password when `auth` is given). */
export async function startSocks5Proxy(auth?: Auth): Promise<TestProxy> {
  const proxy: TestProxy = { url: '', tunnels: [], carried: new Set(), refused: 0, close: async () => undefined };
  const handle = async (client: Socket) => {
    client.on('error', () => undefined);
    const reader = new ByteReader(client);
    const [version, count] = await reader.read(2);
    const methods = [...(await reader.read(count!))];
    if (version !== 5) return client.destroy();
    const method = auth ? 0x02 : 0x00;
    if (!methods.includes(method)) return client.end(Buffer.from([5, 0xff]));
    client.write(Buffer.from([5, method]));
    if (auth) {
      const [, userLength] = await reader.read(2);
      const user = (await reader.read(userLength!)).toString();
      const [passLength] = await reader.read(1);
      const pass = (await reader.read(passLength!)).toString();
      if (user !== auth.user || pass !== auth.pass) {
        proxy.refused++;
        return client.end(Buffer.from([1, 1]));
      }
      client.write(Buffer.from([1, 0]));
    }
    const [, command, , type] = await reader.read(4);
    let host: string;
    if (type === 1) host = [...(await reader.read(4))].join('.');
    else if (type === 3) host = (await reader.read((await reader.read(1))[0]!)).toString();
    else host = (await reader.read(16)).toString('hex').replace(/(.{4})(?!$)/g, '$1:');
    const port = (await reader.read(2)).readUInt16BE(0);
    if (command !== 1) return client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
    proxy.tunnels.push(`${host}:${port}`);
    const upstream = connect(port, host, () => {
      proxy.carried.add(upstream.localPort!);
      client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
      const early = reader.release();
      if (early.length > 0) upstream.write(early);
      splice(client, upstream);
    });
    upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
  };
  const server = createServer((client) => void handle(client).catch(() => client.destroy()));
  const { close } = tracked(server);
  proxy.url = withAuth('socks5', await listen(server), auth);
  proxy.close = close;
  return proxy;
}
