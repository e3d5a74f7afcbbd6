/**
 * A TLS front of the test's own (the test-only certificate of tests/fakes/certs) passing
 * connections on to a plain local port, as a reverse proxy terminating TLS would: for clients
 * that only speak `wss://` (the `openai` SDK's Realtime client).
 */
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer } from 'node:tls';

const CERTS = join(import.meta.dirname, '..', 'fakes', 'certs');
/** The certificate clients must trust (pass it as `ca`). */
export const TLS_FRONT_CA = readFileSync(join(CERTS, 'webhook-cert.pem'));

export interface TlsFront {
  /** https://127.0.0.1:port */
  url: string;
  close(): Promise<void>;
}

export async function startTlsFront(targetPort: number): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const server = createServer({ key: readFileSync(join(CERTS, 'webhook-key.pem')), cert: TLS_FRONT_CA }, (client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
