/**
 * Local fakes of the identity providers, each on its own 127.0.0.1 port and speaking the
 * provider's wire format: GitHub (token exchange and REST `/user`), a generic OpenID Connect
 * provider (discovery document, token and userinfo endpoints), LinuxDO Connect (token and
 * `/api/user`) and the WeChat helper server (`/api/wechat/user?code=`).
 *
 * Each fake checks what the real provider checks (client credentials, redirect_uri, bearer
 * token, one-time codes), so a successful sign-in proves the request was right. Codes are
 * issued by the test for a profile; `failProfile` makes the profile endpoint fail.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

function randomToken(prefix = ''): string {
  return prefix + randomBytes(18).toString('base64url');
}

/** Form or JSON request body as a flat record of strings. */
function parseBody(req: IncomingMessage, raw: string): Record<string, string> {
  if (!raw) return {};
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function bearer(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  const match = /^(?:Bearer|token)\s+(.+)$/i.exec(header);
  return match?.[1] ?? '';
}

/** `Authorization: Basic` credentials, if any. */
function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** One fake provider: an HTTP server, its issued codes and tokens, and a request log. */
abstract class FakeProvider<Profile> {
  url = '';
  readonly requests: RecordedRequest[] = [];
  /** When true the profile endpoint answers a server error. */
  failProfile = false;
  protected readonly codes = new Map<string, { profile: Profile; redirectUri?: string }>();
  protected readonly tokens = new Map<string, Profile>();
  #server?: Server;

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  async start(): Promise<this> {
    this.#server = createServer((req, res) => void this.#serve(req, res));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
  }

  /** A one-time code standing for `profile` (bound to `redirectUri` where the provider checks it). */
  issueCode(profile: Profile, redirectUri?: string): string {
    const code = randomToken();
    this.codes.set(code, { profile, redirectUri });
    return code;
  }

  /** Consumes a code: answers its grant once, then never again (as real providers do). */
  protected redeem(code: string): { profile: Profile; redirectUri?: string } | undefined {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    return grant;
  }

  protected grantToken(profile: Profile, prefix = ''): string {
    const token = randomToken(prefix);
    this.tokens.set(token, profile);
    return token;
  }

  protected abstract handle(req: IncomingMessage, url: URL, body: Record<string, string>): Reply;

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body: raw });
    const reply = this.handle(req, url, parseBody(req, raw));
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const type = typeof reply.body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8';
    res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
    res.end(text);
  }
}

export interface GitHubProfile {
  login: string;
  id?: number;
  name?: string | null;
  email?: string | null;
}

/** github.com's OAuth token exchange and api.github.com's `/user`, on one port. */
export class FakeGitHub extends FakeProvider<GitHubProfile> {
  protected handle(req: IncomingMessage, url: URL, body: Record<string, string>): Reply {
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      // GitHub reports exchange errors with HTTP 200 and an error object.
      if (body.client_id !== this.clientId || body.client_secret !== this.clientSecret) {
        return json(200, {
          error: 'incorrect_client_credentials',
          error_description: 'The client_id and/or client_secret passed are incorrect.',
          error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#incorrect-client-credentials',
        });
      }
      const grant = this.redeem(body.code ?? '');
      if (!grant) {
        return json(200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
          error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code',
        });
      }
      return json(200, { access_token: this.grantToken(grant.profile, 'gho_'), token_type: 'bearer', scope: 'user:email' });
    }
    if (req.method === 'GET' && url.pathname === '/user') {
      if (!req.headers['user-agent']) {
        return { status: 403, body: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.' };
      }
      if (this.failProfile) return { status: 503, body: '<html><body>No server is currently available to service your request.</body></html>' };
      const profile = this.tokens.get(bearer(req));
      if (!profile) return json(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
      return json(200, {
        login: profile.login,
        id: profile.id ?? 1000 + this.tokens.size,
        node_id: 'MDQ6VXNlcjE=',
        avatar_url: `https://avatars.githubusercontent.com/u/${profile.id ?? 1}?v=4`,
        type: 'User',
        site_admin: false,
        name: profile.name ?? null,
        email: profile.email ?? null,
        created_at: '2020-01-01T00:00:00Z',
      });
    }
    return json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  }
}

export interface OidcProfile {
  sub: string;
  email?: string;
  name?: string;
  preferred_username?: string;
}

/** An OpenID Connect provider with discovery, client_secret_post/basic token endpoint and userinfo. */
export class FakeOidc extends FakeProvider<OidcProfile> {
  get tokenEndpoint(): string {
    return `${this.url}/oauth2/token`;
  }
  get userInfoEndpoint(): string {
    return `${this.url}/oauth2/userinfo`;
  }

