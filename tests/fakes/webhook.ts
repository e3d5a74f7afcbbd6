/**
 * A webhook receiver over HTTPS on 127.0.0.1 (ephemeral port), for notification tests.
 * It serves the test-only self-signed certificate of tests/fakes/certs; the server under test
 * trusts it through WEBHOOK_CA_FILE (`WEBHOOK_CA_FILE` below). Every POST is kept with its
 * raw body (signatures are computed over the exact bytes); the reply status can be changed.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const CERTS = join(import.meta.dirname, 'certs');
/** The value for the server's WEBHOOK_CA_FILE. */
export const WEBHOOK_CA_FILE = join(CERTS, 'webhook-cert.pem');

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body bytes as text. */
  raw: string;
  /** The body parsed (undefined when not JSON). */
  json: any;
}

export interface FakeWebhook {
  /** https://127.0.0.1:<port> */
  url: string;
  received: ReceivedHook[];
  /** Status of the replies (default 200). */
  status: number;
  /** Resolves with the next delivery (or one already received and not yet taken). */
  next(timeoutMs?: number): Promise<ReceivedHook>;
  close(): Promise<void>;
}

export async function startFakeWebhook(): Promise<FakeWebhook> {
  const received: ReceivedHook[] = [];
  let taken = 0;
  const waiting: Array<(hook: ReceivedHook) => void> = [];
  const server = createServer({ key: readFileSync(join(CERTS, 'webhook-key.pem')), cert: readFileSync(WEBHOOK_CA_FILE) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
      received.push({ path: req.url ?? '/', headers: req.headers, raw, json });
      res.writeHead(fake.status, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      const wake = waiting.shift();
      if (wake) {
        taken++;
        wake(received[received.length - 1]!);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeWebhook = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    status: 200,
    next(timeoutMs = 5000) {
      if (taken < received.length) return Promise.resolve(received[taken++]!);
      return new Promise((resolve, reject) => {
        const entry = (hook: ReceivedHook) => {
          clearTimeout(timer);
          resolve(hook);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(new Error(`no webhook call within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(entry);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}
