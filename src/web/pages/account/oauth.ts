/**
 * Third-party sign-in: the provider authorize URLs (docs/accounts.md#third-party-login) and the
 * state call. Pure apart from `fetchState`, so the URLs are unit-tested.
 */
import type { Api } from '../../wire/api';
import type { PublicStatus } from '../../state/public-status';

export type OAuthProvider = 'github' | 'oidc' | 'linuxdo';

export const GITHUB_AUTHORIZE = 'https://github.com/login/oauth/authorize';
export const LINUXDO_AUTHORIZE = 'https://connect.linux.do/oauth2/authorize';

/** `GET /api/oauth/state?aff=`: the state string the callback must carry back. */
export function fetchState(api: Api, aff: string): Promise<string> {
  return api.request<string>('get', '/api/oauth/state', { query: { aff } });
}

/** The page the browser opens for `provider`, or undefined when the status lacks its settings. */
export function authorizeUrl(provider: OAuthProvider, status: PublicStatus, state: string, origin: string): string | undefined {
  const url = (base: string, params: Record<string, string>) => {
    const u = new URL(base);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  };
  if (provider === 'github' && status.github_client_id) {
    return url(GITHUB_AUTHORIZE, { client_id: status.github_client_id, state, scope: 'user:email' });
  }
  if (provider === 'linuxdo' && status.linuxdo_client_id) {
    return url(LINUXDO_AUTHORIZE, { response_type: 'code', client_id: status.linuxdo_client_id, state });
  }
  if (provider === 'oidc' && status.oidc_client_id && status.oidc_authorization_endpoint) {
    return url(status.oidc_authorization_endpoint, {
      client_id: status.oidc_client_id,
      redirect_uri: `${origin}/oauth/oidc`,
      response_type: 'code',
      scope: 'openid profile email',
      state,
    });
  }
  return undefined;
}

/** Which third-party buttons to offer: only providers the status enables. */
export interface EnabledProviders {
  oauth: OAuthProvider[];
  wechat: boolean;
  telegram: boolean;
}

export function enabledProviders(status: PublicStatus): EnabledProviders {
  const oauth: OAuthProvider[] = [];
  if (status.github_oauth) oauth.push('github');
  if (status.oidc_enabled) oauth.push('oidc');
  if (status.linuxdo_oauth) oauth.push('linuxdo');
  return { oauth, wechat: Boolean(status.wechat_login), telegram: Boolean(status.telegram_oauth && status.telegram_bot_name) };
}
