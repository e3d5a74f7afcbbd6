/**
 * A provider's `authorize` step (SigV4 over the final body, an OAuth access token), run after
 * `buildRequest` by every caller that sends a provider's request: an attempt, the channel
 * test, Claude's count_tokens.
 */
import { ChannelKeyError, ProviderRequestError, type Provider, type Target, type UpstreamRequest } from '../providers/types';
import { RelayError, refuse } from '../errors';
import type { RelayRuntime } from '../runtime';

/** A key the provider cannot use: the channel's fault, as if its upstream had refused the key. */
export function channelKeyError(err: ChannelKeyError): RelayError {
  return new RelayError(401, err.message, { type: 'channel_credential_error', code: 'invalid_channel_key', local: false, upstream: true });
}

/**
 * The request as it goes out, for a provider with an `authorize` step (callers check
 * `provider.authorize` first, so the others pay no await); throws a RelayError when it
 * cannot be authorised.
 */
export async function authorize(rt: RelayRuntime, provider: Provider, up: UpstreamRequest, target: Target): Promise<UpstreamRequest> {
  try {
    return provider.authorize ? await provider.authorize(up, target, rt.credentials) : up;
  } catch (err) {
    if (err instanceof ChannelKeyError) throw channelKeyError(err);
    if (err instanceof ProviderRequestError) throw refuse(err.status, err.message, err.code);
    throw err;
  }
}
