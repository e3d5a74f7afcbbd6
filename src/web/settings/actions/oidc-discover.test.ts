import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../catalogue-source';
import { buildSettingsModel } from '../settings-model';
import { discoveredValues, fetchDiscovery } from './oidc-discover';

const oidc = buildSettingsModel(CATALOGUE.sections, { lang: 'en', role: 100 })
  .flatMap((t) => t.sections)
  .find((s) => s.id === 'system-oidc')!;

describe('OIDC discovery', () => {
  it('fills the endpoint keys from the document fields of the same name', () => {
    const doc = {
      issuer: 'https://id.example',
      authorization_endpoint: 'https://id.example/auth',
      token_endpoint: 'https://id.example/token',
      userinfo_endpoint: 'https://id.example/me',
      jwks_uri: 'https://id.example/jwks',
    };
    expect(discoveredValues(doc, oidc.fields)).toEqual({
      oidc__authorization_endpoint: 'https://id.example/auth',
      oidc__token_endpoint: 'https://id.example/token',
      oidc__user_info_endpoint: 'https://id.example/me',
    });
    expect(discoveredValues('nope', oidc.fields)).toEqual({});
  });

  it('refuses a URL that is not http(s) and a failed answer', async () => {
    await expect(fetchDiscovery('ftp://x')).rejects.toThrow();
    const failing = (async () => new Response('no', { status: 404 })) as typeof fetch;
    await expect(fetchDiscovery('https://id.example/.well-known/openid-configuration', failing)).rejects.toThrow('HTTP 404');
    const ok = (async () => Response.json({ token_endpoint: 't' })) as typeof fetch;
    await expect(fetchDiscovery('https://id.example/x', ok)).resolves.toEqual({ token_endpoint: 't' });
  });
});