  #idToken(profile: OidcProfile): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss: this.url, aud: this.clientId, sub: profile.sub, iat: now, exp: now + 3600 })}`;
    return `${unsigned}.${createHmac('sha256', this.clientSecret).update(unsigned).digest('base64url')}`;
  }

  protected handle(req: IncomingMessage, url: URL, body: Record<string, string>): Reply {
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.url,
        authorization_endpoint: `${this.url}/oauth2/authorize`,
        token_endpoint: this.tokenEndpoint,
        userinfo_endpoint: this.userInfoEndpoint,
        jwks_uri: `${this.url}/oauth2/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['HS256'],
        scopes_supported: ['openid', 'profile', 'email'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        claims_supported: ['sub', 'email', 'name', 'preferred_username'],
      });
    }
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      const basic = basicCredentials(req);
      const clientId = basic?.id ?? body.client_id;
      const clientSecret = basic?.secret ?? body.client_secret;
      if (clientId !== this.clientId || clientSecret !== this.clientSecret) {
        return json(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
      }
      if (body.grant_type !== 'authorization_code') return json(400, { error: 'unsupported_grant_type' });
      const grant = this.redeem(body.code ?? '');
      if (!grant || (grant.redirectUri !== undefined && grant.redirectUri !== body.redirect_uri)) {
        return json(400, { error: 'invalid_grant', error_description: 'The authorization code is invalid or expired.' });
      }
      return json(
        200,
        {
          access_token: this.grantToken(grant.profile),
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'openid profile email',
          id_token: this.#idToken(grant.profile),
        },
        { 'cache-control': 'no-store' },
      );
    }
    if (url.pathname === '/oauth2/userinfo') {
      if (this.failProfile) return json(500, { error: 'server_error' });
      const profile = this.tokens.get(bearer(req));
      if (!profile) return json(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return json(200, Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined)));
    }
    return json(404, { error: 'not_found' });
  }
}

export interface LinuxDoProfile {
  id: number;
  username: string;
  name?: string;
  trust_level?: number;
}

/** LinuxDO Connect: Basic-authenticated token endpoint and `/api/user`. */
export class FakeLinuxDo extends FakeProvider<LinuxDoProfile> {
  protected handle(req: IncomingMessage, url: URL, body: Record<string, string>): Reply {
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      const basic = basicCredentials(req);
      if (!basic || basic.id !== this.clientId || basic.secret !== this.clientSecret) {
        return json(401, { error: 'invalid_client', error_description: 'Client authentication failed due to unknown client.' });
      }
      const grant = this.redeem(body.code ?? '');
      if (body.grant_type !== 'authorization_code' || !grant || (grant.redirectUri !== undefined && grant.redirectUri !== body.redirect_uri)) {
        return json(400, {
          error: 'invalid_grant',
          error_description: 'The provided authorization grant is invalid, expired, revoked, or was issued to another client.',
        });
      }
      return json(200, { access_token: this.grantToken(grant.profile), token_type: 'bearer', expires_in: 7200, refresh_token: randomToken() });
    }
    if (req.method === 'GET' && url.pathname === '/api/user') {
      if (this.failProfile) return { status: 502, body: '<html><body>502 Bad Gateway</body></html>' };
      const profile = this.tokens.get(bearer(req));
      if (!profile) return json(401, { errors: ['You are not permitted to view the requested resource.'], error_type: 'invalid_access' });
      return json(200, {
        id: profile.id,
        sub: String(profile.id),
        username: profile.username,
        login: profile.username,
        name: profile.name ?? '',
        email: `u${profile.id}@privaterelay.linux.do`,
        avatar_template: `https://linux.do/user_avatar/linux.do/${profile.username}/{size}/1_2.png`,
        active: true,
        trust_level: profile.trust_level ?? 1,
        silenced: false,
        external_ids: null,
      });
    }
    return json(404, { errors: ['The requested URL or resource could not be found.'], error_type: 'not_found' });
  }
}

/** The WeChat helper server: codes the official account handed out, checked with the server token. */
export class FakeWeChat extends FakeProvider<string> {
  /** The token expected in `Authorization` (raw, no Bearer). */
  get serverToken(): string {
    return this.clientSecret;
  }

  protected handle(req: IncomingMessage, url: URL): Reply {
    if (req.method === 'GET' && url.pathname === '/api/wechat/user') {
      if (req.headers.authorization !== this.serverToken) return json(200, { success: false, message: '无权进行此操作，token 无效' });
      if (this.failProfile) return { status: 500, body: '<html><body>Internal Server Error</body></html>' };
      const code = url.searchParams.get('code') ?? '';
      if (!code) return json(200, { success: false, message: '无效的参数' });
      const grant = this.redeem(code);
      // The helper answers an unknown code with success and empty data.
      return json(200, { success: true, message: '', data: grant?.profile ?? '' });
    }
    return json(404, { success: false, message: 'not found' });
  }
}

export interface IdentityProviderFakes {
  github: FakeGitHub;
  oidc: FakeOidc;
  linuxdo: FakeLinuxDo;
  wechat: FakeWeChat;
  close(): Promise<void>;
}

export async function startIdentityProviderFakes(): Promise<IdentityProviderFakes> {
  const github = await new FakeGitHub('gh-client-id', 'gh-client-secret').start();
  const oidc = await new FakeOidc('oidc-client-id', 'oidc-client-secret').start();
  const linuxdo = await new FakeLinuxDo('ld-client-id', 'ld-client-secret').start();
  const wechat = await new FakeWeChat('', 'wechat-server-token').start();
  return {
    github,
    oidc,
    linuxdo,
    wechat,
    async close() {
      await Promise.all([github.close(), oidc.close(), linuxdo.close(), wechat.close()]);
    },
  };
}

/** A URL on which nothing listens (connection refused). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
