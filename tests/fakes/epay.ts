/**
 * A fake epay-compatible payment provider on 127.0.0.1. It accepts the submit form
 * (`POST /submit.php`, form-encoded, or GET with a query) the console posts after
 * `/api/user/pay`, checks its MD5 signature with the merchant key, and keeps the order.
 * `notify` then does what the real provider does after a payment: a GET to the order's
 * `notify_url` with a correctly signed query, answering the merchant's plain-text reply.
 * The signature is written here independently of the server's code, so the tests check
 * the server against the protocol rather than against itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Params = Record<string, string>;

export interface NotifyOptions {
  /** Replaces or adds query parameters before signing (e.g. a different money). */
  change?: Params;
  /** Sign with this key instead of the merchant key (a forged notification). */
  signKey?: string;
  /** Replaces the signature after signing. */
  sign?: string;
}

export interface FakeEpay {
  /** The PayAddress to configure. */
  url: string;
  pid: string;
  key: string;
  /** Orders submitted with a valid signature, oldest first. */
  orders: Params[];
  /** Submissions refused for a bad signature or a wrong merchant id. */
  refused: Params[];
  /** Sends the payment notification of `order` to its notify_url; answers status and body text. */
  notify(order: Params, options?: NotifyOptions): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

/** The provider's signature: sorted non-empty parameters except sign/sign_type, key appended, MD5. */
export function signEpay(params: Params, key: string): string {
  const text = Object.entries(params)
    .filter(([k, v]) => k !== 'sign' && k !== 'sign_type' && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return createHash('md5')
    .update(text + key)
    .digest('hex');
}

async function readForm(req: IncomingMessage): Promise<Params> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const query = new URL(req.url ?? '/', 'http://fake').searchParams;
  const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  return { ...Object.fromEntries(query), ...Object.fromEntries(body) };
}

export async function startFakeEpay(options: { pid?: string; key?: string } = {}): Promise<FakeEpay> {
  const pid = options.pid ?? '1001';
  const key = options.key ?? randomBytes(16).toString('hex');
  const orders: Params[] = [];
  const refused: Params[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (!path.endsWith('/submit.php')) {
      res.writeHead(404).end('not found');
      return;
    }
    const form = await readForm(req);
    if (form.pid !== pid || form.sign !== signEpay(form, key) || form.sign_type !== 'MD5') {
      refused.push(form);
      res.writeHead(400, { 'content-type': 'text/plain' }).end('签名错误');
      return;
    }
    orders.push(form);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><body>pay ${form.money} for ${form.out_trade_no}</body></html>`);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    key,
    orders,
    refused,
    async notify(order, notifyOptions = {}) {
      const query: Params = {
        pid,
        trade_no: `2024${randomBytes(6).toString('hex')}`,
        out_trade_no: order.out_trade_no ?? '',
        type: order.type ?? 'alipay',
        name: order.name ?? '',
        money: order.money ?? '',
        trade_status: 'TRADE_SUCCESS',
        ...notifyOptions.change,
      };
      const signed = { ...query, sign: notifyOptions.sign ?? signEpay(query, notifyOptions.signKey ?? key), sign_type: 'MD5' };
      const target = new URL(order.notify_url ?? '');
      for (const [k, v] of Object.entries(signed)) target.searchParams.set(k, v);
      const res = await fetch(target);
      return { status: res.status, text: await res.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
