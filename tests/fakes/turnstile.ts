/**
 * A stand-in for Cloudflare's siteverify endpoint on 127.0.0.1: form POST with secret,
 * response and remoteip, answered with `{success}`. A token passes when it is one of
 * `validTokens` and the secret matches. `broken` makes it answer 500 with a non-JSON body.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TurnstileCall {
  secret: string;
  response: string;
  remoteip: string;
}

export interface FakeTurnstile {
  /** The URL to configure as TURNSTILE_VERIFY_URL. */
  url: string;
  calls: TurnstileCall[];
  validTokens: Set<string>;
  broken: boolean;
  close(): Promise<void>;
}

export async function startFakeTurnstile(secret: string, validTokens: string[] = []): Promise<FakeTurnstile> {
  const fake: Omit<FakeTurnstile, 'url' | 'close'> = { calls: [], validTokens: new Set(validTokens), broken: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (fake.broken) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const call = { secret: form.get('secret') ?? '', response: form.get('response') ?? '', remoteip: form.get('remoteip') ?? '' };
      fake.calls.push(call);
      const formEncoded = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const success = req.method === 'POST' && formEncoded && call.secret === secret && fake.validTokens.has(call.response);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
