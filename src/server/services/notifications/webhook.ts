/**
 * Delivers a notice to a user's webhook (docs/notifications.md#webhooks):
 * HTTPS only; POST of `{type, title, content, values, timestamp}` as JSON; when a secret is
 * set, `Authorization: Bearer <secret>` (the console's rule) and `X-Webhook-Signature` = hex
 * HMAC-SHA256 of the exact body bytes keyed by the secret (the reference). 5 seconds at
 * most; any answer other than 2xx is a failure.
 *
 * Extra certificate authorities (WEBHOOK_CA_FILE) are trusted beside the public roots, for
 * receivers behind a private CA, which is also how the tests reach their self-signed receiver.
 *
 * The address is a user's (issue #12): unless the operator allows private targets (option
 * WebhookPrivateAddressEnabled), a literal non-public address is refused before connecting
 * and a name is resolved by the connection's own public-only lookup, so neither a stored
 * address nor DNS rebinding reaches loopback, the private network or cloud metadata.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import type { Config } from '../../config';
import { hasLiteralPrivateHost, isPrivateAddressError, makePublicOnlyAgent } from '../../plumbing/public-address';
import { isHttpsUrl } from '../users/user-setting.service';
import { fillNotice, type Notice } from './notice';
import { nowSeconds } from '../../../shared/time';

export const WEBHOOK_TIMEOUT_MS = 5_000;

/** The failure of a delivery to a non-public address (safe to log: no address in it). */
export const WEBHOOK_NOT_PUBLIC = 'webhook address is not public';

export interface WebhookOptions {
  /** The operator allows loopback and private targets (option WebhookPrivateAddressEnabled). */
  allowPrivate?: boolean;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** The body the receiver gets. */
export interface WebhookPayload {
  type: string;
  title: string;
  content: string;
  values: string[];
  /** Unix seconds. */
  timestamp: number;
}

/**
 * A header value carrying `text` as UTF-8 bytes (as the reference's Go client sends it):
 * HTTP header values are bytes, and a secret may have any character.
 */
function headerBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export function webhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

const agents = new Map<string, Dispatcher>();

/**
 * The dispatcher of a delivery: public-only unless private targets are allowed, trusting the
 * configured extra CAs when there are; undefined for undici's default. One per kind, shared.
 */
function dispatcherFor(config: Pick<Config, 'webhookCaFile'>, allowPrivate: boolean): Dispatcher | undefined {
  const file = config.webhookCaFile;
  if (!file && allowPrivate) return undefined;
  const key = `${allowPrivate ? 'any' : 'public'}:${file}`;
  let agent = agents.get(key);
  if (!agent) {
    const tls = file ? { ca: [...rootCertificates, readFileSync(file, 'utf8')] } : {};
    agent = allowPrivate ? new Agent({ connect: tls }) : makePublicOnlyAgent(tls);
    agents.set(key, agent);
  }
  return agent;
}

/** Sends one notice; throws an Error whose message is safe to log (no secret, no body, no address). */
export async function postWebhook(config: Pick<Config, 'webhookCaFile'>, target: WebhookTarget, notice: Notice, options: WebhookOptions = {}): Promise<void> {
  if (!isHttpsUrl(target.url)) throw new Error('webhook address is not https');
  const allowPrivate = options.allowPrivate === true;
  if (!allowPrivate && hasLiteralPrivateHost(new URL(target.url))) throw new Error(WEBHOOK_NOT_PUBLIC);
  const payload: WebhookPayload = {
    type: notice.type,
    title: notice.title,
    content: fillNotice(notice),
    values: notice.values,
    timestamp: nowSeconds(),
  };
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.secret) {
    headers.authorization = headerBytes(`Bearer ${target.secret}`);
    headers['x-webhook-signature'] = webhookSignature(body, target.secret);
  }
  const dispatcher = dispatcherFor(config, allowPrivate);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(target.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch (err) {
    if (isPrivateAddressError(err)) throw new Error(WEBHOOK_NOT_PUBLIC);
    const name = (err as Error).name;
    throw new Error(name === 'TimeoutError' || name === 'AbortError' ? 'webhook timed out' : `webhook request failed: ${(err as Error).message}`);
  }
  await response.body.dump();
  if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`webhook answered status ${response.statusCode}`);
}
