/**
 * OAuth access tokens of channel keys (a Vertex AI service account today; Baidu's v1 access
 * tokens fit the same grant): the relay's `CredentialServices`, lent to a provider's
 * `authorize` step, which is how a provider reaches the network.
 *
 * - Cached per credential until a minute before the token expires, under a SHA-256 of the
 *   credential (the key itself is never a cache key); at most MAX_TOKENS credentials are
 *   kept (the oldest goes first), so a stream of distinct keys cannot grow the process.
 * - One fetch per credential at a time: concurrent requests of a cold channel share it.
 * - A token URL that came with the key (a service account's `token_uri`) must be https and
 *   is reached only at public addresses (checked at connect time, `plumbing/public-address`),
 *   unless TOKEN_URL_PRIVATE_ADDRESS_ENABLED is set (tests with local fakes, private mirrors).
 * - Failures are channel faults: a refused credential answers 401 (another channel is tried,
 *   this one counted), a network failure or an endpoint's 5xx 500. Nothing failed is cached.
 */
import { createHash } from 'node:crypto';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { hasLiteralPrivateHost, isPrivateAddressError, publicOnlyAgent } from '../../plumbing/public-address';
import { RelayError, transportError } from '../errors';
import type { CredentialServices, TokenGrant, TokenRequest } from '../providers/types';

/** Credentials whose tokens are kept at most. */
export const MAX_TOKENS = 1024;
/** A token is renewed this long before it expires (requests in flight keep a valid one). */
const RENEW_BEFORE_MS = 60_000;
/** A token endpoint that does not answer within this is a network failure. */
const FETCH_TIMEOUT_MS = 10_000;
/** Token answers are small; anything longer is not one. */
const ANSWER_LIMIT = 64 * 1024;
/** Lifetime assumed when the answer has no `expires_in` (RFC 6749 makes it optional). */
const DEFAULT_LIFETIME_S = 3600;

interface CachedToken {
  token: string;
  expiresAt: number;
}

export interface AccessTokenOptions {
  /** TOKEN_URL_PRIVATE_ADDRESS_ENABLED: token URLs of keys may be http and private. */
  privateAddressesAllowed: boolean;
  /** Credentials kept at most (default MAX_TOKENS). */
  maxTokens?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** A refusal of the credential (bad key, refused grant, unusable URL): the channel's fault. */
function credentialError(message: string, code: string): RelayError {
  return new RelayError(401, message, { type: 'channel_credential_error', code, local: false, upstream: true });
}

export class AccessTokens implements CredentialServices {
  readonly #tokens = new Map<string, CachedToken>();
  readonly #pending = new Map<string, Promise<string>>();
  readonly #now: () => number;

  constructor(private readonly options: AccessTokenOptions) {
    this.#now = options.now ?? Date.now;
  }

  /** Credentials with a token in the cache (tests, the bound). */
  get size(): number {
    return this.#tokens.size;
  }

  accessToken(grant: TokenGrant): Promise<string> {
    const key = createHash('sha256').update(grant.secret).digest('hex');
    const cached = this.#tokens.get(key);
    if (cached && cached.expiresAt - RENEW_BEFORE_MS > this.#now()) return Promise.resolve(cached.token);
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#fetch(key, grant).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  async #fetch(key: string, grant: TokenGrant): Promise<string> {
    const request = await grant.request();
    const { token, lifetimeSeconds } = await this.#exchange(request);
    this.#tokens.delete(key);
    if (this.#tokens.size >= (this.options.maxTokens ?? MAX_TOKENS)) this.#tokens.delete(this.#tokens.keys().next().value!);
    this.#tokens.set(key, { token, expiresAt: this.#now() + lifetimeSeconds * 1000 });
    return token;
  }

  #dispatcher(request: TokenRequest): Dispatcher | undefined {
    if (!request.fromKey || this.options.privateAddressesAllowed) return undefined;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw credentialError('the token URL of the channel key is not a URL', 'token_url_invalid');
    }
    if (url.protocol !== 'https:') throw credentialError('the token URL of the channel key must use https', 'token_url_invalid');
    if (hasLiteralPrivateHost(url)) throw credentialError('the token URL of the channel key is not a public address', 'token_url_not_public');
    return publicOnlyAgent();
  }

  async #exchange(request: TokenRequest): Promise<{ token: string; lifetimeSeconds: number }> {
    const dispatcher = this.#dispatcher(request);
    let status: number;
    let text: string;
    try {
      const answer = await undiciRequest(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(request.form).toString(),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        ...(dispatcher ? { dispatcher } : {}),
      });
      status = answer.statusCode;
      text = await readLimited(answer.body);
    } catch (err) {
      if (isPrivateAddressError(err)) throw credentialError('the token URL of the channel key is not a public address', 'token_url_not_public');
      throw transportError(`access token request failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    let json: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: judged by the status below.
    }
    if (status >= 200 && status < 300 && typeof json.access_token === 'string' && json.access_token !== '') {
      const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : Number(json.expires_in) || DEFAULT_LIFETIME_S;
      return { token: json.access_token, lifetimeSeconds: expiresIn };
    }
    // RFC 6749 §5.2: {error, error_description}; never the key or the assertion.
    const reason = [json.error, json.error_description].filter((part) => typeof part === 'string' && part !== '').join(': ') || `status ${status}`;
    if (status >= 500) throw new RelayError(500, `access token request failed: ${reason}`, { type: 'upstream_error', code: 'access_token_failed', local: false, upstream: true });
    throw credentialError(`access token refused: ${reason}`, 'access_token_refused');
  }
}

async function readLimited(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > ANSWER_LIMIT) {
      body.destroy();
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
