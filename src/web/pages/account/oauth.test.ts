import { describe, expect, it } from 'vitest';
import { authorizeUrl, enabledProviders } from './oauth';

describe('third-party sign-in', () => {
  it('offers only enabled providers', () => {
    expect(enabledProviders({})).toEqual({ oauth: [], wechat: false, telegram: false });
    expect(enabledProviders({ github_oauth: true, linuxdo_oauth: true, wechat_login: true, telegram_oauth: true })).toEqual({
      oauth: ['github', 'linuxdo'],
      wechat: true,
      telegram: false,
    });
    expect(enabledProviders({ oidc_enabled: true, telegram_oauth: true, telegram_bot_name: 'bot' })).toEqual({ oauth: ['oidc'], wechat: false, telegram: true });
  });

  it('builds the authorize URLs', () => {
    expect(authorizeUrl('github', { github_client_id: 'gh1' }, 's1', 'https://c.x')).toBe('https://github.com/login/oauth/authorize?client_id=gh1&state=s1&scope=user%3Aemail');
    expect(authorizeUrl('linuxdo', { linuxdo_client_id: 'ld' }, 's2', 'https://c.x')).toBe('https://connect.linux.do/oauth2/authorize?response_type=code&client_id=ld&state=s2');
    const oidc = new URL(authorizeUrl('oidc', { oidc_client_id: 'o', oidc_authorization_endpoint: 'https://id.x/auth?tenant=1' }, 's3', 'https://c.x')!);
    expect(oidc.origin + oidc.pathname).toBe('https://id.x/auth');
    expect(Object.fromEntries(oidc.searchParams)).toEqual({
      tenant: '1',
      client_id: 'o',
      redirect_uri: 'https://c.x/oauth/oidc',
      response_type: 'code',
      scope: 'openid profile email',
      state: 's3',
    });
  });

  it('gives nothing without the provider settings', () => {
    expect(authorizeUrl('github', {}, 's', 'https://c.x')).toBeUndefined();
    expect(authorizeUrl('oidc', { oidc_client_id: 'o' }, 's', 'https://c.x')).toBeUndefined();
  });
});
