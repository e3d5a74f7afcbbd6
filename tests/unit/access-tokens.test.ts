/**
 * The relay's access-token service against the fake Vertex token endpoint: one fetch per
 * credential however many ask at once, the token reused until a minute before it expires,
 * a bounded cache, and token URLs that came with a key kept to public https addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens, MAX_TOKENS } from '../../src/server/relay/upstream/access-tokens';
import { RelayError } from '../../src/server/relay/errors';
import { accessTokenGrant, serviceAccount } from '../../src/server/relay/providers/vertex/service-account';
import type { TokenGrant } from '../../src/server/relay/providers/types';
import { startFakeVertex, type FakeVertex } from '../fakes/vertex';

describe('access tokens of channel keys', () => {
  let vertex: FakeVertex;
  let grant: TokenGrant;
  beforeAll(async () => {
    vertex = await startFakeVertex();
    grant = accessTokenGrant(vertex.serviceAccountKey, serviceAccount(vertex.serviceAccountKey));
  });
  afterAll(() => vertex?.close());

  it('fetches once for concurrent callers and reuses the token until a minute before it expires', async () => {
    let now = 1_000_000;
    const tokens = new AccessTokens({ privateAddressesAllowed: true, now: () => now });
    const before = vertex.tokensIssued;
    const answers = await Promise.all([tokens.accessToken(grant), tokens.accessToken(grant), tokens.accessToken(grant)]);
    expect(new Set(answers).size).toBe(1);
    expect(vertex.tokensIssued).toBe(before + 1);
    now += (vertex.tokenLifetime - 61) * 1000;
    expect(await tokens.accessToken(grant)).toBe(answers[0]);
    now += 2000;
    const renewed = await tokens.accessToken(grant);
    expect(renewed).not.toBe(answers[0]);
    expect(vertex.tokensIssued).toBe(before + 2);
  });

  it('keeps a bounded number of credentials, the oldest going first; refusals are not kept', async () => {
    const tokens = new AccessTokens({ privateAddressesAllowed: true, maxTokens: 2 });
    const as = (secret: string): TokenGrant => ({ secret, request: grant.request });
    const issued = () => vertex.tokensIssued;
    const start = issued();
    await tokens.accessToken(as('a'));
    await tokens.accessToken(as('b'));
    await tokens.accessToken(as('c'));
    expect(tokens.size).toBe(2);
    expect(issued()).toBe(start + 3);
    await tokens.accessToken(as('c'));
    expect(issued()).toBe(start + 3);
    // `a` was the oldest: dropped when `c` came, fetched anew.
    await tokens.accessToken(as('a'));
    expect(issued()).toBe(start + 4);

    const refused = { secret: 'refused', request: () => ({ url: `${vertex.url}/token`, form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'not-a-jwt' }, fromKey: true }) };
    const calls = vertex.tokenRequests;
    await expect(tokens.accessToken(refused)).rejects.toMatchObject({ status: 401, code: 'access_token_refused' });
    await expect(tokens.accessToken(refused)).rejects.toMatchObject({ status: 401, code: 'access_token_refused' });
    expect(vertex.tokenRequests).toBe(calls + 2);
    expect(MAX_TOKENS).toBe(1024);
  });

  it('refuses a token URL of a key that is not public https, without calling it', async () => {
    const tokens = new AccessTokens({ privateAddressesAllowed: false });
    const calls = vertex.tokenRequests;
    await expect(tokens.accessToken(grant)).rejects.toMatchObject({ status: 401, code: 'token_url_invalid' });
    const https = { secret: 'x', request: () => ({ url: 'https://127.0.0.1:9/token', form: {}, fromKey: true }) };
    const refused = await tokens.accessToken(https).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RelayError);
    expect(refused).toMatchObject({ status: 401, code: 'token_url_not_public' });
    const metadata = { secret: 'y', request: () => ({ url: 'https://169.254.169.254/token', form: {}, fromKey: true }) };
    await expect(tokens.accessToken(metadata)).rejects.toMatchObject({ code: 'token_url_not_public' });
    expect(vertex.tokenRequests).toBe(calls);
  });
});
