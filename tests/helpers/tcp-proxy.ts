/**
 * A TCP proxy of the test's own in front of a database, for fault tests: `cut()` drops every
 * connection and refuses new ones (the database is gone), `stall()` keeps connections open
 * but forwards nothing (a network that stopped answering), `restore()` makes it a plain
 * proxy again. The shared database server itself is never touched.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'open' | 'stalled' = 'open';
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const onConnection = (client: Socket) => {
    track(client);
    // A stalled network: the connection is taken, nothing ever comes back.
    if (mode === 'stalled') return;
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(onConnection);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      const closing = stopListening();
      dropAll();
      await closing;
    },
    stall() {
      mode = 'stalled';
      // Open connections stop carrying anything too.
      for (const s of sockets) s.pause();
    },
    async restore() {
      if (mode === 'stalled') {
        mode = 'open';
        dropAll();
        return;
      }
      if (!server.listening) await listen();
    },
    async close() {
      dropAll();
      if (server.listening) await stopListening();
    },
  };
}
